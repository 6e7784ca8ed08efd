package io.strata.cli.bench;

import io.strata.bench.memory.MemoryResult;
import io.strata.bench.memory.MemoryScenario;
import io.strata.bench.options.BenchArgs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench memory}: heap bytes per key-value pair that Strata's memory storage engine
 * holds once the 5-second MVCC window has passed, in memory and durable, against a bare
 * {@code ConcurrentSkipListMap} (issue 18's figure; what each row measures: {@link MemoryScenario}).
 * Prints a row per target, then issue 18's target, and writes {@code DIR/memory.csv}.
 */
@Command(name = "memory",
        mixinStandardHelpOptions = true,
        description = {
                "Heap bytes per key-value pair once the 5 s MVCC window has passed",
                "(issue 18: <= 160 for a 16-byte key and a 100-byte value, 1 M pairs).",
                "One thread loads --pairs distinct random keys of --key-bytes bytes with",
                "values of --value-bytes random bytes, --batch pairs per transaction, into",
                "each target in turn:",
                "  strata                 Strata.inMemory(), through fdb-java's Database",
                "  strata durable         Strata.open(a temporary directory), defaults",
                "                         (memory storage engine, log, FSYNC)",
                "  ConcurrentSkipListMap  the reference: a bare ordered map on the heap",
                "                         holding the same pairs",
                "Heap = used heap after full collections (System.gc() until it settles):",
                "before the load, right after it, and (engines) 6 s after it, once the",
                "window has passed, then every second until two weighings agree (what left",
                "the window is packed in the background); B/pair = (after - before) / pairs.",
                "The launcher's heap, a quarter of RAM, must hold the pairs (1 M take",
                "about 300 MiB within the window)."},
        footer = {"",
                "Output in --out: " + MemoryScenario.CSV_FILE + " (columns " + MemoryScenario.CSV_HEADER + ")."})
public final class BenchMemoryCommand implements Callable<Integer> {
    /** FoundationDB's limits: keys up to 10,000 bytes, values up to 100,000. */
    private static final int MAX_KEY_BYTES = 10_000;
    private static final int MAX_VALUE_BYTES = 100_000;
    /** Under FoundationDB's 10 MB transaction limit, with room for its per-mutation overhead. */
    private static final long MAX_BATCH_BYTES = 9_000_000;

    @Option(names = "--pairs", paramLabel = "N", defaultValue = "1000000",
            description = "Key-value pairs loaded into each target (default: ${DEFAULT-VALUE}; issue 18: 1,000,000).")
    long pairs;

    @Option(names = "--key-bytes", paramLabel = "N", defaultValue = "16", description = "Bytes per key (default: ${DEFAULT-VALUE}).")
    int keyBytes;

    @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "100", description = "Bytes per value (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1000", description = "Pairs per transaction (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for " + MemoryScenario.CSV_FILE + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        MemoryScenario scenario = scenario();
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "strata bench memory: %,d pairs of %d B keys + %d B values, %,d pairs per transaction; %s; %s%n",
                pairs, keyBytes, valueBytes, batch, MemoryScenario.jvm(), BenchConsole.machine());
        o.printf(Locale.ROOT, "heap = used heap after full collections: before the load, right after it (in window), and %d s after it"
                + " (engines), then every second until two weighings agree (weighed at: seconds after the load);"
                + " B/pair = (after - before) / pairs; payload = key + value bytes.%n", scenario.windowWait().toSeconds());
        o.println();
        o.printf("%-22s %10s %9s %8s %8s %6s %17s %13s %11s%n", "target", "pairs", "heap MiB", "B/pair", "payload", "ratio",
                "in-window B/pair", "load pairs/s", "weighed at");
        o.flush();
        List<MemoryResult> results = scenario.run(out, r -> row(o, r));
        o.println();
        targets(o, scenario, results);
        BenchConsole.wrote(o, out.resolve(MemoryScenario.CSV_FILE).toString());
        return results.stream().anyMatch(r -> r.wrong() > 0) ? 1 : 0;
    }

    private static void row(PrintWriter o, MemoryResult r) {
        o.printf(Locale.ROOT, "%-22s %,10d %,9.1f %8.1f %8d %6.2f %17s %,13.0f %10.1fs%s%n", r.target(), r.pairs(), r.heapMib(),
                r.bytesPerPair(), r.payloadPerPair(), r.ratio(),
                Double.isNaN(r.inWindowBytesPerPair()) ? "-" : String.format(Locale.ROOT, "%.1f", r.inWindowBytesPerPair()),
                r.pairsPerSecond(), r.weighedAtSeconds(),
                r.wrong() > 0 ? String.format(Locale.ROOT, "  (%d of %d sampled pairs missing or wrong)", r.wrong(), r.checked()) : "");
        o.flush();
    }

    private static void targets(PrintWriter o, MemoryScenario scenario, List<MemoryResult> results) {
        o.printf(Locale.ROOT, "issue 18 target: <= %d B/pair for %d B keys + %d B values, %,d pairs%s%n",
                MemoryScenario.TARGET_BYTES_PER_PAIR, MemoryScenario.TARGET_KEY_BYTES, MemoryScenario.TARGET_VALUE_BYTES,
                MemoryScenario.TARGET_PAIRS, scenario.isTargetShape() ? ":" : " (this run has another shape: not checked)");
        if (!scenario.isTargetShape()) {
            return;
        }
        for (MemoryResult r : results) {
            if (r.target().startsWith("strata")) {
                o.printf(Locale.ROOT, "  %-16s %8.1f  %s%n", r.target(), r.bytesPerPair(),
                        r.bytesPerPair() <= MemoryScenario.TARGET_BYTES_PER_PAIR ? "met" : "NOT met");
            }
        }
    }

    MemoryScenario scenario() {
        if (keyBytes < 1 || keyBytes > MAX_KEY_BYTES || valueBytes < 0 || valueBytes > MAX_VALUE_BYTES) {
            throw BenchArgs.usage(spec, "--key-bytes must be between 1 and " + MAX_KEY_BYTES + " and --value-bytes between 0 and "
                    + MAX_VALUE_BYTES + " (FoundationDB's limits)");
        }
        long distinct = MemoryScenario.maxPairs(keyBytes);
        if (pairs < 1 || pairs > distinct || pairs > Integer.MAX_VALUE) {
            throw BenchArgs.usage(spec, String.format(Locale.ROOT, "--pairs must be between 1 and %,d (distinct keys of %d bytes)",
                    Math.min(distinct, Integer.MAX_VALUE), keyBytes));
        }
        if (batch < 1 || (long) batch * (keyBytes + valueBytes) > MAX_BATCH_BYTES) {
            throw BenchArgs.usage(spec, "--batch must be >= 1 and --batch x (--key-bytes + --value-bytes) stay under"
                    + " FoundationDB's 10 MB transaction limit");
        }
        return new MemoryScenario(pairs, keyBytes, valueBytes, batch);
    }
}
