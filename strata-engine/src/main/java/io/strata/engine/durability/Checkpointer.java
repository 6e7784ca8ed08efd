package io.strata.engine.durability;

import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.store.VersionedStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes checkpoints in the background so the log stays bounded and restart time does not
 * grow with history.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>On the sequencer, between batches (one short task): take the visible version
 *       {@code V}, pin it in the store so pruning keeps it readable, and rotate the log to a
 *       segment named {@code V + 1}. Every record up to {@code V} is now in closed segments.</li>
 *   <li>On this thread: write the store as of {@code V} to a temporary file, fsync it, rename
 *       it to {@code checkpoint-V.ckpt}, fsync the directory ({@link CheckpointFile}).</li>
 *   <li>Only then delete the closed segments and older checkpoints, fsync the directory,
 *       and unpin.</li>
 * </ol>
 * A crash at any point leaves a recoverable directory: before the rename, the old
 * checkpoint and all segments are intact; after it, recovery loads the new checkpoint and
 * skips the log records it covers, whether or not they were deleted yet.
 *
 * <h2>Across restarts</h2>
 * Each run appends to a segment of its own, and recovery replays every segment the last
 * checkpoint does not cover. So the log earlier runs left counts toward the next checkpoint
 * ({@link #inheritedLogBytes}), and so does the size of the checkpoint already there:
 * otherwise a database restarted — or killed — before each run wrote {@code logBytes} would
 * never checkpoint again, and each restart would replay more than the last.
 */
public final class Checkpointer implements AutoCloseable {
    /**
     * Default: a checkpoint once 64 MiB of log — and at least as much log as the last
     * checkpoint's size — accumulated since the last one.
     */
    public static final long DEFAULT_LOG_BYTES = 64L << 20;
    private final Path directory;
    private final SegmentedLog log;
    private final CommitPipeline pipeline;
    private final VersionedStore store;
    private final long logBytes;
    private final LogMaintenance thread;
    /** Size of the last checkpoint written (or found at open): the next waits for at least this much log. */
    private volatile long lastCheckpointBytes;
    /**
     * Bytes of the segments earlier runs left, which recovery replayed and the next checkpoint
     * will delete; 0 once a checkpoint did. Counted with this run's log toward the next one.
     */
    private volatile long inheritedLogBytes;

    public Checkpointer(Path directory, SegmentedLog log, CommitPipeline pipeline, VersionedStore store, long logBytes) {
        this.directory = directory;
        this.log = log;
        this.pipeline = pipeline;
        this.store = store;
        this.logBytes = logBytes;
        try {
            for (Path segment : LogReplay.segments(directory)) {
                if (!segment.equals(log.currentSegment())) {
                    inheritedLogBytes += Files.size(segment);
                }
            }
            List<Path> checkpoints = CheckpointFile.list(directory);
            lastCheckpointBytes = checkpoints.isEmpty() ? 0 : Files.size(checkpoints.get(0));
        } catch (IOException e) {
            // Only the timing of the first checkpoint depends on these: it then waits for this run's own log.
            System.getLogger(Checkpointer.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot measure the log and checkpoint of " + directory + "; the next checkpoint waits for "
                            + logBytes + " bytes of new log", e);
        }
        this.thread = new LogMaintenance("strata-checkpointer", directory, "checkpoint", this::step);
    }

    /** Log the next checkpoint would let recovery skip: this run's since the last rotation, and what earlier runs left. */
    long pendingLogBytes() {
        return log.bytesSinceRotation() + inheritedLogBytes;
    }

    private void step() throws IOException, InterruptedException {
        // Waiting for as much log as the last checkpoint's size keeps the total written by
        // checkpoints proportional to the data written (not quadratic as the data grows),
        // and the log never larger than the data it would replay.
        if (pendingLogBytes() >= Math.max(logBytes, lastCheckpointBytes)) {
            checkpoint();
        }
    }

    /**
     * Writes one checkpoint now and deletes what it covers.
     *
     * @return the checkpoint's version
     */
    public synchronized long checkpoint() throws IOException, InterruptedException {
        long version = LogMaintenance.rotate(pipeline, log, store::pin, store::unpin);
        try {
            Path written = CheckpointFile.write(directory, store, version);
            lastCheckpointBytes = Files.size(written);
            inheritedLogBytes = 0; // every segment before the rotation is deleted below
            for (Path segment : LogReplay.segments(directory)) {
                if (!segment.equals(log.currentSegment()) && LogReplay.firstVersion(segment) <= version) {
                    Files.delete(segment);
                }
            }
            for (Path older : CheckpointFile.list(directory)) {
                if (!older.equals(written)) {
                    Files.delete(older);
                }
            }
            Fsync.directory(directory);
        } finally {
            store.unpin();
        }
        return version;
    }

    /** Stops the thread, waiting for a checkpoint in progress to finish. */
    @Override
    public void close() {
        thread.close();
    }
}
