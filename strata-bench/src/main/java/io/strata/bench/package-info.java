/**
 * Shared benchmark machinery: the data set ({@code data}), the engines compared
 * ({@code peer}: Strata and RocksDB behind one small interface), the whole-scenario
 * runner behind {@code strata bench engine} ({@code scenario}), and what the scenarios write
 * ({@code report}: the CSV of results and SVG charts).
 *
 * <p>The JMH benchmarks themselves live in packages that mirror the engine's
 * ({@code io.strata.engine.store}, {@code .commit}, {@code .resolver}, {@code io.strata.engine}),
 * so the benchmark of a component sits where a reader of that component looks for it.
 */
package io.strata.bench;
