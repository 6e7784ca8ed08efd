package io.strata.bench.allocation;

import org.HdrHistogram.Histogram;

/**
 * One measured cell: one allocator, one latency setting, one concurrency.
 *
 * @param seconds     the measured interval
 * @param allocations allocations started inside the interval whose transaction committed
 * @param conflicts   retried attempts inside those allocations (each {@code onError} that
 *                    led to another attempt)
 * @param errors      allocations that failed with a non-retryable error, plus prefixes
 *                    handed out twice in the cell (both mean the result is not to be trusted)
 * @param latency     per-allocation latency in nanoseconds, first attempt to commit,
 *                    retries included
 */
public record AllocationResult(String allocator, String latencySetting, int concurrency, double seconds,
                               long allocations, long conflicts, long errors, Histogram latency) {

    public double allocationsPerSecond() {
        return allocations / seconds;
    }

    public double avgMillis() {
        return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1e6;
    }

    public double maxMillis() {
        return latency.getMaxValue() / 1e6;
    }
}
