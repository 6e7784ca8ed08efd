/** {@code strata bench}: whole-scenario benchmarks run from the command line. */
package io.strata.cli.bench;
