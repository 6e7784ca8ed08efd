/**
 * {@code strata bench mutex}: the distributed mutex ({@link io.strata.layers.mutex.DistributedMutex})
 * under contention — acquisitions per second and the hand-off latency from a release to the
 * next owner — at each contender count, on the embedded engine.
 *
 * <p>{@link io.strata.bench.mutex.MutexRunner} measures one cell;
 * {@link io.strata.bench.mutex.MutexScenario} runs the cells and writes the CSV and the charts.
 * Depends on strata-layers, the engine's public entry point ({@code io.strata.Strata}) and
 * the shared closed-loop runner; never on {@code com.apple.foundationdb.FDB}.
 */
package io.strata.bench.mutex;
