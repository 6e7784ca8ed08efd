package io.strata.cli.bench;

import io.strata.bench.options.BenchArgs;
import io.strata.bench.sets.SetShape;
import io.strata.bench.sets.SetsResult;
import io.strata.bench.sets.SetsScenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench sets}: the roaring set layer's bulk add and its set algebra over two
 * sets, dense and sparse, at each size; prints a row per measurement and writes
 * {@code DIR/sets.csv} and two SVG charts ({@link SetsScenario}).
 */
@Command(name = "sets",
        mixinStandardHelpOptions = true,
        description = {
                "Measure the roaring set layer on a fresh in-memory engine: for each shape and size N,",
                "  add-<shape>    load N members (random order) into an empty set, --batch members per transaction;",
                "  and-, or-, andNot-, xor-<shape>   the operation over two loaded sets of N members each, from the",
                "                 read version to the finished Roaring64Bitmap (untimed warm-up runs first).",
                "Shapes: dense = N members drawn below 4N (bitmap containers); sparse = N random uint64s (a container,",
                "i.e. a key, per member). Each result is checked against in-memory Roaring64Bitmaps.",
                "Reported: the median of --repeat runs."},
        footer = {"",
                "Output in --out: " + SetsScenario.CSV_FILE + " (columns " + SetsScenario.CSV_HEADER + "),",
                "  " + SetsScenario.ALGEBRA_SVG + " (x = members, ms, a panel per shape) and "
                        + SetsScenario.ADD_SVG + " (members added per second)."})
public final class BenchSetsCommand implements Callable<Integer> {
    @Option(names = "--members", paramLabel = "N[,N...]", hideParamSyntax = true, split = ",",
            defaultValue = "10000,100000,1000000", description = "Members per set (default: ${DEFAULT-VALUE}).")
    List<Integer> members;

    @Option(names = "--shapes", paramLabel = "S[,S...]", hideParamSyntax = true, split = ",",
            defaultValue = "dense,sparse", description = "Set shapes: dense, sparse (default: ${DEFAULT-VALUE}).")
    List<String> shapes;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Timed runs per measurement; the median is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + SetsScenario.DEFAULT_BATCH,
            description = "Members per transaction when loading sets (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "0.3",
            description = "Untimed runs of each set operation before timing it, for up to this long "
                    + "(at most 50 runs; default: ${DEFAULT-VALUE}).")
    double warmup;

    @Mixin
    OutputOption output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<SetShape> parsedShapes = validate();
        PrintWriter o = spec.commandLine().getOut();
        o.printf("strata bench sets: members %s; shapes %s; median of %d; %d members per load transaction; %s%n",
                members, String.join(",", shapes), repeat, batch, BenchConsole.machine());
        o.println();
        o.printf("%-14s %10s %12s %14s%n", "operation", "members", "median ms", "result size");
        o.flush();
        List<SetsResult> results = new SetsScenario(members, parsedShapes, repeat, batch,
                BenchArgs.duration(warmup)).run(output.out, r -> {
            o.printf(Locale.ROOT, "%-14s %,10d %12.3f %,14d%n", r.operation(), r.members(), r.millis(), r.resultCardinality());
            o.flush();
        });
        BenchConsole.wrote(o, output.out.resolve(SetsScenario.CSV_FILE) + ", " + SetsScenario.ALGEBRA_SVG + ", "
                + SetsScenario.ADD_SVG + " (" + results.size() + " rows)");
        return 0;
    }

    private List<SetShape> validate() {
        BenchArgs.requireCounts(spec, members, 50_000_000, "--members must be between 1 and 50,000,000");
        if (repeat < 1 || batch < 1) {
            throw BenchArgs.usage(spec, "--repeat and --batch must be at least 1");
        }
        BenchArgs.requireNotNegative(spec, warmup, "--warmup");
        return BenchArgs.parseEach(spec, shapes, SetShape::of);
    }
}
