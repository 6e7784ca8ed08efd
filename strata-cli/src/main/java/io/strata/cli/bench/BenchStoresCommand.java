package io.strata.cli.bench;

import io.strata.bench.options.BenchArgs;
import io.strata.bench.stores.StoreBakeoff;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code strata bench stores}: the disk engine's store (RocksDB) against H2's MVStore and LMDB,
 * each through the engine's {@code DiskStore} interface as its catch-up and reads use it
 * ({@link StoreBakeoff}). Prints a line per store, then a table with each store's ratio to
 * RocksDB.
 */
@Command(name = "stores",
        mixinStandardHelpOptions = true,
        description = {
                "The embedded ordered stores the disk engine could stand on, through its DiskStore interface: "
                        + "rocksdb (the engine's RocksDiskStore), mvstore (H2 MVStore), lmdb (LMDB via lmdbjava).",
                "load: one thread writes --batch-keys-key atomic batches (keys all over the key space), durable every "
                        + "--durable-every batches, until --data-gib is loaded; close and reopen (timed), verify a sample; "
                        + "then point reads and 100-key scans by --clients threads."})
public final class BenchStoresCommand implements Callable<Integer> {
    @Option(names = "--data-gib", paramLabel = "N", defaultValue = "1", description = "GiB of keys and values per store (default: ${DEFAULT-VALUE}).")
    double dataGib;

    @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "1000", description = "Bytes per value; keys are 16 bytes (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--cache-mib", paramLabel = "N", defaultValue = "256",
            description = "Cache of RocksDB (block cache, off the heap) and MVStore (page cache, on the heap), MiB; LMDB has none of its own (default: ${DEFAULT-VALUE}).")
    long cacheMib;

    @Option(names = "--batch-keys", paramLabel = "N", defaultValue = "4096", description = "Keys per write batch (default: ${DEFAULT-VALUE}).")
    int batchKeys;

    @Option(names = "--durable-every", paramLabel = "N", defaultValue = "16", description = "Batches between makeDurable calls (default: ${DEFAULT-VALUE}).")
    int durableEvery;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "16", description = "Reading threads (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--seconds", paramLabel = "N", defaultValue = "5", description = "Measured seconds per read cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2", description = "Warm-up seconds before each (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--verify-keys", paramLabel = "N", defaultValue = "10000", description = "Keys read back and checked after reopening (default: ${DEFAULT-VALUE}).")
    int verifyKeys;

    @Option(names = "--stores", paramLabel = "S[,S...]", hideParamSyntax = true, split = ",", defaultValue = "rocksdb,mvstore,lmdb",
            description = "Stores, measured in this order: rocksdb, mvstore, lmdb (default: ${DEFAULT-VALUE}).")
    List<String> stores;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Where the stores are made, one at a time, each deleted afterwards (default: ${DEFAULT-VALUE}).")
    Path dir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        BenchArgs.requireTiming(spec, seconds, warmup);
        BenchArgs.requireKnown(spec, stores, List.of("rocksdb", "mvstore", "lmdb"), "store");
        if (!(dataGib > 0) || valueBytes < 8 || cacheMib < 1 || batchKeys < 1 || durableEvery < 1 || clients < 1 || verifyKeys < 1) {
            throw BenchArgs.usage(spec, "--data-gib must be > 0, --value-bytes >= 8, and --cache-mib, --batch-keys, --durable-every,"
                    + " --clients, --verify-keys >= 1");
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf(Locale.ROOT, "strata bench stores: %.2f GiB of 16 B keys and %d B values per store; cache %,d MiB; %,d-key batches,"
                        + " durable every %d; %d clients, %s s warm-up + %s s measured; heap %,d MiB; %s%n",
                dataGib, valueBytes, cacheMib, batchKeys, durableEvery, clients, warmup, seconds,
                Runtime.getRuntime().maxMemory() >> 20, BenchConsole.machine());
        List<StoreBakeoff.Result> results = StoreBakeoff.run(new StoreBakeoff.Config(dir, (long) (dataGib * (1L << 30)), valueBytes,
                cacheMib << 20, batchKeys, durableEvery, clients, seconds, warmup, verifyKeys, stores), o);
        StoreBakeoff.Result rocks = results.stream().filter(r -> r.store().equals("rocksdb")).findFirst().orElse(null);
        o.println();
        o.println("| store | load MiB/s | close / reopen s | on disk MiB | point reads/s | 100-key scans/s |");
        o.println("|---|---|---|---|---|---|");
        for (StoreBakeoff.Result r : results) {
            o.printf(Locale.ROOT, "| %s | %.1f%s | %.2f / %.2f | %,d | %,.0f%s | %,.0f%s |%n", r.store(),
                    r.loadMiBps(), ratio(r.loadMiBps(), rocks == null ? 0 : rocks.loadMiBps()), r.closeSec(), r.reopenSec(),
                    r.diskBytes() >> 20, r.readsPerSec(), ratio(r.readsPerSec(), rocks == null ? 0 : rocks.readsPerSec()),
                    r.scansPerSec(), ratio(r.scansPerSec(), rocks == null ? 0 : rocks.scansPerSec()));
        }
        o.flush();
        return 0;
    }

    private static String ratio(double value, double rocks) {
        return rocks > 0 ? String.format(Locale.ROOT, " (%.2f×)", value / rocks) : "";
    }
}
