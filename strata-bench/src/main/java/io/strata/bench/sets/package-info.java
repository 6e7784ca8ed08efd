/**
 * {@code strata bench sets}: the {@link io.strata.layers.set.RoaringSet} layer's bulk load
 * and its set algebra ({@code and}, {@code or}, {@code andNot}, {@code xor}) over dense and
 * sparse sets of growing size ({@link io.strata.bench.sets.SetsScenario} writes
 * {@code sets.csv} and the charts). Depends on strata-layers, the engine's public entry
 * points and the shared {@link io.strata.bench.report.SvgLineChart}.
 */
package io.strata.bench.sets;
