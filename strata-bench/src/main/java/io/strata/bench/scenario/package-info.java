/**
 * Whole-scenario benchmarks (not JMH): plain client threads timed with {@link System#nanoTime()},
 * latencies in HdrHistogram, run for a fixed time per engine and client count. Behind
 * {@code strata bench engine}; see {@link io.strata.bench.scenario.EngineScenario}.
 */
package io.strata.bench.scenario;
