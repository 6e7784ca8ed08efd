package io.strata.cli.bench;

import io.strata.bench.mutex.MutexResult;
import io.strata.bench.mutex.MutexScenario;
import io.strata.bench.options.BenchArgs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench mutex}: the distributed mutex under contention on the embedded engine —
 * acquisitions/s and the hand-off latency from a release to the next owner. Prints a row per
 * contender count and writes {@code DIR/mutex.csv} and two SVG charts ({@link MutexScenario}).
 */
@Command(name = "mutex",
        mixinStandardHelpOptions = true,
        description = {
                "Measure the distributed mutex: C client threads, each with its own name, loop acquire, a tiny critical",
                "section, release, on a fresh in-memory engine per cell. Hand-off = from a call of release to the",
                "acquire of the queued waiter it handed the lock to returning, matched by fencing token."},
        footer = {"",
                "Output in --out: " + MutexScenario.CSV_FILE + " (columns " + MutexScenario.CSV_HEADER + "),",
                "  " + MutexScenario.THROUGHPUT_SVG + ", " + MutexScenario.HANDOFF_SVG + ": x = contenders."})
public final class BenchMutexCommand implements Callable<Integer> {
    @Option(names = "--contenders", paramLabel = "C[,C...]", hideParamSyntax = true, split = ",",
            defaultValue = "2,16,64", description = "Client threads per cell (default: ${DEFAULT-VALUE}).")
    List<Integer> contenders;

    @Mixin
    CellTiming timing;

    @Mixin
    OutputOption output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter o = spec.commandLine().getOut();
        o.printf("strata bench mutex: contenders %s; %s s warm-up + %s s measured per cell; %s%n",
                contenders, timing.warmup, timing.seconds, BenchConsole.machine());
        o.println("each cell on a fresh in-memory engine; critical section = one counter increment.");
        o.println();
        o.println("hand-off = release called -> next owner's acquire returned (the CSV); after commit = from release returned.");
        o.printf("%11s %16s %16s %16s %13s %13s %10s%n", "contenders", "acquisitions/s", "hand-off p50 ms", "hand-off p99 ms",
                "after p50 ms", "after p99 ms", "hand-offs");
        o.flush();
        MutexScenario scenario = new MutexScenario(contenders, timing.warmupDuration(), timing.measureDuration());
        List<MutexResult> results = scenario.run(output.out, r -> row(o, r));
        BenchConsole.wrote(o, output.out.resolve(MutexScenario.CSV_FILE) + ", " + MutexScenario.THROUGHPUT_SVG + ", "
                + MutexScenario.HANDOFF_SVG);
        return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
    }

    private static void row(PrintWriter o, MutexResult r) {
        o.printf(Locale.ROOT, "%11d %,16.0f %16.3f %16.3f %13.3f %13.3f %,10d%s%n", r.contenders(), r.acquisitionsPerSecond(),
                r.handoffP50Millis(), r.handoffP99Millis(), r.afterCommitP50Millis(), r.afterCommitP99Millis(), r.handoffs(),
                r.errors() > 0 ? String.format("  (%,d errors, first: %s)", r.errors(), r.firstError()) : "");
        o.flush();
    }

    private void validate() {
        timing.validate(spec);
        BenchArgs.requireCounts(spec, contenders, 1024, "--contenders must be between 1 and 1024");
    }
}
