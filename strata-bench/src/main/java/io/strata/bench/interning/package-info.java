/**
 * {@code strata bench interning}: the string interner ({@link io.strata.layers.interning.StringInterner})
 * with each ID allocator — new strings interned per second, lookups of known strings per
 * second, conflicts per interned string — at each batch size and client count.
 *
 * <p>{@link io.strata.bench.interning.InternerRegistry} names the contenders;
 * {@link io.strata.bench.interning.InterningScenario} runs the cells
 * ({@link io.strata.bench.interning.InterningRunner}) and writes the CSV and charts with
 * {@link io.strata.bench.report.SvgLineChart}. Depends on fdb-java's interfaces,
 * strata-layers and the engine's public entry point.
 */
package io.strata.bench.interning;
