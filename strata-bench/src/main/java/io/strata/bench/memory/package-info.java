/**
 * {@code strata bench memory}: heap bytes per key-value pair that Strata's memory storage
 * engine holds once the 5-second MVCC window has passed (issue 18's compact store: 160 bytes or
 * less for a 16-byte key and a 100-byte value), in memory and durable, against a bare
 * {@code ConcurrentSkipListMap} holding the same pairs.
 *
 * <p>{@link io.strata.bench.memory.MemoryScenario} runs the rows and writes the CSV; each row is
 * one {@code MemoryRunner} measurement of one {@code MemoryTarget}, weighed by
 * {@code HeapGauge} (used heap after full collections). Depends on fdb-java's interfaces and
 * the engine's public entry point ({@code io.strata.Strata}) only, never on engine internals,
 * so it measures whatever store the engine has.
 */
package io.strata.bench.memory;
