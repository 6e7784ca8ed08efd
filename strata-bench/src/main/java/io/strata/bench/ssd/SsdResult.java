package io.strata.bench.ssd;

import org.HdrHistogram.Histogram;

/**
 * One measured line of {@code strata bench ssd}.
 *
 * @param phase   {@code load}, {@code close}, {@code reopen}, {@code verify}, {@code get},
 *                {@code scan100}, {@code recovery}, or {@code window-read}, {@code window-write},
 *                {@code window-mixed}
 * @param engine  {@code strata} or {@code rocksdb}; in the window phases {@code strata-fsync}
 *                (Storage.MEMORY) or {@code strata-ssd}
 * @param clients threads doing the work (loaders for {@code load})
 * @param seconds the measured interval
 * @param ops     operations in it (batches, reads, scans, transactions, keys checked)
 * @param errors  operations that failed (for {@code verify} and {@code recovery}: keys missing or wrong)
 * @param rate    the headline figure, in {@code unit}
 * @param latency per-operation latency in ns, or null when the phase has none
 * @param note    what else the line should say, or ""
 */
public record SsdResult(String phase, String engine, int clients, double seconds, long ops, long errors, double rate,
                        String unit, Histogram latency, String note) {

    /** This line with {@code note} instead of its own. */
    public SsdResult withNote(String note) {
        return new SsdResult(phase, engine, clients, seconds, ops, errors, rate, unit, latency, note);
    }

    /** Latency at {@code percentile} in µs, or NaN without latencies. */
    public double micros(double percentile) {
        return latency == null || latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1_000.0;
    }

    public double maxMicros() {
        return latency == null || latency.getTotalCount() == 0 ? Double.NaN : latency.getMaxValue() / 1_000.0;
    }
}
