package io.strata.cli.bench;

import io.strata.bench.data.Dataset;
import io.strata.bench.options.BenchArgs;
import io.strata.bench.peer.KvPeer;
import io.strata.bench.scenario.EngineScenario;
import io.strata.bench.scenario.RunResult;
import io.strata.bench.scenario.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code strata bench engine}: Strata and RocksDB side by side on point reads, write
 * commits and a 90/10 mixed workload, at several client counts; prints a table as it goes
 * and writes {@code DIR/engine.csv} (columns in {@link EngineScenario}).
 */
@Command(name = "engine",
        mixinStandardHelpOptions = true,
        description = {
                "Measure the engine against RocksDB OptimisticTransactionDB (WAL off, sync=false) on the same transactions:",
                "  read   a read-only transaction reading one random key",
                "  write  a transaction setting one random key, committed and acknowledged",
                "  mixed  90%% read, 10%% read-modify-write of one random key",
                "Each client is a thread running transactions back to back; every cell opens and loads a fresh engine."},
        footer = {"",
                "CSV columns (" + EngineScenario.CSV_FILE + "):",
                "  " + EngineScenario.CSV_HEADER,
                "  seconds = measured interval; ops = transactions completed in it; retries = conflict retries;",
                "  p*_us = transaction latency percentiles in microseconds, retries included."})
public final class BenchEngineCommand implements Callable<Integer> {
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "5",
            description = "Measured seconds per cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "2",
            description = "Warm-up seconds per cell, not measured (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--clients", paramLabel = "N[,N...]", hideParamSyntax = true, split = ",", defaultValue = "1,16,64",
            description = "Concurrent clients (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--workloads", paramLabel = "W[,W...]", hideParamSyntax = true, split = ",", defaultValue = "read,write,mixed",
            description = "Workloads: read, write, mixed (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--engines", paramLabel = "E[,E...]", hideParamSyntax = true, split = ",", defaultValue = "strata,rocksdb",
            description = "Engines: strata, rocksdb, and durable strata-fsync, strata-os, strata-ssd, rocksdb-sync (default: ${DEFAULT-VALUE}).")
    List<String> engines;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "" + Dataset.DEFAULT_KEYS,
            description = "Keys loaded before each cell, 16 bytes each (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "" + Dataset.DEFAULT_VALUE_BYTES,
            description = "Bytes per value (default: ${DEFAULT-VALUE}).")
    int valueBytes;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for " + EngineScenario.CSV_FILE + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<Workload> selected = validate();
        PrintWriter o = spec.commandLine().getOut();
        EngineTable table = new EngineTable(o, engines);
        o.printf("strata bench engine: %,d keys of 16 B with %d B values; %s s warm-up + %s s measured per cell; %s%n",
                keys, valueBytes, warmup, seconds, BenchConsole.machine());
        o.println("rocksdb = OptimisticTransactionDB, WAL disabled, sync=false, defaults otherwise; strata = in memory, no latency model.");
        o.println("durable: strata-fsync = Strata.open, fsync per batch; strata-os = OS-buffered log; strata-ssd = Storage.SSD, fsync per batch; rocksdb-sync = WAL on, sync=true.");
        o.println();
        table.header();
        o.flush();
        EngineScenario scenario = new EngineScenario(selected, engines, clients, keys, valueBytes,
                BenchArgs.duration(warmup), BenchArgs.duration(seconds));
        List<RunResult> results = scenario.run(out, table::row);
        BenchConsole.wrote(o, out.resolve(EngineScenario.CSV_FILE).toString());
        return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
    }

    private List<Workload> validate() {
        BenchArgs.requireTiming(spec, seconds, warmup);
        BenchArgs.requireCounts(spec, clients, 4096, "--clients must be between 1 and 4096");
        BenchArgs.requireKnown(spec, engines, KvPeer.NAMES, "engine");
        List<Workload> selected = BenchArgs.parseEach(spec, workloads, Workload::of);
        if (keys < 1 || valueBytes < 0) {
            throw BenchArgs.usage(spec, "--keys must be >= 1 and --value-bytes >= 0");
        }
        return selected;
    }
}
