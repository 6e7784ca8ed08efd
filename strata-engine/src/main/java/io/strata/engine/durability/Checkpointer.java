package io.strata.engine.durability;

import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.store.VersionedStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 */
public final class Checkpointer implements AutoCloseable {
    /**
     * Default: a checkpoint once 64 MiB of log — and at least as much log as the last
     * checkpoint's size — accumulated since the last one.
     */
    public static final long DEFAULT_LOG_BYTES = 64L << 20;
    /** How often the thread looks at the log's size. */
    static final long POLL_MILLIS = 100;

    private final Path directory;
    private final SegmentedLog log;
    private final CommitPipeline pipeline;
    private final VersionedStore store;
    private final long logBytes;
    private final Thread thread;
    private volatile boolean closed;
    /** Size of the last checkpoint written: the next waits for at least this much log. */
    private volatile long lastCheckpointBytes;

    public Checkpointer(Path directory, SegmentedLog log, CommitPipeline pipeline, VersionedStore store, long logBytes) {
        this.directory = directory;
        this.log = log;
        this.pipeline = pipeline;
        this.store = store;
        this.logBytes = logBytes;
        this.thread = new Thread(this::run, "strata-checkpointer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        while (!closed) {
            try {
                Thread.sleep(POLL_MILLIS);
                // Waiting for as much log as the last checkpoint's size keeps the total written by
                // checkpoints proportional to the data written (not quadratic as the data grows),
                // and the log never larger than the data it would replay.
                if (!closed && log.bytesSinceRotation() >= Math.max(logBytes, lastCheckpointBytes)) {
                    checkpoint();
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    // close() interrupted the write (ClosedByInterruptException): expected, and
                    // the log still holds everything, so there is nothing to report.
                    return;
                }
                // The log still holds everything: a failed checkpoint loses nothing; try again later.
                System.getLogger(Checkpointer.class.getName()).log(System.Logger.Level.WARNING,
                        "checkpoint of " + directory + " failed; the log keeps growing until one succeeds", e);
            }
        }
    }

    /**
     * Writes one checkpoint now and deletes what it covers.
     *
     * @return the checkpoint's version
     */
    public synchronized long checkpoint() throws IOException, InterruptedException {
        CompletableFuture<Long> rotated = new CompletableFuture<>();
        pipeline.execute(() -> {
            long v = pipeline.visibleVersion();
            try {
                store.pin(v);
                log.rotate(v + 1);
                rotated.complete(v);
            } catch (IOException | RuntimeException e) {
                store.unpin();
                rotated.completeExceptionally(e);
            }
        });
        long version;
        try {
            version = rotated.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("rotating the log for a checkpoint failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the sequencer did not rotate the log within 30 s (closed?)");
        }
        try {
            Path written = CheckpointFile.write(directory, store, version);
            lastCheckpointBytes = Files.size(written);
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
        closed = true;
        thread.interrupt();
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
