package io.strata.redis.server;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A barrier across the connection threads: {@link #await} completes once every event loop has
 * polled its sockets after the call, so that every request that had reached the process by
 * then has started. Pub/sub's PUBLISH uses it to count an UNSUBSCRIBE sent just before it on
 * another connection as Redis, which runs one command at a time, counts it.
 *
 * <p>How: a task executed on a loop may run in the same round of tasks as others, before the
 * loop polls again, but a task it schedules from there is only taken up in the next round,
 * after a poll. Concurrent callers share a round as long as none of its tasks has started
 * (those tasks then all start after every sharer's call), so a burst of publishes costs one
 * round, not one each.
 *
 * <p>Concurrency: the open round is guarded by {@code this}.
 */
final class InputBarrier {
    private final EventLoopGroup loops;
    private Round open;

    /** One pass over the loops; joinable until its first task starts. */
    private static final class Round {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        boolean started;
    }

    InputBarrier(EventLoopGroup loops) {
        this.loops = loops;
    }

    CompletableFuture<Void> await() {
        Round round;
        synchronized (this) {
            if (open != null && !open.started) {
                return open.done;
            }
            round = new Round();
            open = round;
        }
        List<CompletableFuture<Void>> passes = new ArrayList<>();
        for (EventExecutor loop : loops) {
            CompletableFuture<Void> pass = new CompletableFuture<>();
            passes.add(pass);
            try {
                loop.execute(() -> {
                    synchronized (this) {
                        round.started = true;
                    }
                    try {
                        loop.schedule(() -> pass.complete(null), 0, TimeUnit.NANOSECONDS);
                    } catch (RejectedExecutionException e) {
                        pass.complete(null);
                    }
                });
            } catch (RejectedExecutionException e) {
                pass.complete(null); // the server is stopping
            }
        }
        CompletableFuture.allOf(passes.toArray(new CompletableFuture[0])).thenRun(() -> round.done.complete(null));
        return round.done;
    }
}
