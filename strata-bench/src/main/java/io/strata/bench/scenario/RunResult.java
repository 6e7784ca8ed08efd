package io.strata.bench.scenario;

import org.HdrHistogram.Histogram;

/**
 * One measured cell: a workload on one engine with a number of clients.
 *
 * @param seconds the measured interval, from its start to its end as seen by the runner
 * @param ops     operations started inside the interval and completed without error
 * @param retries conflict retries inside those operations
 * @param errors  operations started inside the interval that failed
 * @param latency operation latencies in nanoseconds (start to completion, retries included)
 */
public record RunResult(Workload workload, String engine, int clients, double seconds, long ops, long retries,
                        long errors, Histogram latency) {

    public double opsPerSecond() {
        return ops / seconds;
    }

    /** Latency at {@code percentile} (0–100) in microseconds. */
    public double micros(double percentile) {
        return latency.getValueAtPercentile(percentile) / 1_000.0;
    }

    public double maxMicros() {
        return latency.getMaxValue() / 1_000.0;
    }
}
