/**
 * The {@code strata} command ({@link io.strata.cli.StrataCli}), one picocli subcommand per
 * sub-package: {@code bench}. Commands parse and print; the work they start lives in the
 * modules they call (the benchmarks in strata-bench).
 */
package io.strata.cli;
