package io.strata.bench.memory;

import io.strata.bench.report.CsvLog;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code strata bench memory}: heap bytes per key-value pair held once the 5-second MVCC window
 * has passed — the figure issue 18's compact store targets ({@value #TARGET_BYTES_PER_PAIR}
 * bytes or less for 16-byte keys and 100-byte values, a million pairs).
 *
 * <h2>Workload</h2>
 * {@code pairs} distinct random-looking keys of {@code keyBytes} bytes with values of
 * {@code valueBytes} random bytes ({@link PairData}), loaded by one thread in transactions of
 * {@code batch} pairs, into each target one after the other in this JVM:
 * <ol>
 *   <li>{@code strata}: {@code Strata.inMemory()}, through fdb-java's {@code Database}
 *       ({@code db.run(tr -> tr.set(...) per pair)});</li>
 *   <li>{@code strata durable}: {@code Strata.open(dir)} with its defaults (the memory storage
 *       engine, a log, {@code Durability.FSYNC}), in a temporary directory deleted afterwards;</li>
 *   <li>{@code ConcurrentSkipListMap}: the reference, a bare ordered map on the heap holding
 *       its own copies of the same pairs.</li>
 * </ol>
 * Each row is weighed by {@link MemoryRunner}: full collections before, right after the load
 * and (engines only) after waiting out the window. Before the first row every target is loaded
 * once with {@link #WARMUP_PAIRS} pairs and closed, unweighed, so that the first row does not
 * carry the classes it loads; the load rate is a side figure.
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * One row per target, header {@value #CSV_HEADER}: the {@link MemoryResult}'s fields and
 * figures, heap in bytes, {@code in_window_bytes_per_pair} empty for the map.
 *
 * <p>Run it: {@code ./strata bench memory} (the launcher's fixed heap, a quarter of the
 * memory, holds a million pairs in every target many times over).
 */
public final class MemoryScenario {
    public static final String CSV_FILE = "memory.csv";
    public static final String CSV_HEADER = "target,pairs,key_bytes,value_bytes,heap_before,heap_in_window,heap_after,"
            + "bytes_per_pair,payload_per_pair,ratio,in_window_bytes_per_pair,load_pairs_per_s,weighed_at_s,checked,wrong";
    /** Issue 18: at most this many heap bytes per pair of a 16-byte key and a 100-byte value, a million pairs. */
    public static final int TARGET_BYTES_PER_PAIR = 160;
    public static final int TARGET_KEY_BYTES = 16;
    public static final int TARGET_VALUE_BYTES = 100;
    public static final long TARGET_PAIRS = 1_000_000;
    /** The unweighed load of each target before the first row: enough to load every class on the path. */
    static final int WARMUP_PAIRS = 10_000;

    private final long pairs;
    private final int batch;
    private final PairData data;
    private final Duration windowWait;
    private final Path tempParent;

    /** The scenario as the command runs it: a 6 s wait for the window, the durable database under java.io.tmpdir. */
    public MemoryScenario(long pairs, int keyBytes, int valueBytes, int batch) {
        this(pairs, keyBytes, valueBytes, batch, MemoryRunner.WINDOW_WAIT, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** For tests: a shorter wait (the figure then still holds the window) and a directory to look into. */
    MemoryScenario(long pairs, int keyBytes, int valueBytes, int batch, Duration windowWait, Path tempParent) {
        if (pairs < 1 || batch < 1 || pairs > maxPairs(keyBytes)) {
            throw new IllegalArgumentException("need 1 to " + maxPairs(keyBytes) + " pairs and batches of at least 1 pair");
        }
        this.pairs = pairs;
        this.batch = batch;
        this.data = new PairData(keyBytes, valueBytes);
        this.windowWait = windowWait;
        this.tempParent = tempParent;
    }

    /** How many distinct keys of {@code keyBytes} bytes the generator makes. */
    public static long maxPairs(int keyBytes) {
        return PairData.maxPairs(keyBytes);
    }

    /** The wait after each engine's load before its last weighing. */
    public Duration windowWait() {
        return windowWait;
    }

    /** Whether a run of this shape is the one issue 18's target is stated for. */
    public boolean isTargetShape() {
        return data.keyBytes() == TARGET_KEY_BYTES && data.valueBytes() == TARGET_VALUE_BYTES && pairs >= TARGET_PAIRS;
    }

    /** Runs every row, hands each result to {@code onRow} as it is measured and writes the CSV. */
    public List<MemoryResult> run(Path outDir, Consumer<MemoryResult> onRow) throws IOException {
        HeapGauge.requireFullCollections();
        warmUp();
        try (CsvLog<MemoryResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, MemoryScenario::csvLine, onRow)) {
            for (String name : MemoryTarget.NAMES) {
                // The previous row's target is closed; the next weighing's full collections drop it.
                log.add(MemoryRunner.run(name, data, pairs, batch, windowWait, tempParent));
            }
            return log.results();
        }
    }

    private void warmUp() {
        for (String name : MemoryTarget.NAMES) {
            try (MemoryTarget target = MemoryTarget.open(name, tempParent)) {
                MemoryRunner.load(target, data, Math.min(WARMUP_PAIRS, pairs), batch);
            }
        }
    }

    /** "heap N MiB, collectors, compressed oops on|off": what the figures depend on besides the engine. */
    public static String jvm() {
        return HeapGauge.describe();
    }

    static String csvLine(MemoryResult r) {
        return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%s,%d,%.1f,%d,%.3f,%s,%.0f,%.1f,%d,%d", r.target(), r.pairs(), r.keyBytes(),
                r.valueBytes(), r.heapBefore(), r.heapInWindow() < 0 ? "" : Long.toString(r.heapInWindow()), r.heapAfter(),
                r.bytesPerPair(), r.payloadPerPair(), r.ratio(),
                Double.isNaN(r.inWindowBytesPerPair()) ? "" : String.format(Locale.ROOT, "%.1f", r.inWindowBytesPerPair()),
                r.pairsPerSecond(), r.weighedAtSeconds(), r.checked(), r.wrong());
    }
}
