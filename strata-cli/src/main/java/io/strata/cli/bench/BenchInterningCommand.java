package io.strata.cli.bench;

import io.strata.bench.interning.InternerRegistry;
import io.strata.bench.interning.InterningResult;
import io.strata.bench.interning.InterningScenario;
import io.strata.bench.options.BenchArgs;
import io.strata.bench.run.ClientPriority;
import io.strata.cli.MvccWindowOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench interning}: the string interner with each ID allocator — new strings
 * interned per second, lookups per second, conflicts per string — at each batch size and
 * client count, every cell on a fresh in-memory engine. Prints a row per cell and writes
 * {@code DIR/interning.csv} and three SVG charts ({@link InterningScenario}).
 */
@Command(name = "interning",
        mixinStandardHelpOptions = true,
        description = {
                "Measure string interning: C client threads each intern batches of B new strings (one transaction per",
                "batch, retried with onError), then C clients look up known strings in batches of B (findAll on the",
                "database, one read-only transaction per batch). Every cell on a fresh in-memory engine. Allocators:",
                "  sharded-32/32  the seed's random sharded sequences     sharded-16/48  kvdb's layout",
                "  counter        one hot counter                         hca            the High Contention Allocator",
                "  versionstamp   IDs from the commit versionstamp"},
        footer = {"",
                "Output in --out: " + InterningScenario.CSV_FILE + " (columns " + InterningScenario.CSV_HEADER + "),",
                "  " + InterningScenario.NEW_STRINGS_SVG + ", " + InterningScenario.LOOKUPS_SVG + ", "
                        + InterningScenario.CONFLICTS_SVG + ":",
                "  x = concurrency, a line per allocator, a panel per batch size.",
                "  conflicts_per_string = retried attempts / strings interned; with --cache the allocator is suffixed +cache."})
public final class BenchInterningCommand implements Callable<Integer> {
    @Option(names = "--allocators", paramLabel = "A[,A...]", hideParamSyntax = true, split = ",",
            description = "Allocators to compare (default: all, ${DEFAULT-VALUE}).")
    List<String> allocators = new ArrayList<>(InternerRegistry.standard().names());

    @Option(names = "--batch", paramLabel = "B[,B...]", hideParamSyntax = true, split = ",", defaultValue = "1,100,1000",
            description = "Strings per transaction (default: ${DEFAULT-VALUE}).")
    List<Integer> batch;

    @Option(names = "--concurrency", paramLabel = "C[,C...]", hideParamSyntax = true, split = ",", defaultValue = "1,4,16,64",
            description = "Client threads per cell (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "1.5",
            description = "Measured seconds per phase (intern, lookup) of each cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "0.5",
            description = "Warm-up seconds before each phase, not measured (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--cache", paramLabel = "N", defaultValue = "0",
            description = "In-process cache of the interner, in mappings; 0 = none (default: ${DEFAULT-VALUE}).")
    int cache;

    @Option(names = "--latency", paramLabel = "L[,L...]", hideParamSyntax = true, split = ",", defaultValue = "none",
            description = "Engine latency settings: none, cluster (1 ms read version, 1 ms per read, 4 ms commit;"
                    + " rows get @cluster) (default: ${DEFAULT-VALUE}).")
    List<String> latency;

    @Option(names = "--client-priority", paramLabel = "P", defaultValue = "normal",
            description = "Priority of the client threads: normal, or low (Thread.MIN_PRIORITY, below the engine's"
                    + " sequencer, which every commit waits for; needs the JVM option -XX:ThreadPriorityPolicy=1, e.g. in"
                    + " STRATA_JAVA_OPTS, or Linux ignores it) (default: ${DEFAULT-VALUE}).")
    String clientPriority;

    @Option(names = "--jit-warmup", paramLabel = "N", defaultValue = "2",
            description = "Seconds of the first cell's setting run before it, unreported, on an engine of its own, so"
                    + " that no cell is measured while the JIT compiler is still at work; 0 = none (default: ${DEFAULT-VALUE}).")
    double jitWarmup;

    @Mixin
    MvccWindowOption mvccWindow;

    @Mixin
    OutputOption output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        InternerRegistry registry = InternerRegistry.standard();
        ClientPriority priority = validate(registry);
        PrintWriter o = spec.commandLine().getOut();
        o.printf("strata bench interning: %s; batch %s; concurrency %s; %s s warm-up + %s s measured per phase; cache %d;"
                + " client priority %s; JIT warm-up %s s; %s%n", String.join(",", allocators), batch, concurrency, warmup,
                seconds, cache, priority.label(), jitWarmup, BenchConsole.machine());
        o.println("each cell on a fresh in-memory engine (latency " + String.join(",", latency) + ", MVCC window "
                + mvccWindow.window().label() + "); lookups = findAll of known strings on the database.");
        o.println();
        o.printf("%-28s %6s %11s %16s %14s %12s%n", "allocator", "batch", "concurrency", "new strings/s", "lookups/s",
                "conflicts/str");
        o.flush();
        InterningScenario scenario = new InterningScenario(registry, allocators, batch, concurrency, cache, latency,
                BenchArgs.duration(warmup), BenchArgs.duration(seconds), priority, BenchArgs.duration(jitWarmup), mvccWindow.window());
        List<InterningResult> results = scenario.run(output.out, r -> row(o, r));
        BenchConsole.wrote(o, output.out.resolve(InterningScenario.CSV_FILE) + ", " + InterningScenario.NEW_STRINGS_SVG + ", "
                + InterningScenario.LOOKUPS_SVG + ", " + InterningScenario.CONFLICTS_SVG);
        return results.stream().anyMatch(r -> r.suspect() > 0) ? 1 : 0;
    }

    private static void row(PrintWriter o, InterningResult r) {
        o.printf(Locale.ROOT, "%-28s %6d %11d %,16.0f %,14.0f %12.4f%s%n", r.allocator(), r.batch(), r.concurrency(),
                r.newStringsPerSecond(), r.lookupsPerSecond(), r.conflictsPerString(),
                (r.abandoned() > 0 ? String.format(Locale.ROOT, "  (%,d batches abandoned after %d retries)", r.abandoned(),
                        InterningScenario.MAX_RETRIES) : "")
                        + (r.suspect() > 0 ? String.format(Locale.ROOT, "  (%,d failures or wrong answers)", r.suspect()) : ""));
        o.flush();
    }

    /** Checks every option; returns the client priority, which must be one the JVM applies. */
    private ClientPriority validate(InternerRegistry registry) {
        BenchArgs.requireTiming(spec, seconds, warmup);
        BenchArgs.requireNotNegative(spec, jitWarmup, "--jit-warmup");
        BenchArgs.requireCounts(spec, concurrency, 4096, "--concurrency must be between 1 and 4096");
        BenchArgs.requireCounts(spec, batch, 100_000, "--batch must be between 1 and 100000");
        BenchArgs.requireLatencies(spec, latency);
        if (cache < 0) {
            throw BenchArgs.usage(spec, "--cache must be 0 (none) or positive");
        }
        if (allocators.isEmpty()) {
            throw BenchArgs.usage(spec, "no allocators to run");
        }
        BenchArgs.requireKnown(spec, allocators, registry.names(), "allocator");
        for (String a : allocators) {
            int limit = registry.maxBatch(a);
            if (batch.stream().anyMatch(b -> b > limit)) {
                throw BenchArgs.usage(spec, "--batch above " + limit
                        + " is not possible with " + a + " (" + limit + " new strings per transaction)");
            }
        }
        ClientPriority priority = BenchArgs.parseEach(spec, List.of(clientPriority), ClientPriority::parse).get(0);
        if (priority != ClientPriority.NORMAL && !ClientPriority.effective()) {
            throw BenchArgs.usage(spec, "--client-priority " + priority.label() + " needs the JVM option"
                    + " -XX:ThreadPriorityPolicy=1 (e.g. STRATA_JAVA_OPTS=-XX:ThreadPriorityPolicy=1):"
                    + " without it the JVM ignores thread priorities on Linux");
        }
        return priority;
    }
}
