package io.strata.bench.interning;

import io.strata.MvccWindow;
import io.strata.bench.report.ChartLines;
import io.strata.bench.report.CsvLog;
import io.strata.bench.report.SvgLineChart;
import io.strata.bench.run.ClientPriority;
import io.strata.engine.fault.LatencyModel;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * {@code strata bench interning}: each allocator at each batch size and client count, each
 * cell on a fresh in-memory engine, at full speed or with cluster-like latency
 * ({@link InterningRunner} describes the two phases). Order: latency, allocator, batch,
 * concurrency. At full speed a commit takes microseconds, so even one hot counter commits
 * tens of thousands of times a second; with cluster latency it is held near one commit per
 * commit latency, the situation the seed describes. The seed's figure to beat is 150,000 new
 * strings per second; Strata's targets are 1,000,000 new strings/s at the best setting and
 * 2,000,000 lookups/s.
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * One row per cell, header {@value #CSV_HEADER}:
 * <ul>
 *   <li>{@code allocator}: a name in {@link InternerRegistry}, suffixed {@code +cache} when
 *       the interner had an in-process cache (the lookups then mostly measure the cache), and
 *       {@code @cluster} when the engine added cluster-like latency (the header is fixed, so
 *       the setting travels in this column);</li>
 *   <li>{@code batch}: strings per transaction; {@code concurrency}: client threads;</li>
 *   <li>{@code new_strings_per_s}: strings interned (all new) in batches started in the
 *       measured interval and committed, over its length;</li>
 *   <li>{@code lookups_per_s}: known strings resolved to their ID by {@code findAll} on the
 *       database (a read-only transaction per batch), over the lookup phase's interval;</li>
 *   <li>{@code conflicts_per_string}: retried attempts over strings interned, both in the
 *       measured interval.</li>
 * </ul>
 *
 * <h2>What limits the rate (measured on the 2-core machine, November 2026)</h2>
 * A new string costs one forward read, a share of one counter read and write, a forward
 * key write, and its share of a reverse block (one block per run of consecutive IDs: about
 * one per batch with sequence allocators, one per string with the HCA). Per new string, at
 * batch 1,000: about 0.7 µs of the engine's single sequencer thread (conflict check and
 * record, a hash-index insert that misses the cache, a B+tree insert), about 0.8 µs of client
 * CPU (a third of it the forward read's hash probe) and the young collections that copy each
 * stored key, value and chain once — with G1, also its concurrent refinement of the store's
 * large reference arrays, which halves the rate (run with the parallel collector for bulk
 * interning). A 1.5 s cell sees zero or one young collection; a sustained run pays for all of
 * them (use {@code --seconds}). The allocators differ only where they conflict (the single
 * counter) or do more work per string (the HCA: a counter ADD and a reservation per ID;
 * versionstamps: a reverse key per string). Lookups through {@code findAll} cost about
 * 0.9–1.0 µs of CPU each, without a commit, mostly four dependent cache misses. docs/benchmarks.md
 * (section 6) has the figures and how they were measured.
 *
 * <h2>Charts</h2>
 * {@value #NEW_STRINGS_SVG}, {@value #LOOKUPS_SVG}, {@value #CONFLICTS_SVG}: x = concurrency
 * (log scale), one line per allocator, one panel per batch size.
 */
public final class InterningScenario {
    public static final String CSV_FILE = "interning.csv";
    public static final String CSV_HEADER = "allocator,batch,concurrency,new_strings_per_s,lookups_per_s,conflicts_per_string";
    public static final String NEW_STRINGS_SVG = "interning-new-strings.svg";
    public static final String LOOKUPS_SVG = "interning-lookups.svg";
    public static final String CONFLICTS_SVG = "interning-conflicts.svg";
    /** Retries after which a batch is abandoned (see {@link InterningResult#abandoned()}). */
    public static final int MAX_RETRIES = InterningRunner.MAX_RETRIES;

    private final InternerRegistry registry;
    private final List<String> allocators;
    private final List<Integer> batches;
    private final List<Integer> concurrency;
    private final int cacheCapacity;
    private final List<String> latencies;
    private final Duration warmup;
    private final Duration measure;
    private final ClientPriority priority;
    private final Duration jitWarmup;
    private final MvccWindow window;

    /**
     * @param latencies engine latency settings, run one after the other: {@code none} (full
     *                  speed) and {@code cluster} ({@code LatencyModel.cluster()}: 1 ms read
     *                  version, 1 ms per read, 4 ms commit, where a hot counter shows its cost)
     * @param priority  of the client threads (see {@link ClientPriority})
     * @param jitWarmup how long to run the first cell's setting, unreported and on an engine of
     *                  its own, before the first cell: otherwise the first cell is measured while
     *                  the JIT compiler is still compiling the paths every cell runs (on 2 cores
     *                  that cost the first cell up to half its rate); zero for none
     * @param window    how long each cell's engine keeps old versions ({@code Strata.Builder#mvccWindow})
     */
    public InterningScenario(InternerRegistry registry, List<String> allocators, List<Integer> batches,
                             List<Integer> concurrency, int cacheCapacity, List<String> latencies, Duration warmup,
                             Duration measure, ClientPriority priority, Duration jitWarmup, MvccWindow window) {
        for (String a : allocators) {
            registry.get(a); // fails now, not after many cells
        }
        for (String l : latencies) {
            latency(l);
        }
        this.latencies = List.copyOf(latencies);
        this.registry = registry;
        this.allocators = List.copyOf(allocators);
        this.batches = List.copyOf(batches);
        this.concurrency = List.copyOf(concurrency);
        this.cacheCapacity = cacheCapacity;
        this.warmup = warmup;
        this.measure = measure;
        this.priority = priority;
        this.jitWarmup = jitWarmup;
        this.window = window;
    }

    /** Runs every cell, handing each result to {@code onCell}; writes the CSV row by row, the charts at the end. */
    public List<InterningResult> run(Path outDir, Consumer<InterningResult> onCell) throws IOException {
        List<InterningResult> all;
        try (CsvLog<InterningResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, InterningScenario::csvLine, onCell)) {
            if (!jitWarmup.isZero()) {
                // At full speed whatever the cells' latency: it is the code that must get compiled.
                String first = allocators.get(0);
                InterningRunner.run(first, registry.get(first), cacheCapacity, batches.get(0), concurrency.get(0),
                        LatencyModel.none(), "none", Duration.ZERO, jitWarmup, priority, window);
            }
            for (String latency : latencies) {
                for (String allocator : allocators) {
                    for (int b : batches) {
                        for (int c : concurrency) {
                            System.gc(); // the previous cell's garbage is not this cell's cost
                            log.add(InterningRunner.run(allocator, registry.get(allocator), cacheCapacity, b, c,
                                    latency(latency), latency, warmup, measure, priority, window));
                        }
                    }
                }
            }
            all = log.results();
        }
        writeCharts(outDir, all);
        return all;
    }

    /** The latency model named {@code name}: {@code none} or {@code cluster}. */
    public static LatencyModel latency(String name) {
        return switch (name) {
            case "none" -> LatencyModel.none();
            case "cluster" -> LatencyModel.cluster();
            default -> throw new IllegalArgumentException("unknown latency: " + name + " [none, cluster]");
        };
    }

    static String csvLine(InterningResult r) {
        return String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.4f", r.allocator(), r.batch(), r.concurrency(),
                r.newStringsPerSecond(), r.lookupsPerSecond(), r.conflictsPerString());
    }

    public static void writeCharts(Path outDir, List<InterningResult> results) throws IOException {
        SvgLineChart.write(outDir.resolve(NEW_STRINGS_SVG), "New strings interned per second", "concurrency (client threads)",
                "new strings/s", panels(results, InterningResult::newStringsPerSecond));
        SvgLineChart.write(outDir.resolve(LOOKUPS_SVG), "Lookups of known strings per second (findAll on the database)",
                "concurrency (client threads)", "lookups/s", panels(results, InterningResult::lookupsPerSecond));
        SvgLineChart.write(outDir.resolve(CONFLICTS_SVG), "Conflicts per interned string (retried attempts / strings)",
                "concurrency (client threads)", "conflicts per string", panels(results, InterningResult::conflictsPerString));
    }

    private static List<SvgLineChart.Panel> panels(List<InterningResult> results, ToDoubleFunction<InterningResult> metric) {
        return ChartLines.panels(results, InterningResult::batch, batch -> "batch " + batch, InterningResult::allocator,
                InterningResult::concurrency, metric);
    }
}
