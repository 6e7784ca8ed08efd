package io.strata.layers.mutex;

import com.apple.foundationdb.tuple.Versionstamp;

/**
 * What an acquisition returns: the fencing token of the grant and, when the caller waited in
 * the queue, the versionstamp of its queue entry.
 *
 * <p>Pass {@link #token()} with every write to the guarded resource; the resource keeps the
 * largest token it has accepted and refuses smaller ones, so an owner that lost the lock while
 * paused cannot overwrite its successor's work. On FoundationDB itself, a write can instead be
 * fenced in its own transaction with {@link DistributedMutex#holds} (or
 * {@link DistributedSemaphore#holds}).
 *
 * @param token    the fencing token, larger than every token granted before on this mutex
 * @param queuedAt the commit versionstamp of the transaction that queued the caller (queue order
 *                 is versionstamp order), or {@code null} when the lock was taken without waiting
 */
public record MutexGrant(long token, Versionstamp queuedAt) {
    /** Whether the lock came from the queue (handed on by a release, the janitor or a cancellation). */
    public boolean wasQueued() {
        return queuedAt != null;
    }
}
