package io.strata.bench.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Checks of benchmark arguments that several {@code strata bench} commands share: strata-cli's
 * and strata-bench-records' (a command line of its own, in a JVM of its own). Each failure is a
 * {@link ParameterException}, which picocli reports with the usage exit code 2 before any cell
 * runs or any file is written.
 */
public final class BenchArgs {
    /** The engine latency settings a command may name: full speed, or cluster-like latency. */
    public static final List<String> LATENCIES = List.of("none", "cluster");

    private BenchArgs() {}

    public static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code --seconds} must be positive and {@code --warmup} not negative (NaN fails both). */
    public static void requireTiming(CommandSpec spec, double seconds, double warmup) {
        if (!(seconds > 0) || !(warmup >= 0)) {
            throw usage(spec, "--seconds must be > 0 and --warmup >= 0");
        }
    }

    /** {@code value} of {@code option} is 0 or more (NaN fails). */
    public static void requireNotNegative(CommandSpec spec, double value, String option) {
        if (!(value >= 0)) {
            throw usage(spec, option + " must be >= 0");
        }
    }

    /** Every one of {@code counts} (of which there must be some) is between 1 and {@code max}. */
    public static void requireCounts(CommandSpec spec, List<Integer> counts, int max, String message) {
        if (counts.isEmpty() || counts.stream().anyMatch(c -> c < 1 || c > max)) {
            throw usage(spec, message);
        }
    }

    /** Every one of {@code latencies} is one of {@link #LATENCIES}. */
    public static void requireLatencies(CommandSpec spec, List<String> latencies) {
        for (String l : latencies) {
            if (!LATENCIES.contains(l)) {
                throw usage(spec, "unknown latency: " + l + " [none, cluster]");
            }
        }
    }

    /** Every one of {@code chosen} is in {@code known}; the message names the first that is not, as a {@code what}. */
    public static void requireKnown(CommandSpec spec, List<String> chosen, Collection<String> known, String what) {
        for (String c : chosen) {
            if (!known.contains(c)) {
                throw usage(spec, "unknown " + what + ": " + c + " " + known);
            }
        }
    }

    /** {@code values} parsed one by one; a parser's {@link IllegalArgumentException} becomes the usage error. */
    public static <T> List<T> parseEach(CommandSpec spec, List<String> values, Function<String, T> parser) {
        List<T> parsed = new ArrayList<>();
        for (String v : values) {
            try {
                parsed.add(parser.apply(v));
            } catch (IllegalArgumentException e) {
                throw usage(spec, e.getMessage());
            }
        }
        return parsed;
    }

    /** {@code seconds} as a duration, to the millisecond. */
    public static Duration duration(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
