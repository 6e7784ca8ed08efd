package io.strata.engine.durability;

import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens a database directory: lock, recover, and start a new log segment.
 *
 * <h2>Directory layout</h2>
 * <pre>
 * LOCK                      held (OS file lock) while a process has the database open
 * 00000000000001000000.log  log segments, named by the first version they may hold
 * 00000000000004200017.log  the newest one takes appends
 * </pre>
 * See {@link LogFormat} and {@code docs/format.md} for the bytes.
 *
 * <h2>Recovery</h2>
 * Replays every segment, oldest first ({@link LogReplay}), truncating a torn tail and
 * refusing corruption. New versions start one second of versions past the last one
 * recovered, so commit versions and versionstamps keep increasing across restarts. A new
 * segment is started for the new run, so no write ever appends to a file that recovery
 * truncated.
 */
public final class DatabaseDirectory {
    /** What an opened directory hands the engine. */
    public record Opened(VersionedStore store, long baseVersion, WriteAheadLog log, DirectoryLock lock, LogReplay.Result replay) {}

    private DatabaseDirectory() {}

    public static Opened open(Path directory, Durability durability) throws IOException {
        Files.createDirectories(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        try {
            VersionedStore store = new VersionedStore();
            LogReplay.Result replay = LogReplay.replay(directory, store);
            // Keep only the newest version of each key: recovery needs no history.
            store.pruneBefore(replay.lastVersion() + 1);
            long base = replay.lastVersion() + VersionClock.VERSIONS_PER_SECOND;
            // A segment of that name can only be an empty one from a run that committed nothing
            // (any record in it would be newer than lastVersion): replace it.
            Files.deleteIfExists(directory.resolve(LogFormat.segmentName(base)));
            WriteAheadLog log = WriteAheadLog.create(directory, base, durability);
            return new Opened(store, base, log, lock, replay);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }
}
