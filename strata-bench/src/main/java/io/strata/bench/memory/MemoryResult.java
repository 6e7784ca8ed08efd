package io.strata.bench.memory;

/**
 * One row of {@code strata bench memory}: a target loaded with {@code pairs} pairs and weighed.
 *
 * @param target      the target's name ({@link MemoryTarget#NAMES})
 * @param pairs       pairs loaded
 * @param keyBytes    bytes per key
 * @param valueBytes  bytes per value
 * @param heapBefore  used heap after full collections before the target was opened, bytes
 * @param heapInWindow used heap after full collections right after the load, while the MVCC
 *                    window still held the load's writes; -1 for a target without a window
 * @param heapAfter   used heap after full collections once the window had passed (for a
 *                    target without a window, right after the load), the target still open
 * @param loadSeconds the load's wall time, one thread, batch after batch
 * @param checked     pairs read back after the weighing, a sample
 * @param wrong       of those, pairs missing or with another value (a row with any is not to be trusted)
 */
public record MemoryResult(String target, long pairs, int keyBytes, int valueBytes, long heapBefore, long heapInWindow,
                           long heapAfter, double loadSeconds, double weighedAtSeconds, int checked, int wrong) {
    /** Heap per pair once the window has passed: the headline figure. */
    public double bytesPerPair() {
        return (heapAfter - heapBefore) / (double) pairs;
    }

    /** Heap per pair right after the load, or NaN without a window. */
    public double inWindowBytesPerPair() {
        return heapInWindow < 0 ? Double.NaN : (heapInWindow - heapBefore) / (double) pairs;
    }

    /** What the application wrote per pair: key bytes plus value bytes. */
    public int payloadPerPair() {
        return keyBytes + valueBytes;
    }

    /** Heap per pair over payload per pair. */
    public double ratio() {
        return bytesPerPair() / payloadPerPair();
    }

    /** Pairs loaded per second (a side figure: one thread, including the JIT's and the collector's work). */
    public double pairsPerSecond() {
        return pairs / loadSeconds;
    }

    /** Heap the target took after the window, MiB. */
    public double heapMib() {
        return (heapAfter - heapBefore) / (double) (1 << 20);
    }
}
