/**
 * The {@code strata} command ({@link io.strata.cli.StrataCli}), one picocli subcommand per
 * sub-package: {@code bench}, {@code shell} (the {@code cli} command). Commands parse and print;
 * the work they start lives in the modules they call (the benchmarks in strata-bench).
 * {@link io.strata.cli.ClusterDatabase} is the one door to a real FoundationDB cluster.
 */
package io.strata.cli;
