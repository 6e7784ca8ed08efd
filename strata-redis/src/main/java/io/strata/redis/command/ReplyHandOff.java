package io.strata.redis.command;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Hands the replies of one lane batch to their connections' event loop in one task.
 *
 * <h2>Why</h2>
 * A batch answers many connections. Each connection writes its replies on its event loop,
 * so each answer is a task for that loop. Handed over one by one, the event loop wakes for
 * the first, writes it, finds its queue empty and sleeps again before the lane hands over
 * the next: a wake-up, a context switch, per reply (measured: one per SET). Collected while
 * the batch completes its units and handed over together, the loop wakes once per batch.
 *
 * <h2>Contract</h2>
 * {@link #execute} inside {@link #collecting} on the same thread holds the task until the
 * collecting action returns, then runs every held task of one executor, in order, as one
 * task on it; anywhere else it is {@code executor.execute(task)}.
 *
 * <p>Concurrency: the held tasks are a thread-local, touched only by the thread completing
 * the batch.
 */
public final class ReplyHandOff {
    private static final ThreadLocal<Map<Executor, List<Runnable>>> HELD = new ThreadLocal<>();

    private ReplyHandOff() {
    }

    /** Runs {@code action}, holding the tasks it hands to event loops until it returns. */
    public static void collecting(Runnable action) {
        if (HELD.get() != null) {
            action.run(); // nested: the outer scope hands everything over
            return;
        }
        Map<Executor, List<Runnable>> held = new IdentityHashMap<>(4);
        HELD.set(held);
        try {
            action.run();
        } finally {
            HELD.remove();
            for (Map.Entry<Executor, List<Runnable>> e : held.entrySet()) {
                List<Runnable> tasks = e.getValue();
                e.getKey().execute(tasks.size() == 1 ? tasks.get(0) : () -> runAll(tasks));
            }
        }
    }

    /** Runs every task even if one throws (each is one connection's), then throws the first failure. */
    private static void runAll(List<Runnable> tasks) {
        RuntimeException first = null;
        for (Runnable task : tasks) {
            try {
                task.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Runs {@code task} on {@code executor}, later in the same hand-off when collecting. */
    public static void execute(Executor executor, Runnable task) {
        Map<Executor, List<Runnable>> held = HELD.get();
        if (held == null) {
            executor.execute(task);
        } else {
            held.computeIfAbsent(executor, e -> new ArrayList<>()).add(task);
        }
    }
}
