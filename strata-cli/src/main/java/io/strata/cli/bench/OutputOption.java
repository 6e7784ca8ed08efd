package io.strata.cli.bench;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --out DIR}, shared as a picocli mixin by the benchmarks that write a CSV and charts
 * into one directory (created when missing).
 */
final class OutputOption {
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
            description = "Directory for the CSV and the charts (default: ${DEFAULT-VALUE}).")
    Path out;
}
