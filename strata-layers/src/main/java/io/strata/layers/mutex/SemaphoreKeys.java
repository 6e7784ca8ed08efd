package io.strata.layers.mutex;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

/**
 * The key layout of one {@link DistributedSemaphore} and the grant and hand-on steps shared
 * by its clients and its janitor ({@link SemaphoreJanitor}). Methods work inside the caller's
 * transaction and block on their reads.
 */
final class SemaphoreKeys {
    final Subspace holders;
    final Subspace beats;
    final byte[] lastKey;
    final WaitQueue queue;

    SemaphoreKeys(Subspace subspace) {
        this.holders = subspace.get("holder");
        this.beats = subspace.get("beat");
        this.lastKey = subspace.pack(Tuple.from("last"));
        this.queue = new WaitQueue(subspace);
    }

    /** Whether {@code value}, a holder key's value (null: absent), is the grant with {@code token}. */
    static boolean isGrant(byte[] value, long token) {
        return value != null && Tuple.fromBytes(value).getLong(0) == token;
    }

    /** Gives {@code who} a permit with the next token: reads and bumps {@code ("last")} serializably. */
    static long grant(Transaction tr, Subspace holders, byte[] lastKey, String who) {
        byte[] last = tr.get(lastKey).join();
        long token = (last == null ? 0 : Tuple.fromBytes(last).getLong(0)) + 1;
        tr.set(lastKey, Tuple.from(token).pack());
        tr.set(holders.pack(Tuple.from(who)), Tuple.from(token).pack());
        return token;
    }

    /**
     * {@code who} no longer holds its permit (its holder and beat keys are cleared); the permit
     * goes to the head of the queue, read serializably, if there is one.
     */
    static void handOn(Transaction tr, Subspace holders, Subspace beats, byte[] lastKey, WaitQueue queue, String who) {
        tr.clear(holders.pack(Tuple.from(who)));
        tr.clear(beats.pack(Tuple.from(who)));
        WaitQueue.Waiter head = queue.head(tr);
        if (head != null) {
            queue.pop(tr, head);
            grant(tr, holders, lastKey, head.name());
        }
    }
}
