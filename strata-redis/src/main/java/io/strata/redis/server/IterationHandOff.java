package io.strata.redis.server;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import io.strata.redis.command.CommandLanes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Starts lanes for the requests read in one event-loop iteration together, at its end.
 *
 * <h2>Why</h2>
 * The event loop reads the connections that epoll found ready one after another; a lane's
 * batch takes what has been queued on it when it starts. Started at once, a lane's worker
 * runs each request as soon as it is read — a batch of one — and sleeps again before the
 * next connection is read: a wake-up (a context switch, tens of microseconds on a VM) per
 * request, measured at one per GET. Held until the loop has read everything epoll reported
 * — Netty runs its queued tasks after the I/O of an iteration — a lane starts once with
 * every request of the iteration, as Redis serves every ready client in one pass.
 *
 * <h2>Contract</h2>
 * {@link #execute} from an event-loop thread runs the task on {@code target} after the
 * loop's current iteration, in submission order; from any other thread (a lane continuing
 * after its commit) it hands the task to {@code target} at once. One exception: when the
 * iteration started lanes only, whose batches may all run on the loop
 * ({@link CommandLanes.Start#runOnLoop}, see {@code LoopBatches}), the loop runs them itself,
 * as one, as Redis's single thread runs every command it read.
 *
 * <p>Concurrency: each event-loop thread has its own list (a thread-local), touched only by
 * that thread; the flush task runs on the same thread.
 */
final class IterationHandOff implements Executor {
    private final Executor target;
    private final ThreadLocal<List<Runnable>> held = ThreadLocal.withInitial(ArrayList::new);

    IterationHandOff(Executor target) {
        this.target = target;
    }

    @Override
    public void execute(Runnable task) {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null || !loop.inEventLoop()) {
            target.execute(task);
            return;
        }
        List<Runnable> tasks = held.get();
        if (tasks.isEmpty()) {
            try {
                loop.execute(() -> handOff(tasks));
            } catch (RejectedExecutionException e) {
                target.execute(task); // the loop is shutting down: nothing to wait for
                return;
            }
        }
        tasks.add(task);
    }

    private void handOff(List<Runnable> tasks) {
        List<Runnable> pass = List.copyOf(tasks);
        tasks.clear(); // what runs below may start lanes again: a later hand-off
        if (CommandLanes.Start.runOnLoop(pass)) {
            // Light unpipelined requests only: the loop runs their batch itself, fsync and
            // replies included, as Redis's loop would (LoopBatches).
            return;
        }
        for (Runnable task : pass) {
            target.execute(task);
        }
    }
}
