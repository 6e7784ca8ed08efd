package io.strata.bench.scenario;

import io.strata.bench.data.Dataset;
import io.strata.bench.report.CsvLog;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code strata bench engine}: each workload ({@link Workload}) at each client count, on each
 * engine in turn (Strata in memory, then RocksDB OptimisticTransactionDB, configured as
 * {@link io.strata.bench.peer.RocksDbPeer} states), every cell on a freshly opened and
 * loaded engine. Results go to a listener as each cell finishes and to a CSV file.
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * One row per cell, header {@value #CSV_HEADER}:
 * <ul>
 *   <li>{@code workload}: read, write or mixed; {@code engine}: strata or rocksdb;
 *       {@code clients}: concurrent client threads;</li>
 *   <li>{@code keys}, {@code value_bytes}: the data set (keys are 16 bytes);</li>
 *   <li>{@code seconds}: the measured interval; {@code ops}: transactions completed in it;
 *       {@code ops_per_sec}: their rate; {@code retries}: conflict retries among them;
 *       {@code errors}: transactions that failed;</li>
 *   <li>{@code p50_us} … {@code max_us}: transaction latency percentiles in microseconds,
 *       retries included (closed loop: a slow transaction delays its client's next one).</li>
 * </ul>
 */
public final class EngineScenario {
    public static final String CSV_FILE = "engine.csv";
    public static final String CSV_HEADER =
            "workload,engine,clients,keys,value_bytes,seconds,ops,ops_per_sec,retries,errors,p50_us,p90_us,p99_us,p999_us,max_us";

    private final List<Workload> workloads;
    private final List<String> engines;
    private final List<Integer> clientCounts;
    private final Dataset data;
    private final int valueBytes;
    private final Duration warmup;
    private final Duration measure;

    public EngineScenario(List<Workload> workloads, List<String> engines, List<Integer> clientCounts, int keys, int valueBytes,
                          Duration warmup, Duration measure) {
        this.workloads = List.copyOf(workloads);
        this.engines = List.copyOf(engines);
        this.clientCounts = List.copyOf(clientCounts);
        this.data = new Dataset(keys, valueBytes, 42);
        this.valueBytes = valueBytes;
        this.warmup = warmup;
        this.measure = measure;
    }

    /**
     * Runs every cell, in the order workload, client count, engine; hands each workload and
     * client count's results (one per engine) to {@code onRow} as soon as they are measured,
     * and writes them all to {@code outDir/engine.csv}.
     */
    public List<RunResult> run(Path outDir, Consumer<List<RunResult>> onRow) throws IOException {
        try (CsvLog<RunResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, this::csvLine, r -> { })) {
            for (Workload workload : workloads) {
                for (int clients : clientCounts) {
                    List<RunResult> row = new ArrayList<>();
                    for (String engine : engines) {
                        System.gc(); // garbage of the previous cell is not this cell's cost
                        RunResult r = ScenarioRunner.run(engine, workload, clients, data, warmup, measure);
                        row.add(r);
                        log.add(r);
                    }
                    onRow.accept(row);
                }
            }
            return log.results();
        }
    }

    private String csvLine(RunResult r) {
        return String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.3f,%d,%.1f,%d,%d,%.1f,%.1f,%.1f,%.1f,%.1f",
                r.workload().id(), r.engine(), r.clients(), data.size(), valueBytes, r.seconds(), r.ops(),
                r.opsPerSecond(), r.retries(), r.errors(), r.micros(50), r.micros(90), r.micros(99), r.micros(99.9),
                r.maxMicros());
    }
}
