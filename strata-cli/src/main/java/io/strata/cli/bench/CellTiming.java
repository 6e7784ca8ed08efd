package io.strata.cli.bench;

import io.strata.bench.options.BenchArgs;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.time.Duration;

/**
 * {@code --seconds N --warmup N} per cell with the common defaults (5 s measured after 1 s of
 * warm-up), shared as a picocli mixin. Benchmarks whose defaults or meaning differ declare
 * their own options and check them with {@link BenchArgs#requireTiming}.
 */
final class CellTiming {
    @Option(names = "--seconds", paramLabel = "N", defaultValue = "5",
            description = "Measured seconds per cell (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
            description = "Warm-up seconds per cell, not measured (default: ${DEFAULT-VALUE}).")
    double warmup;

    /** Rejects a measured time that is not positive or a negative warm-up, as a usage error. */
    void validate(CommandSpec spec) {
        BenchArgs.requireTiming(spec, seconds, warmup);
    }

    Duration warmupDuration() {
        return BenchArgs.duration(warmup);
    }

    Duration measureDuration() {
        return BenchArgs.duration(seconds);
    }
}
