package io.strata.bench.mutex;

import org.HdrHistogram.Histogram;

/**
 * One measured cell: one contender count.
 *
 * @param seconds      the measured interval
 * @param acquisitions acquire-release rounds started inside the interval
 * @param errors       rounds that failed (a result with errors is not to be trusted)
 * @param handoff      hand-off latency in nanoseconds: from the call of the release that
 *                     handed the lock to a queued waiter to the return of that waiter's
 *                     acquire, for waiters whose acquire returned inside the interval
 * @param afterCommit  the same hand-offs measured from the return of the release instead of
 *                     its call, negative ones (the new owner ran before the releaser's commit
 *                     returned) counted as 0
 * @param firstError   the first failure, warm-up included, or null
 */
public record MutexResult(int contenders, double seconds, long acquisitions, long errors, Histogram handoff,
                          Histogram afterCommit, Throwable firstError) {
    public double acquisitionsPerSecond() {
        return acquisitions / seconds;
    }

    public double handoffP50Millis() {
        return percentileMillis(50);
    }

    public double handoffP99Millis() {
        return percentileMillis(99);
    }

    public double afterCommitP50Millis() {
        return afterCommit.getTotalCount() == 0 ? 0 : afterCommit.getValueAtPercentile(50) / 1e6;
    }

    public double afterCommitP99Millis() {
        return afterCommit.getTotalCount() == 0 ? 0 : afterCommit.getValueAtPercentile(99) / 1e6;
    }

    public long handoffs() {
        return handoff.getTotalCount();
    }

    private double percentileMillis(double p) {
        return handoff.getTotalCount() == 0 ? 0 : handoff.getValueAtPercentile(p) / 1e6;
    }
}
