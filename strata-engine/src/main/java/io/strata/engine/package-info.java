/**
 * The embedded engine. {@link io.strata.engine.Engine} wires the server side: {@code store}
 * (MVCC window), {@code resolver} (conflict history), {@code commit} (the sequencer),
 * {@code mutation} (atomic operations and versionstamps), {@code version} (the clock),
 * {@code watch}, {@code fault} (injected faults and latency), {@code cluster} (what the engine
 * reports as a FoundationDB cluster would: its process, workload, shard map and status
 * document). {@code client} implements
 * fdb-java's {@code Database} and {@code Transaction} on top of it. Users see only fdb-java's
 * interfaces and {@link io.strata.Strata}.
 */
package io.strata.engine;
