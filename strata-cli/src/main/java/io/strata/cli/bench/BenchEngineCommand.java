package io.strata.cli.bench;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.KvPeer;
import io.strata.bench.scenario.EngineScenario;
import io.strata.bench.scenario.RunResult;
import io.strata.bench.scenario.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
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
            description = "Engines: strata, rocksdb, and durable strata-fsync, strata-os, rocksdb-sync (default: ${DEFAULT-VALUE}).")
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
        validate();
        List<Workload> selected = workloads.stream().map(Workload::of).toList();
        PrintWriter o = spec.commandLine().getOut();
        EngineTable table = new EngineTable(o, engines);
        o.printf("strata bench engine: %,d keys of 16 B with %d B values; %s s warm-up + %s s measured per cell; "
                        + "%d cores, Java %s%n", keys, valueBytes, warmup, seconds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        o.println("rocksdb = OptimisticTransactionDB, WAL disabled, sync=false, defaults otherwise; strata = in memory, no latency model.");
        o.println("durable: strata-fsync = Strata.open, fsync per batch; strata-os = OS-buffered log; rocksdb-sync = WAL on, sync=true.");
        o.println();
        table.header();
        o.flush();
        EngineScenario scenario = new EngineScenario(selected, engines, clients, keys, valueBytes,
                Duration.ofMillis(Math.round(warmup * 1000)), Duration.ofMillis(Math.round(seconds * 1000)));
        List<RunResult> results = scenario.run(out, table::row);
        o.println();
        o.println("wrote " + out.resolve(EngineScenario.CSV_FILE));
        o.flush();
        return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
    }

    private void validate() {
        if (!(seconds > 0) || !(warmup >= 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be > 0 and --warmup >= 0");
        }
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1 || c > 4096)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--clients must be between 1 and 4096");
        }
        for (String e : engines) {
            if (!KvPeer.NAMES.contains(e)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "unknown engine: " + e + " " + KvPeer.NAMES);
            }
        }
        for (String w : workloads) {
            try {
                Workload.of(w);
            } catch (IllegalArgumentException ex) {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
            }
        }
        if (keys < 1 || valueBytes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--keys must be >= 1 and --value-bytes >= 0");
        }
    }
}
