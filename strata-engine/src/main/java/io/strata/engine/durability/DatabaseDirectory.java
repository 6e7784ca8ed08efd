package io.strata.engine.durability;

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
 * checkpoint-00000000000003999999.ckpt the newest checkpoint: every key at that version
 * 00000000000004000000.log             log segments, named by the first version they may hold
 * 00000000000004200017.log             the newest one takes appends
 * </pre>
 * See {@link LogFormat} and {@code docs/format.md} for the bytes.
 *
 * <h2>Recovery</h2>
 * Loads the newest checkpoint ({@link CheckpointFile}), then replays the log records newer
 * than it, oldest first ({@link LogReplay}), truncating a torn tail and refusing corruption. New versions start one second of versions past the last one
 * recovered, so commit versions and versionstamps keep increasing across restarts. A new
 * segment is started for the new run, so no write ever appends to a file that recovery
 * truncated.
 */
public final class DatabaseDirectory {
    /** What an opened directory hands the engine. */
    public record Opened(VersionedStore store, long baseVersion, SegmentedLog log, DirectoryLock lock, LogReplay.Result replay,
                         long checkpointVersion) {}

    private DatabaseDirectory() {}

    /** A checkpoint left as {@code .tmp} was never complete: its log segments still exist. */
    private static void deleteUnfinishedCheckpoints(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".ckpt.tmp")).toList()) {
                Files.delete(p);
            }
        }
    }

    public static Opened open(Path directory, Durability durability) throws IOException {
        Files.createDirectories(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        try {
            VersionedStore store = new VersionedStore();
            deleteUnfinishedCheckpoints(directory);
            // The newest checkpoint; a damaged one is refused, never skipped: the log it
            // covered may already be gone.
            List<Path> checkpoints = CheckpointFile.list(directory);
            long checkpointVersion = checkpoints.isEmpty() ? 0 : CheckpointFile.load(checkpoints.get(0), store);
            LogReplay.Result replay = LogReplay.replay(directory, store, checkpointVersion);
            // Keep only the newest version of each key: recovery needs no history.
            store.pruneBefore(replay.lastVersion() + 1);
            long base = replay.lastVersion() + VersionClock.VERSIONS_PER_SECOND;
            // A segment of that name can only be an empty one from a run that committed nothing
            // (any record in it would be newer than lastVersion): replace it.
            Files.deleteIfExists(directory.resolve(LogFormat.segmentName(base)));
            WriteAheadLog log = WriteAheadLog.create(directory, base, durability);
            return new Opened(store, base, new SegmentedLog(directory, durability, log), lock, replay, checkpointVersion);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }
}
