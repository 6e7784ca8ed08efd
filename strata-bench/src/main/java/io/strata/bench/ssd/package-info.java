/**
 * {@code strata bench ssd}: Strata's disk storage engine ({@link io.strata.Storage#SSD}) on data
 * larger than the heap, against RocksDB alone on the same data, cache and loader shape; its
 * recovery after {@code kill -9} mid-load; and its in-window speed against Strata in memory.
 * See {@link io.strata.bench.ssd.SsdScenario}.
 */
package io.strata.bench.ssd;
