/**
 * A distributed mutex on FoundationDB (seed 003): FIFO queue in commit order, heartbeats, a
 * janitor that hands the lock on when its owner stops heartbeating, fencing tokens, and
 * waiters that sleep on watches. Depends on fdb-java only.
 *
 * <p>{@link io.strata.layers.mutex.DistributedMutex} is one client (one name);
 * {@link io.strata.layers.mutex.MutexJanitor} is the background service, run by any process.
 * Key layout, under the subspace of one mutex:
 * <pre>
 * ("owner")               -&gt; (name, token)      name "" = free; token = last granted
 * ("beat")                -&gt; (token, sequence)  the owner's heartbeat
 * ("queue", versionstamp) -&gt; name              waiters in commit order
 * ("ticket", name)        -&gt; empty             name is queued; the key its waiter watches
 * </pre>
 */
package io.strata.layers.mutex;
