/**
 * Checks of benchmark command-line options, shared by strata-cli's {@code strata bench} commands
 * and strata-bench-records. Picocli and the JDK only: strata-bench-records uses this package on
 * strata-fdb's class path, so nothing here may reach a database class.
 */
package io.strata.bench.options;
