package io.strata.engine.durability;

import io.strata.engine.commit.CommitPipeline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * The thread that keeps a database's log bounded ({@link Checkpointer} on the memory engine,
 * {@link LogTrimmer} on the disk engine): it wakes every {@link #POLL_MILLIS}, runs one step,
 * and logs a failed step as a warning — the log still holds everything, so a failure loses
 * nothing and the next step tries again. Also the sequencer-side log rotation both use.
 */
final class LogMaintenance implements AutoCloseable {
    /** How often the thread looks at the log. */
    static final long POLL_MILLIS = 100;

    /** One round of work. */
    interface Step {
        void run() throws IOException, InterruptedException;
    }

    private final Thread thread;
    private volatile boolean closed;

    LogMaintenance(String name, Path directory, String whatFailed, Step step) {
        this.thread = new Thread(() -> loop(directory, whatFailed, step), name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void loop(Path directory, String whatFailed, Step step) {
        while (!closed) {
            try {
                Thread.sleep(POLL_MILLIS);
                if (!closed) {
                    step.run();
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    // close() interrupted the work (ClosedByInterruptException): expected.
                    return;
                }
                System.getLogger(LogMaintenance.class.getName()).log(System.Logger.Level.WARNING,
                        whatFailed + " of " + directory + " failed; the log keeps growing until it succeeds", e);
            }
        }
    }

    /**
     * On the sequencer, between batches: takes the visible version {@code V}, passes it to
     * {@code beforeRotate} (which may pin it), and rotates the log to a segment named
     * {@code V + 1}, so every record up to {@code V} is in closed segments. Returns {@code V};
     * if the rotation fails, {@code onFailure} runs there.
     */
    static long rotate(CommitPipeline pipeline, SegmentedLog log, LongConsumer beforeRotate, Runnable onFailure)
            throws IOException, InterruptedException {
        CompletableFuture<Long> rotated = new CompletableFuture<>();
        pipeline.execute(() -> {
            long v = pipeline.visibleVersion();
            try {
                beforeRotate.accept(v);
                log.rotate(v + 1);
                rotated.complete(v);
            } catch (IOException | RuntimeException e) {
                onFailure.run();
                rotated.completeExceptionally(e);
            }
        });
        try {
            return rotated.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("rotating the log failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the sequencer did not rotate the log within 30 s (closed?)");
        }
    }

    /** Stops the thread, waiting for a step in progress to finish. */
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
