package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.util.Objects;

/**
 * The key layout of one mutex and the transactional steps on it, shared by the clients
 * ({@link DistributedMutex}) and the janitor ({@link MutexJanitor}). Every method works inside
 * the caller's transaction and blocks on its reads: callers run it in {@code db.run}, so a
 * check and the change it decides are always one transaction. The layout and the correctness
 * argument are in {@link DistributedMutex}'s class Javadoc.
 */
final class MutexState {
    /** The owner of a mutex never acquired: free, last token 0, so the first grant gets 1. */
    static final MutexOwner NEVER_HELD = new MutexOwner("", 0);

    private final byte[] ownerKey;
    private final byte[] beatKey;
    final WaitQueue queue;

    MutexState(Subspace subspace) {
        Objects.requireNonNull(subspace);
        this.ownerKey = subspace.pack(Tuple.from("owner"));
        this.beatKey = subspace.pack(Tuple.from("beat"));
        this.queue = new WaitQueue(subspace);
    }

    byte[] ownerKey() {
        return ownerKey;
    }

    byte[] beatKey() {
        return beatKey;
    }

    static MutexOwner decodeOwner(byte[] value) {
        if (value == null) {
            return NEVER_HELD;
        }
        Tuple t = Tuple.fromBytes(value);
        return new MutexOwner(t.getString(0), t.getLong(1));
    }

    static byte[] encodeOwner(String name, long token) {
        return Tuple.from(name, token).pack();
    }

    static boolean isFree(MutexOwner owner) {
        return owner.name().isEmpty();
    }

    /** The owner, read serializably: a concurrent grant or release aborts the caller's transaction. */
    MutexOwner owner(ReadTransaction tr) {
        return decodeOwner(tr.get(ownerKey).join());
    }

    /** Makes {@code name} the owner with {@code token}. */
    void grant(Transaction tr, String name, long token) {
        tr.set(ownerKey, encodeOwner(name, token));
    }

    /**
     * Hands the lock on from a holder whose token was {@code lastToken}: to the head of the
     * queue with {@code lastToken + 1} (its queue entry and ticket cleared, which wakes it), or,
     * with an empty queue, to nobody (the free owner value keeps {@code lastToken}, so tokens
     * keep increasing). The head is read serializably ({@link WaitQueue#head}).
     *
     * @return the new owner's name, or null when the lock is now free
     */
    String handOn(Transaction tr, long lastToken) {
        WaitQueue.Waiter head = queue.head(tr);
        if (head == null) {
            grant(tr, "", lastToken);
            return null;
        }
        queue.pop(tr, head);
        grant(tr, head.name(), lastToken + 1);
        return head.name();
    }

    /** The heartbeat of {@code name}'s grant with {@code token}: beats while the owner key still names that grant. */
    Heartbeat heartbeat(Database db, String name, long token) {
        return new Heartbeat(db, ownerKey, value -> {
            MutexOwner owner = decodeOwner(value);
            return owner.name().equals(name) && owner.token() == token;
        }, beatKey, token);
    }
}
