/**
 * {@code strata bench allocators}: prefix allocators ({@link io.strata.layers.allocator.PrefixAllocator})
 * under concurrency — allocations per second, latency and conflicts at each client count —
 * after the experiment that motivated FoundationDB's High Contention Allocator: a naive
 * single counter stays near one allocation per commit latency however many clients run,
 * while the HCA grows with them.
 *
 * <p>{@link io.strata.bench.allocation.AllocatorRegistry} names the contenders;
 * {@link io.strata.bench.allocation.AllocationScenario} runs the cells and writes the CSV
 * and the charts ({@link io.strata.bench.report.SvgLineChart}). Depends on fdb-java's
 * interfaces, strata-layers and the engine's public entry points; never on
 * {@code com.apple.foundationdb.FDB}: a real cluster is opened by the caller and handed in
 * as a {@link io.strata.bench.allocation.DatabaseTarget}.
 */
package io.strata.bench.allocation;
