package io.strata.layers.mutex;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The key layout of one mutex and the transactional steps on it, shared by the clients
 * ({@link DistributedMutex}) and the janitor ({@link MutexJanitor}). Every method works inside
 * the caller's transaction and blocks on its reads: callers run it in {@code db.run}, so a
 * check and the change it decides are always one transaction. The layout and the correctness
 * argument are in {@link DistributedMutex}'s class Javadoc.
 */
final class MutexState {
    /** The tuple type code of a 96-bit versionstamp. */
    private static final byte VERSIONSTAMP_CODE = 0x33;
    private static final byte[] EMPTY = new byte[0];
    /** The owner of a mutex never acquired: free, last token 0, so the first grant gets 1. */
    static final MutexOwner NEVER_HELD = new MutexOwner("", 0);

    private final Subspace subspace;
    private final byte[] ownerKey;
    private final byte[] beatKey;
    private final Subspace queue;
    private final Subspace tickets;
    /** The queue key with a 10-byte placeholder and user version 0, plus the placeholder's offset, for SET_VERSIONSTAMPED_KEY. */
    private final byte[] stampedQueueKey;

    MutexState(Subspace subspace) {
        this.subspace = Objects.requireNonNull(subspace);
        this.ownerKey = subspace.pack(Tuple.from("owner"));
        this.beatKey = subspace.pack(Tuple.from("beat"));
        this.queue = subspace.get("queue");
        this.tickets = subspace.get("ticket");
        this.stampedQueueKey = stampedKey(queue.getKey());
    }

    /**
     * {@code prefix || 0x33 || 10 placeholder bytes || user version 0 (2 bytes) || offset}: the
     * tuple encoding of an incomplete versionstamp appended to {@code prefix}, in the API 520+
     * parameter format (a 4-byte little-endian offset of the placeholder), built by hand because
     * {@code Tuple.packWithVersionstamp} loads the native client to learn the API version.
     */
    private static byte[] stampedKey(byte[] prefix) {
        int offset = prefix.length + 1;
        byte[] key = new byte[prefix.length + 1 + 12 + 4];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        key[prefix.length] = VERSIONSTAMP_CODE;
        key[key.length - 4] = (byte) offset;
        key[key.length - 3] = (byte) (offset >>> 8);
        key[key.length - 2] = (byte) (offset >>> 16);
        key[key.length - 1] = (byte) (offset >>> 24);
        return key;
    }

    Subspace subspace() {
        return subspace;
    }

    byte[] ownerKey() {
        return ownerKey;
    }

    byte[] beatKey() {
        return beatKey;
    }

    byte[] ticketKey(String name) {
        return tickets.pack(Tuple.from(name));
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
     * keep increasing). The head is read serializably, so an enqueue that commits first aborts
     * this transaction instead of being stranded behind a free lock.
     *
     * @return the new owner's name, or null when the lock is now free
     */
    String handOn(Transaction tr, long lastToken) {
        List<KeyValue> head = tr.getRange(queue.range(), 1).asList().join();
        if (head.isEmpty()) {
            grant(tr, "", lastToken);
            return null;
        }
        String next = new String(head.get(0).getValue(), StandardCharsets.UTF_8);
        tr.clear(head.get(0).getKey());
        tr.clear(ticketKey(next));
        grant(tr, next, lastToken + 1);
        return next;
    }

    /** Whether the queue is empty, read serializably (a concurrent enqueue conflicts). */
    boolean queueIsEmpty(Transaction tr) {
        return tr.getRange(queue.range(), 1).asList().join().isEmpty();
    }

    /** The ticket of {@code name}, read serializably: present (empty bytes) while it is queued, else null. */
    byte[] ticket(Transaction tr, String name) {
        return tr.get(ticketKey(name)).join();
    }

    /**
     * Appends {@code name} to the queue: a key whose suffix is this transaction's commit
     * versionstamp (so the queue is in commit order) holding the name, and the name's ticket.
     * The caller has read the ticket absent in this transaction.
     */
    void enqueue(Transaction tr, String name) {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stampedQueueKey, name.getBytes(StandardCharsets.UTF_8));
        tr.set(ticketKey(name), EMPTY);
    }

    /**
     * Removes {@code name}'s queue entry and ticket, if any. Scans the queue (it holds at most
     * one entry per client): only cancellations and timeouts come here, never the hot path.
     */
    void dequeue(Transaction tr, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (KeyValue kv : tr.getRange(queue.range()).asList().join()) {
            if (java.util.Arrays.equals(kv.getValue(), wanted)) {
                tr.clear(kv.getKey());
            }
        }
        tr.clear(ticketKey(name));
    }

    /** The versionstamp of {@code name}'s queue entry, by a snapshot read (no conflict); null if absent. */
    Versionstamp queuedAt(Transaction tr, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (KeyValue kv : tr.snapshot().getRange(queue.range()).asList().join()) {
            if (java.util.Arrays.equals(kv.getValue(), wanted)) {
                return queue.unpack(kv.getKey()).getVersionstamp(0);
            }
        }
        return null;
    }

    /** The queued client names, head first. */
    List<String> queue(ReadTransaction tr) {
        List<String> names = new ArrayList<>();
        for (KeyValue kv : tr.getRange(queue.range()).asList().join()) {
            names.add(new String(kv.getValue(), StandardCharsets.UTF_8));
        }
        return names;
    }
}
