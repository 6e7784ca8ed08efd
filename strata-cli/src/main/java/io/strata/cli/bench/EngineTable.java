package io.strata.cli.bench;

import io.strata.bench.scenario.RunResult;

import java.io.PrintWriter;
import java.util.List;

/**
 * The console table of {@code strata bench engine}: one line per workload and client count,
 * a throughput and two latency percentiles per engine, and the first engine's throughput over
 * the second's (by default Strata's over RocksDB's) when at least two ran.
 */
final class EngineTable {
    private final PrintWriter out;
    private final List<String> engines;
    private final boolean ratio;

    EngineTable(PrintWriter out, List<String> engines) {
        this.out = out;
        this.engines = engines;
        this.ratio = engines.size() >= 2;
    }

    void header() {
        StringBuilder sb = new StringBuilder(String.format("%-18s %7s", "workload", "clients"));
        for (String e : engines) {
            sb.append(String.format(" | %14s %8s %8s", e + " ops/s", "p50 us", "p99 us"));
        }
        if (ratio) {
            sb.append(" | ").append(engines.get(0)).append('/').append(engines.get(1));
        }
        out.println(sb);
    }

    void row(List<RunResult> results) {
        RunResult first = results.get(0);
        StringBuilder sb = new StringBuilder(String.format("%-18s %7d", first.workload().title(), first.clients()));
        double firstEngine = 0;
        double secondEngine = 0;
        for (RunResult r : results) {
            sb.append(String.format(" | %,14.0f %8.1f %8.1f", r.opsPerSecond(), r.micros(50), r.micros(99)));
            if (ratio && r.engine().equals(engines.get(0))) {
                firstEngine = r.opsPerSecond();
            } else if (ratio && r.engine().equals(engines.get(1))) {
                secondEngine = r.opsPerSecond();
            }
        }
        if (ratio) {
            sb.append(secondEngine > 0 ? String.format(" | %13.2fx", firstEngine / secondEngine) : " |             -");
        }
        for (RunResult r : results) {
            if (r.errors() > 0) {
                sb.append(String.format("  (%s: %,d errors)", r.engine(), r.errors()));
            }
        }
        out.println(sb);
        out.flush();
    }
}
