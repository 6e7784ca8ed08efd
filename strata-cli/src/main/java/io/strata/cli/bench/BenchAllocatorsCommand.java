package io.strata.cli.bench;

import com.apple.foundationdb.Database;
import io.strata.bench.allocation.AllocationResult;
import io.strata.bench.allocation.AllocationScenario;
import io.strata.bench.allocation.AllocatorRegistry;
import io.strata.bench.allocation.DatabaseTarget;
import io.strata.bench.options.BenchArgs;
import io.strata.cli.ClusterDatabase;
import io.strata.cli.MvccWindowOption;
import io.strata.engine.fault.LatencyModel;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench allocators}: prefix allocators under concurrency — allocations/s,
 * average and maximum latency, conflicts — on the engine without and with cluster latency,
 * or on a real FoundationDB cluster with {@code --cluster-file}. Prints a row per cell and
 * writes {@code DIR/allocators.csv} and three SVG charts ({@link AllocationScenario}).
 */
@Command(name = "allocators",
        mixinStandardHelpOptions = true,
        description = {
                "Measure prefix allocators under concurrency: C client threads each allocate back to back, one allocation",
                "per transaction, retried with onError; every cell on a fresh in-memory engine (or a fresh subspace of",
                "the cluster given by --cluster-file). Allocators:",
                "  naive      one counter (when registered)       hca  the High Contention Allocator (when registered)",
                "  directory  fdb-java's DirectoryLayer: createOrOpen of a new path per allocation; its prefix comes",
                "             from the directory layer's internal HCA",
                "Latency: none = the engine at full speed; cluster = 1 ms read version, 1 ms per read, 4 ms commit."},
        footer = {"",
                "Output in --out: " + AllocationScenario.CSV_FILE + " (columns " + AllocationScenario.CSV_HEADER + "),",
                "  " + AllocationScenario.THROUGHPUT_SVG + ", " + AllocationScenario.LATENCY_SVG + ", "
                        + AllocationScenario.CONFLICTS_SVG + ":",
                "  x = concurrency, a line per allocator, a panel per latency setting.",
                "  conflicts = retried attempts in the measured interval; latencies include retries."})
public final class BenchAllocatorsCommand implements Callable<Integer> {
    @Option(names = "--concurrency", paramLabel = "C[,C...]", hideParamSyntax = true, split = ",",
            defaultValue = "1,2,5,10,20,50", description = "Client threads per cell (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Mixin
    CellTiming timing;

    @Option(names = "--latency", paramLabel = "L[,L...]", hideParamSyntax = true, split = ",", defaultValue = "none,cluster",
            description = "Engine latency settings: none, cluster (default: ${DEFAULT-VALUE}); ignored with --cluster-file.")
    List<String> latency;

    @Option(names = "--allocators", paramLabel = "A[,A...]", hideParamSyntax = true, split = ",",
            description = "Allocators to compare (default: every registered one, now ${DEFAULT-VALUE}).")
    List<String> allocators = new ArrayList<>(AllocatorRegistry.standard().names());

    @Mixin
    OutputOption output;

    @Mixin
    MvccWindowOption mvccWindow;

    @Option(names = "--cluster-file", paramLabel = "PATH",
            description = "Run on the FoundationDB cluster of this cluster file instead of the engine "
                    + "(needs the FoundationDB client library, libfdb_c).")
    Path clusterFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        AllocatorRegistry registry = AllocatorRegistry.standard();
        validate(registry);
        PrintWriter o = spec.commandLine().getOut();
        Database cluster = null;
        List<DatabaseTarget> targets = new ArrayList<>();
        if (clusterFile != null) {
            try {
                cluster = ClusterDatabase.open(clusterFile);
            } catch (LinkageError e) {
                PrintWriter err = spec.commandLine().getErr();
                err.println(ClusterDatabase.NO_CLIENT_LIBRARY);
                err.flush();
                return 2;
            }
            targets.add(DatabaseTarget.shared("cluster-file", cluster));
        } else {
            for (String l : latency) {
                targets.add(DatabaseTarget.engine(l, l.equals("cluster") ? LatencyModel.cluster() : LatencyModel.none(),
                        mvccWindow.window()));
            }
        }
        try {
            o.printf("strata bench allocators: %s; concurrency %s; %s s warm-up + %s s measured per cell; %s%n",
                    String.join(",", allocators), concurrency, timing.warmup, timing.seconds, BenchConsole.machine());
            o.println(clusterFile != null ? "on the cluster of " + clusterFile + ", each cell in a fresh subspace cleared afterwards."
                    : "each cell on a fresh in-memory engine (MVCC window " + mvccWindow.window().label()
                            + "); cluster latency = 1 ms read version, 1 ms per read, 4 ms commit.");
            o.println();
            o.printf("%-12s %-12s %11s %14s %10s %10s %10s%n",
                    "allocator", "latency", "concurrency", "allocations/s", "avg ms", "max ms", "conflicts");
            o.flush();
            AllocationScenario scenario = new AllocationScenario(registry, allocators, targets, concurrency,
                    timing.warmupDuration(), timing.measureDuration());
            List<AllocationResult> results = scenario.run(output.out, r -> row(o, r));
            BenchConsole.wrote(o, output.out.resolve(AllocationScenario.CSV_FILE) + ", " + AllocationScenario.THROUGHPUT_SVG
                    + ", " + AllocationScenario.LATENCY_SVG + ", " + AllocationScenario.CONFLICTS_SVG);
            return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private static void row(PrintWriter o, AllocationResult r) {
        o.printf(Locale.ROOT, "%-12s %-12s %11d %,14.0f %10.2f %10.2f %,10d%s%n", r.allocator(), r.latencySetting(),
                r.concurrency(), r.allocationsPerSecond(), r.avgMillis(), r.maxMillis(), r.conflicts(),
                r.errors() > 0 ? String.format("  (%,d errors)", r.errors()) : "");
        o.flush();
    }

    private void validate(AllocatorRegistry registry) {
        timing.validate(spec);
        BenchArgs.requireCounts(spec, concurrency, 4096, "--concurrency must be between 1 and 4096");
        BenchArgs.requireLatencies(spec, latency);
        if (allocators.isEmpty()) {
            throw BenchArgs.usage(spec, "no allocators to run");
        }
        BenchArgs.requireKnown(spec, allocators, registry.names(), "allocator");
    }
}
