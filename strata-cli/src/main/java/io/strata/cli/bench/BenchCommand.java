package io.strata.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code strata bench}: groups the scenario benchmarks. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run a whole-scenario benchmark (JMH microbenchmarks: see strata-bench).",
        subcommands = {BenchEngineCommand.class, BenchFsyncCommand.class, BenchRecoveryCommand.class,
                BenchAllocatorsCommand.class, BenchInterningCommand.class, BenchSetsCommand.class,
                BenchMutexCommand.class, BenchRecordsCommand.class, BenchRedisCommand.class, BenchSsdCommand.class,
                BenchMemoryCommand.class, BenchStoresCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
