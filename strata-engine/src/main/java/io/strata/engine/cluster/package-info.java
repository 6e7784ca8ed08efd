/**
 * What the engine says about itself where FoundationDB's cluster would: the identity of its
 * one process ({@link io.strata.engine.cluster.ProcessInfo}), the workload it has served
 * ({@link io.strata.engine.cluster.Workload}, with the sequencer's
 * {@code commit.CommitCounters}), its shard map ({@link io.strata.engine.cluster.ShardMap},
 * served as {@code \xff/keyServers/}) and the status document of {@code \xff\xff/status/json}
 * ({@link io.strata.engine.cluster.StatusDocument}). Every value is measured from the running
 * engine. Depends on {@code store}, {@code commit}, {@code util}; the client side serves it.
 */
package io.strata.engine.cluster;
