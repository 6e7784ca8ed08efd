package io.strata.engine.durability;

import io.strata.Storage;
import io.strata.engine.disk.RocksDiskStore;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens a database directory: lock, recover, and start a new log segment.
 *
 * <h2>Directory layout</h2>
 * <pre>
 * LOCK                                 held (OS file lock) while a process has the database open
 * STORAGE                              "memory" or "ssd": the storage that created it (absent: memory)
 * checkpoint-00000000000003999999.ckpt memory: the newest checkpoint, every key at that version
 * ssd/                                 ssd: the disk store (RocksDB), every key at its version
 * 00000000000004000000.log             log segments, named by the first version they may hold
 * 00000000000004200017.log             the newest one takes appends
 * </pre>
 * See {@link LogFormat} and {@code docs/format.md} for the bytes.
 *
 * <h2>Recovery</h2>
 * Loads the newest checkpoint ({@link CheckpointFile}) — or, on a disk store, opens it and
 * takes its version — then replays the log records newer than that, oldest first ({@link LogReplay}), truncating a torn tail and refusing corruption. New versions start one second of versions past the last one
 * recovered, so commit versions and versionstamps keep increasing across restarts. A new
 * segment is started for the new run, so no write ever appends to a file that recovery
 * truncated.
 */
public final class DatabaseDirectory {
    /** What an opened directory hands the engine. */
    public record Opened(VersionedStore store, long baseVersion, SegmentedLog log, DirectoryLock lock, LogReplay.Result replay,
                         long checkpointVersion, Storage storage) {}

    /** The file naming the storage a directory was created with. */
    static final String STORAGE_FILE = "STORAGE";
    /** The disk store's subdirectory under {@link Storage#SSD}. */
    static final String DISK_DIRECTORY = "ssd";

    private DatabaseDirectory() {}

    /** A checkpoint left as {@code .tmp} was never complete: its log segments still exist. */
    private static void deleteUnfinishedCheckpoints(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".ckpt.tmp")).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Opens a directory with the storage that created it, or {@link Storage#MEMORY} for a new one. */
    public static Opened open(Path directory, Durability durability) throws IOException {
        return open(directory, durability, null, 0);
    }

    /**
     * Opens, or creates, a database directory.
     *
     * @param storage        the storage asked for, or null for the one that created the
     *                       directory ({@link Storage#MEMORY} for a new one)
     * @param diskCacheBytes the disk store's block cache under {@link Storage#SSD}
     * @throws IllegalStateException when {@code storage} is not the one the directory was created with
     */
    public static Opened open(Path directory, Durability durability, Storage storage, long diskCacheBytes) throws IOException {
        Files.createDirectories(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        VersionedStore store = null;
        try {
            Storage kept = storageOf(directory, storage);
            deleteUnfinishedCheckpoints(directory);
            long checkpointVersion;
            if (kept == Storage.SSD) {
                store = new VersionedStore(RocksDiskStore.open(directory.resolve(DISK_DIRECTORY), diskCacheBytes),
                        "strata-disk-catch-up");
                checkpointVersion = store.diskVersion();
            } else {
                store = VersionedStore.packed("strata-store-catch-up");
                // The newest checkpoint; a damaged one is refused, never skipped: the log it
                // covered may already be gone.
                List<Path> checkpoints = CheckpointFile.list(directory);
                checkpointVersion = checkpoints.isEmpty() ? 0 : CheckpointFile.load(checkpoints.get(0), store);
            }
            LogReplay.Result replay = LogReplay.replay(directory, store, checkpointVersion);
            // Keep only the newest version of each key: recovery needs no history.
            store.pruneBefore(replay.lastVersion() + 1);
            long base = replay.lastVersion() + VersionClock.VERSIONS_PER_SECOND;
            // A segment of that name can only be an empty one from a run that committed nothing
            // (any record in it would be newer than lastVersion): replace it.
            Files.deleteIfExists(directory.resolve(LogFormat.segmentName(base)));
            WriteAheadLog log = WriteAheadLog.create(directory, base, durability);
            return new Opened(store, base, new SegmentedLog(directory, durability, log), lock, replay, checkpointVersion, kept);
        } catch (IOException | RuntimeException e) {
            if (store != null) {
                store.close();
            }
            lock.close();
            throw e;
        }
    }

    /**
     * The storage of {@code directory}: the one recorded in it; for a directory without the
     * record, memory when it holds a database already (created before storage was recorded),
     * else {@code asked} (memory when null), which is then recorded.
     */
    private static Storage storageOf(Path directory, Storage asked) throws IOException {
        Path file = directory.resolve(STORAGE_FILE);
        if (Files.exists(file)) {
            String label = Files.readString(file).trim();
            Storage recorded;
            try {
                recorded = Storage.fromLabel(label);
            } catch (IllegalArgumentException e) {
                throw new IOException(file + " names an unknown storage '" + label + "'");
            }
            if (asked != null && asked != recorded) {
                throw new IllegalStateException("the Strata database " + directory + " was created with storage "
                        + recorded.label() + "; it cannot be opened with storage " + asked.label()
                        + " (open it without choosing a storage, or use a new directory)");
            }
            return recorded;
        }
        boolean existing = !LogReplay.segments(directory).isEmpty() || !CheckpointFile.list(directory).isEmpty();
        Storage chosen = existing ? Storage.MEMORY : asked == null ? Storage.MEMORY : asked;
        if (existing && asked == Storage.SSD) {
            throw new IllegalStateException("the Strata database " + directory
                    + " was created with storage memory; it cannot be opened with storage ssd");
        }
        Path tmp = directory.resolve(STORAGE_FILE + ".tmp");
        Files.writeString(tmp, chosen.label() + "\n");
        Fsync.file(tmp);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Fsync.directory(directory);
        return chosen;
    }
}
