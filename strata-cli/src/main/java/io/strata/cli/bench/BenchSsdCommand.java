package io.strata.cli.bench;

import io.strata.bench.options.BenchArgs;
import io.strata.bench.ssd.SsdConfig;
import io.strata.bench.ssd.SsdResult;
import io.strata.bench.ssd.SsdScenario;
import io.strata.bench.ssd.SsdTarget;
import io.strata.bench.ssd.SsdTargets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata bench ssd}: Strata's disk storage engine on data larger than the heap against
 * RocksDB alone, its recovery after kill -9 mid-load, and its in-window speed against Strata in
 * memory (issue 19; what each phase measures: {@link SsdScenario}). Prints a line per result,
 * then the targets, and writes {@code DIR/ssd.csv}.
 */
@Command(name = "ssd",
        mixinStandardHelpOptions = true,
        description = {
                "Strata on Storage.SSD against RocksDB alone (same block cache, Bloom filters, WAL on, sync=true).",
                "load: --loaders threads commit --batch-keys keys each, durable, until --data-gib is loaded; "
                        + "then close (timed), reopen (timed to the first read), verify a sample, "
                        + "point reads and 100-key scans by --clients threads.",
                "recovery: a child JVM loads until --kill-at-gib is acknowledged and is killed (SIGKILL); "
                        + "open and first read are timed.",
                "window: read, write, mixed on --window-keys keys, strata-ssd against strata-fsync (Storage.MEMORY).",
                "The heap is the launcher's (a quarter of RAM); STRATA_JAVA_OPTS='-Xms1g -Xmx1g' sets another, "
                        + "for this JVM and the recovery phase's child."},
        footer = {"",
                "CSV columns (" + SsdScenario.CSV_FILE + "):",
                "  " + SsdScenario.CSV_HEADER})
public final class BenchSsdCommand implements Callable<Integer> {
    @Option(names = "--data-gib", paramLabel = "N", defaultValue = "2",
            description = "GiB of keys and values to load per engine (default: ${DEFAULT-VALUE}; issue 19: 8).")
    double dataGib;

    @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "1000", description = "Bytes per value; keys are 16 bytes (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--cache-mib", paramLabel = "N", defaultValue = "256",
            description = "Block cache of both engines, MiB, outside the heap (default: ${DEFAULT-VALUE}).")
    long cacheMib;

    @Option(names = "--loaders", paramLabel = "N", defaultValue = "16", description = "Loader threads (default: ${DEFAULT-VALUE}).")
    int loaders;

    @Option(names = "--batch-keys", paramLabel = "N", defaultValue = "64", description = "Keys per load transaction / write batch (default: ${DEFAULT-VALUE}).")
    int batchKeys;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "16", description = "Reading (and window) client threads (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "5", description = "Measured seconds per read and window cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2", description = "Warm-up seconds before each (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--engines", paramLabel = "E[,E...]", hideParamSyntax = true, split = ",", defaultValue = "strata,rocksdb",
            description = "Engines of the load and recovery phases: strata, strata-open (Strata keeping versions only for open "
                    + "transactions, MvccWindow.OPEN_TRANSACTIONS, as strata serve redis does), rocksdb (default: ${DEFAULT-VALUE}).")
    List<String> engines;

    @Option(names = "--phases", paramLabel = "P[,P...]", hideParamSyntax = true, split = ",", defaultValue = "load,recovery,window",
            description = "Phases: load, recovery, window (default: ${DEFAULT-VALUE}).")
    List<String> phases;

    @Option(names = "--kill-at-gib", paramLabel = "N",
            description = "Recovery: kill the loader once this many GiB are acknowledged (default: half of --data-gib).")
    Double killAtGib;

    @Option(names = "--verify-keys", paramLabel = "N", defaultValue = "10000", description = "Keys read back and checked after reopen and recovery (default: ${DEFAULT-VALUE}).")
    int verifyKeys;

    @Option(names = "--window-keys", paramLabel = "N", defaultValue = "100000", description = "Keys of the window phase's working set (default: ${DEFAULT-VALUE}).")
    int windowKeys;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Where the databases are made, one at a time, each deleted afterwards (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for " + SsdScenario.CSV_FILE + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SsdConfig config = config();
        PrintWriter o = spec.commandLine().getOut();
        SsdScenario scenario = new SsdScenario(config);
        o.printf("strata bench ssd: %,d keys of 16 B with %d B values (%.2f GiB) per engine; block cache %,d MiB; %d loaders x %d-key batches;"
                        + " %d clients, %s s warm-up + %s s measured; heap %,d MiB; %s%n",
                scenario.data().count(), valueBytes, dataGib, cacheMib, loaders, batchKeys, clients, warmup, seconds,
                Runtime.getRuntime().maxMemory() >> 20, BenchConsole.machine());
        o.println("strata = Strata.builder().storage(SSD).diskCacheBytes(cache), Durability.FSYNC; strata-open = the same with"
                + " mvccWindow(OPEN_TRANSACTIONS); rocksdb = RocksDB alone, the same table"
                + " options as Strata's disk store, WAL on, sync=true.");
        o.println();
        SsdTable table = new SsdTable(o);
        table.header();
        List<SsdResult> results = scenario.run(out, table::row);
        o.println();
        List<SsdTargets.Check> checks = SsdTargets.check(results);
        table.targets(checks);
        BenchConsole.wrote(o, out.resolve(SsdScenario.CSV_FILE).toString());
        return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
    }

    SsdConfig config() {
        BenchArgs.requireTiming(spec, seconds, warmup);
        BenchArgs.requireKnown(spec, engines, SsdTarget.NAMES, "engine");
        BenchArgs.requireKnown(spec, phases, SsdConfig.PHASES, "phase");
        if (!(dataGib > 0) || valueBytes < 8 || cacheMib < 1 || loaders < 1 || batchKeys < 1 || clients < 1 || verifyKeys < 1
                || windowKeys < 1 || windowKeys >= 10_000_000) {
            throw BenchArgs.usage(spec, "--data-gib must be > 0, --value-bytes >= 8, --cache-mib, --loaders, --batch-keys, --clients,"
                    + " --verify-keys >= 1 and --window-keys in [1, 10,000,000)");
        }
        if (killAtGib != null && !(killAtGib > 0)) {
            throw BenchArgs.usage(spec, "--kill-at-gib must be > 0");
        }
        if ((long) batchKeys * (16 + valueBytes) > 9_000_000) {
            throw BenchArgs.usage(spec, "--batch-keys x (16 + --value-bytes) must stay under FoundationDB's 10 MB transaction limit");
        }
        long dataBytes = (long) (dataGib * (1L << 30));
        long killAt = killAtGib != null ? (long) (killAtGib * (1L << 30)) : dataBytes / 2;
        return new SsdConfig(dataBytes, valueBytes, cacheMib << 20, loaders, batchKeys, clients, BenchArgs.duration(warmup),
                BenchArgs.duration(seconds), engines, phases, killAt, verifyKeys, windowKeys, dir);
    }
}
