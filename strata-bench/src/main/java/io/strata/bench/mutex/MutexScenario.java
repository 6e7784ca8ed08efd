package io.strata.bench.mutex;

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
 * {@code strata bench mutex}: the distributed mutex at each contender count on the embedded
 * engine (a fresh in-memory engine per cell, see {@link MutexRunner}).
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * One row per contender count, header {@value #CSV_HEADER}:
 * <ul>
 *   <li>{@code contenders}: client threads, each its own client name;</li>
 *   <li>{@code acquisitions_per_s}: acquire-release rounds started in the measured interval,
 *       over its length;</li>
 *   <li>{@code handoff_p50_ms}, {@code handoff_p99_ms}: median and 99th percentile, in
 *       milliseconds, of the time from a call of release to the acquire of the queued waiter
 *       it handed the lock to returning (HdrHistogram, 3 significant digits).</li>
 * </ul>
 *
 * <h2>Charts</h2>
 * {@value #THROUGHPUT_SVG} (acquisitions/s) and {@value #HANDOFF_SVG} (p50 and p99 hand-off):
 * x = contenders (log scale).
 */
public final class MutexScenario {
    public static final String CSV_FILE = "mutex.csv";
    public static final String CSV_HEADER = "contenders,acquisitions_per_s,handoff_p50_ms,handoff_p99_ms";
    public static final String THROUGHPUT_SVG = "mutex-throughput.svg";
    public static final String HANDOFF_SVG = "mutex-handoff.svg";

    private final List<Integer> contenders;
    private final Duration warmup;
    private final Duration measure;

    public MutexScenario(List<Integer> contenders, Duration warmup, Duration measure) {
        this.contenders = List.copyOf(contenders);
        this.warmup = warmup;
        this.measure = measure;
    }

    /** Runs every cell, hands each result to {@code onCell}, writes the CSV row by row and the charts at the end. */
    public List<MutexResult> run(Path outDir, Consumer<MutexResult> onCell) throws IOException {
        List<MutexResult> all;
        try (CsvLog<MutexResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, MutexScenario::csvLine, onCell)) {
            for (int c : contenders) {
                System.gc(); // the previous cell's garbage is not this cell's cost
                log.add(MutexRunner.run(c, warmup, measure));
            }
            all = log.results();
        }
        writeCharts(outDir, all);
        return all;
    }

    static String csvLine(MutexResult r) {
        return String.format(Locale.ROOT, "%d,%.1f,%.3f,%.3f", r.contenders(), r.acquisitionsPerSecond(),
                r.handoffP50Millis(), r.handoffP99Millis());
    }

    /** Writes the two charts of {@code results} to {@code outDir}. */
    public static void writeCharts(Path outDir, List<MutexResult> results) throws IOException {
        SvgLineChart.write(outDir.resolve(THROUGHPUT_SVG), "Mutex acquisitions per second",
                "contenders (client threads)", "acquisitions/s",
                List.of(new SvgLineChart.Panel("embedded engine", List.of(series("acquisitions/s", results,
                        MutexResult::acquisitionsPerSecond)))));
        SvgLineChart.write(outDir.resolve(HANDOFF_SVG), "Mutex hand-off latency",
                "contenders (client threads)", "hand-off (ms)",
                List.of(new SvgLineChart.Panel("embedded engine", List.of(
                        series("p50", results, MutexResult::handoffP50Millis),
                        series("p99", results, MutexResult::handoffP99Millis)))));
    }

    private static SvgLineChart.Series series(String name, List<MutexResult> results, ToDoubleFunction<MutexResult> metric) {
        return ChartLines.line(name, results, MutexResult::contenders, metric);
    }
}
