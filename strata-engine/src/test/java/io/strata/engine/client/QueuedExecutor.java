package io.strata.engine.client;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An executor that only queues: nothing it is given runs until the test runs it, on the test's
 * thread. So "not complete when the call returns" and "completed by a task of the executor" are
 * deterministic. Engine threads (the sequencer, the timer) may add tasks at any time;
 * {@link #await} runs them as they come.
 */
final class QueuedExecutor implements Executor {
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final ThreadLocal<Boolean> inTask = ThreadLocal.withInitial(() -> false);
    private volatile int ran;

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** Tasks given and not yet run. */
    int queued() {
        return tasks.size();
    }

    /** Tasks run so far. */
    int ran() {
        return ran;
    }

    /** Whether the calling thread is running a task of this executor now. */
    boolean inTask() {
        return inTask.get();
    }

    /** Runs the tasks queued now (and those they queue), then returns. */
    void runQueued() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            run(task);
        }
    }

    /** Runs tasks, waiting for engine threads to hand over more, until {@code f} completes; then waits for it as {@link Fdb#await}. */
    <T> T await(CompletableFuture<T> f) {
        settle(f);
        return Fdb.await(f);
    }

    /** As {@link #await}, for a future that must fail: its FoundationDB error code. */
    int errorOf(CompletableFuture<?> f) {
        settle(f);
        return Fdb.errorOf(f);
    }

    /** Runs tasks until {@code f} is complete (at most {@link Fdb#WAIT_SECONDS}). */
    void settle(CompletableFuture<?> f) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Fdb.WAIT_SECONDS);
        while (!f.isDone() && System.nanoTime() < deadline) {
            Runnable task;
            try {
                task = tasks.poll(10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            if (task != null) {
                run(task);
            }
        }
    }

    private void run(Runnable task) {
        inTask.set(true);
        try {
            task.run();
        } finally {
            inTask.set(false);
            ran++;
        }
    }
}
