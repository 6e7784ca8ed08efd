/**
 * What the scenario benchmarks write: the CSV of their results, one row as each cell is
 * measured ({@link io.strata.bench.report.CsvLog}), and self-contained SVG line charts
 * ({@link io.strata.bench.report.SvgLineChart}, with {@link io.strata.bench.report.ChartLines}
 * to turn results into its panels and lines).
 *
 * <p>Knows nothing of any scenario: the scenario packages ({@code allocation},
 * {@code interning}, {@code mutex}, {@code sets}, {@code scenario}) depend on it, never the
 * other way round. Depends on the JDK only.
 */
package io.strata.bench.report;
