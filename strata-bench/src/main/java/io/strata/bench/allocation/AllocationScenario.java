package io.strata.bench.allocation;

import io.strata.bench.report.ChartLines;
import io.strata.bench.report.CsvLog;
import io.strata.bench.report.SvgLineChart;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * {@code strata bench allocators}: each allocator at each concurrency level, for each
 * latency setting — the experiment of the blog post that introduced FoundationDB's High
 * Contention Allocator: a naive counter is held near one allocation per commit latency
 * however many clients run, because every pair of concurrent allocations conflicts; the HCA
 * picks random candidates in a window and grows with the clients.
 *
 * <p>Workload: {@code C} client threads, each allocating back to back in its own
 * transaction ({@code allocate(tr)} then commit, retried with {@code onError}), for a
 * warm-up and then the measured seconds. Every cell starts from an empty place
 * ({@link DatabaseTarget}: a fresh in-memory engine per cell, or a fresh subspace of a real
 * cluster). Order: latency setting, allocator, concurrency.
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * One row per cell, header {@value #CSV_HEADER}:
 * <ul>
 *   <li>{@code allocator}: a name in {@link AllocatorRegistry}; {@code latency}: the
 *       {@link DatabaseTarget#name()} — {@code none} (engine at full speed), {@code cluster}
 *       (engine with {@code LatencyModel.cluster()}: 1 ms read version, 1 ms per read, 4 ms
 *       commit), or {@code cluster-file} (a real FoundationDB cluster);</li>
 *   <li>{@code concurrency}: client threads; {@code allocations_per_s}: committed
 *       allocations started in the measured interval, over its length;</li>
 *   <li>{@code avg_ms}, {@code max_ms}: allocation latency in milliseconds, first attempt to
 *       commit, retries included;</li>
 *   <li>{@code conflicts}: retried attempts among those allocations (a cell total, not a
 *       rate).</li>
 * </ul>
 *
 * <h2>Charts</h2>
 * {@value #THROUGHPUT_SVG}, {@value #LATENCY_SVG} (average), {@value #CONFLICTS_SVG}: x =
 * concurrency (log scale), one line per allocator, one panel per latency setting side by
 * side, each panel with its own y scale.
 */
public final class AllocationScenario {
    public static final String CSV_FILE = "allocators.csv";
    public static final String CSV_HEADER = "allocator,latency,concurrency,allocations_per_s,avg_ms,max_ms,conflicts";
    public static final String THROUGHPUT_SVG = "allocators-throughput.svg";
    public static final String LATENCY_SVG = "allocators-latency.svg";
    public static final String CONFLICTS_SVG = "allocators-conflicts.svg";

    private final AllocatorRegistry registry;
    private final List<String> allocators;
    private final List<DatabaseTarget> targets;
    private final List<Integer> concurrency;
    private final Duration warmup;
    private final Duration measure;

    public AllocationScenario(AllocatorRegistry registry, List<String> allocators, List<DatabaseTarget> targets,
                              List<Integer> concurrency, Duration warmup, Duration measure) {
        for (String a : allocators) {
            registry.get(a); // fails now, not after an hour of other cells
        }
        this.registry = registry;
        this.allocators = List.copyOf(allocators);
        this.targets = List.copyOf(targets);
        this.concurrency = List.copyOf(concurrency);
        this.warmup = warmup;
        this.measure = measure;
    }

    /**
     * Runs every cell, hands each result to {@code onCell} as it is measured, writes the CSV
     * row by row to {@code outDir}, and the three charts at the end.
     */
    public List<AllocationResult> run(Path outDir, Consumer<AllocationResult> onCell) throws IOException {
        List<AllocationResult> all;
        try (CsvLog<AllocationResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, AllocationScenario::csvLine, onCell)) {
            for (DatabaseTarget target : targets) {
                for (String allocator : allocators) {
                    for (int c : concurrency) {
                        System.gc(); // the previous cell's garbage is not this cell's cost
                        log.add(AllocationRunner.run(target, allocator, registry.get(allocator), c, warmup, measure));
                    }
                }
            }
            all = log.results();
        }
        writeCharts(outDir, all);
        return all;
    }

    static String csvLine(AllocationResult r) {
        return String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.3f,%.3f,%d", r.allocator(), r.latencySetting(), r.concurrency(),
                r.allocationsPerSecond(), r.avgMillis(), r.maxMillis(), r.conflicts());
    }

    /** Writes the three charts of {@code results} to {@code outDir}. */
    public static void writeCharts(Path outDir, List<AllocationResult> results) throws IOException {
        SvgLineChart.write(outDir.resolve(THROUGHPUT_SVG), "Allocations per second", "concurrency (client threads)",
                "allocations/s", panels(results, AllocationResult::allocationsPerSecond));
        SvgLineChart.write(outDir.resolve(LATENCY_SVG), "Average allocation latency (retries included)",
                "concurrency (client threads)", "average latency (ms)", panels(results, AllocationResult::avgMillis));
        SvgLineChart.write(outDir.resolve(CONFLICTS_SVG), "Conflicts (retried attempts in the measured interval)",
                "concurrency (client threads)", "conflicts", panels(results, r -> r.conflicts()));
    }

    private static List<SvgLineChart.Panel> panels(List<AllocationResult> results, ToDoubleFunction<AllocationResult> metric) {
        return ChartLines.panels(results, AllocationResult::latencySetting, setting -> "latency: " + setting,
                AllocationResult::allocator, AllocationResult::concurrency, metric);
    }
}
