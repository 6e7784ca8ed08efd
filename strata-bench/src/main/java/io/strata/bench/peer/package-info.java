/**
 * The engines a benchmark compares, behind one small interface so that each benchmark
 * takes the engine as a parameter and one run gives the ratio.
 *
 * <p>{@link io.strata.bench.peer.StrataPeer} is Strata in memory through fdb-java's
 * {@code Database}; {@link io.strata.bench.peer.RocksDbPeer} is RocksDB's
 * {@code OptimisticTransactionDB}, configured as its Javadoc states. Each operation of a
 * {@link io.strata.bench.peer.KvSession} is what an application would write for it with that
 * engine's own API.
 */
package io.strata.bench.peer;
