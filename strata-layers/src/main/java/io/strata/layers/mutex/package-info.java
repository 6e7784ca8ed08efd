/**
 * A distributed mutex on FoundationDB (seed 003) and a counting semaphore on the same design:
 * a FIFO queue in commit order, heartbeats, janitors that hand a lock on when its holder stops
 * heartbeating, fencing tokens, and waiters that sleep on watches. Depends on fdb-java only.
 *
 * <p>{@link io.strata.layers.mutex.DistributedMutex} is one client (one name) of a mutex;
 * {@link io.strata.layers.mutex.MutexJanitor} is its background service, run by any process.
 * {@link io.strata.layers.mutex.DistributedSemaphore} and
 * {@link io.strata.layers.mutex.SemaphoreJanitor} are the same for N holders. Package-private:
 * the queue ({@code WaitQueue}), the waiting loop ({@code Acquisition}), heartbeats
 * ({@code Heartbeat}) and a client's current grant ({@code HeldGrant}), the janitors'
 * staleness test and schedule ({@code StalenessTracker}, {@code JanitorSchedule}), and the key
 * layouts ({@code MutexState}, {@code SemaphoreKeys}).
 *
 * <p>Key layouts, under the subspace of one lock:
 * <pre>
 * mutex
 *   ("owner")               -&gt; (name, token)      name "" = free; token = last granted
 *   ("beat")                -&gt; (token, sequence)  the owner's heartbeat
 * semaphore
 *   ("holder", name)        -&gt; (token)            name holds a permit
 *   ("last")                -&gt; (token)            last token granted
 *   ("beat", name)          -&gt; (token, sequence)  name's heartbeat
 * both
 *   ("queue", versionstamp) -&gt; name              waiters in commit order
 *   ("ticket", name)        -&gt; empty             name is queued; the key its waiter watches
 * </pre>
 */
package io.strata.layers.mutex;
