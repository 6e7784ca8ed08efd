package io.strata.cli.bench;

import io.strata.bench.ssd.SsdResult;
import io.strata.bench.ssd.SsdTargets;

import java.io.PrintWriter;
import java.util.List;

/** The console of {@code strata bench ssd}: a line per result as it is measured, then issue 19's targets. */
final class SsdTable {
    private final PrintWriter out;

    SsdTable(PrintWriter out) {
        this.out = out;
    }

    void header() {
        out.println(String.format("%-13s %-13s %7s %8s %14s %-8s %9s %9s %6s  %s", "phase", "engine", "threads", "seconds", "rate", "unit",
                "p50 us", "p99 us", "errors", "note"));
        out.flush();
    }

    void row(SsdResult r) {
        out.println(String.format("%-13s %-13s %7d %8.2f %,14.2f %-8s %9s %9s %6d  %s", r.phase(), r.engine(), r.clients(), r.seconds(),
                r.rate(), r.unit(), us(r.micros(50)), us(r.micros(99)), r.errors(), r.note()));
        out.flush();
    }

    void targets(List<SsdTargets.Check> checks) {
        out.println("issue 19 targets:");
        for (SsdTargets.Check c : checks) {
            out.println(String.format("  %-28s %8.2f  target %s %.2f  %s", c.figure(), c.value(), c.atLeast() ? ">=" : "<=", c.target(),
                    c.met() ? "met" : "NOT met"));
        }
        out.flush();
    }

    private static String us(double v) {
        return Double.isNaN(v) ? "-" : String.format("%,.1f", v);
    }
}
