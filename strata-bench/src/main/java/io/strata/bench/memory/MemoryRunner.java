package io.strata.bench.memory;

import java.lang.ref.Reference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One row of {@code strata bench memory}: weigh the heap, open the target, load it, weigh
 * again right after the load, wait for the MVCC window to pass, weigh a third time, then check
 * a sample of the pairs and close the target.
 *
 * <h2>What is measured</h2>
 * {@link HeapGauge#usedAfterFullGc()} before the target is opened and after the window, the
 * target still open and strongly held ({@link Reference#reachabilityFence}), over the number of
 * pairs: everything the target keeps for them, its fixed cost as an empty database included
 * (a few bytes per pair at a million pairs). The generator holds nothing between calls, and the
 * check runs only after the last weighing, so neither counts.
 *
 * <h2>Why waiting is enough: the engine prunes without commits</h2>
 * The brief asked to keep committing a tiny write every 50 ms unless the engine prunes by
 * itself; it does (strata-engine at commit 2d10837). {@code CommitPipeline}'s sequencer commits
 * an empty batch whenever it has had nothing to do for {@code IDLE_TICK_MILLIS} (20 ms), so that
 * the visible version keeps up with the clock, and {@code processBatch} runs for empty batches
 * as for full ones: once the version has moved {@code PRUNE_INTERVAL_VERSIONS} (50 ms of
 * versions) since the last pruning it calls {@code VersionedStore.pruneBefore} and
 * {@code ConflictWindow.pruneBefore} with the floor {@code version - 5 s}. Versions follow the
 * clock (a million a second), so {@link #WINDOW_WAIT} after the last commit the floor is past
 * every write of the load and what the window kept for them (the conflict history of every
 * written key; older versions of rewritten keys, none here) is gone, with no write to move
 * it. The in-window weighing shows that it happened: should a rewrite of the store stop the
 * idle ticks, the two figures would stay equal.
 */
final class MemoryRunner {
    /** The 5-second window plus a second for the last pruning pass (every 50 ms) and slack. */
    static final Duration WINDOW_WAIT = Duration.ofSeconds(6);
    /** After the window wait, how long between weighings until two agree, and how long at most. */
    static final Duration REWEIGH = Duration.ofSeconds(1);
    static final Duration MAX_SETTLE = Duration.ofSeconds(30);
    /** Pairs read back after the weighing. */
    static final int CHECKED_PAIRS = 1_000;

    private MemoryRunner() {}

    /**
     * Measures target {@code name} loaded with {@code pairs} pairs of {@code data}, {@code batch}
     * pairs per transaction; waits {@code windowWait} after the load before the final weighing
     * (for targets with a window), which repeats every {@link #REWEIGH} until two agree (the
     * catch-up may still be moving the last writes out of the window); makes a durable database under {@code tempParent}.
     */
    static MemoryResult run(String name, PairData data, long pairs, int batch, Duration windowWait, Path tempParent) {
        long before = HeapGauge.usedAfterFullGc();
        MemoryTarget target = MemoryTarget.open(name, tempParent);
        try {
            long t0 = System.nanoTime();
            load(target, data, pairs, batch);
            long loaded = System.nanoTime();
            double loadSeconds = (loaded - t0) / 1e9;
            long inWindow = -1;
            long after;
            if (target.hasWindow()) {
                inWindow = HeapGauge.usedAfterFullGc();
                sleepUntil(loaded + windowWait.toNanos());
                after = HeapGauge.usedAfterFullGc();
                // What left the window is written to the store below it in the background; a
                // load faster than that is still leaving memory: weigh until it has.
                for (long last = Long.MAX_VALUE; Math.abs(last - after) >= HeapGauge.SETTLED_BYTES
                        && System.nanoTime() - loaded < windowWait.toNanos() + MAX_SETTLE.toNanos(); ) {
                    sleepUntil(System.nanoTime() + REWEIGH.toNanos());
                    last = after;
                    after = HeapGauge.usedAfterFullGc();
                }
            } else {
                after = HeapGauge.usedAfterFullGc();
            }
            double weighedAt = (System.nanoTime() - loaded) / 1e9;
            Reference.reachabilityFence(target);
            int checked = (int) Math.min(CHECKED_PAIRS, pairs);
            int wrong = 0;
            for (int k = 0; k < checked; k++) {
                long i = k * pairs / checked;
                if (!target.holds(data.key(i), data.value(i))) {
                    wrong++;
                }
            }
            return new MemoryResult(name, pairs, data.keyBytes(), data.valueBytes(), before, inWindow, after, loadSeconds,
                    weighedAt, checked, wrong);
        } finally {
            target.close();
        }
    }

    /** Loads pairs {@code 0 .. pairs - 1} in batches, one thread. */
    static void load(MemoryTarget target, PairData data, long pairs, int batch) {
        for (long first = 0; first < pairs; first += batch) {
            target.load(data, first, (int) Math.min(batch, pairs - first));
        }
    }

    private static void sleepUntil(long deadlineNanos) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the MVCC window to pass", e);
            }
        }
    }
}
