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
import java.util.Arrays;
import java.util.List;

/**
 * The FIFO queue of waiters shared by {@link DistributedMutex} and {@link DistributedSemaphore}:
 * <pre>
 *   ("queue", versionstamp) -&gt; name (UTF-8)   in commit order; the head is served next
 *   ("ticket", name)        -&gt; empty          present exactly while name has an entry
 * </pre>
 * Every method works inside the caller's transaction and blocks on its reads.
 */
final class WaitQueue {
    /** The tuple type code of a 96-bit versionstamp. */
    private static final byte VERSIONSTAMP_CODE = 0x33;
    private static final byte[] EMPTY = new byte[0];

    /** A queue entry: its key (to clear it) and the waiting client's name. */
    record Waiter(byte[] key, String name) {}

    private final Subspace queue;
    private final Subspace tickets;
    /**
     * A key inside the queue's range and after every entry (entries continue the prefix with the
     * versionstamp type code 0x33), never written: each enqueue puts a write conflict on it,
     * because FoundationDB gives a versionstamped key no write conflict range. A read that
     * finds the queue empty covers it, so it conflicts with an enqueue committed meanwhile; a
     * read that finds a head stops at the head and does not.
     */
    private final byte[] tail;
    /** The queue key with a 10-byte placeholder and user version 0, plus the placeholder's offset, for SET_VERSIONSTAMPED_KEY. */
    private final byte[] stampedKey;

    WaitQueue(Subspace subspace) {
        this.queue = subspace.get("queue");
        this.tickets = subspace.get("ticket");
        this.stampedKey = stampedKey(queue.getKey());
        byte[] prefix = queue.getKey();
        this.tail = Arrays.copyOf(prefix, prefix.length + 1);
        this.tail[prefix.length] = (byte) 0xFE;
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

    byte[] ticketKey(String name) {
        return tickets.pack(Tuple.from(name));
    }

    Subspace tickets() {
        return tickets;
    }

    /**
     * The head, read serializably (null when empty): when the queue is read empty, an enqueue
     * that commits after this read and before the caller commits aborts the caller (through
     * {@link #tail}), so a decision taken on an empty queue never strands a waiter.
     */
    Waiter head(Transaction tr) {
        List<KeyValue> head = tr.getRange(queue.range(), 1).asList().join();
        if (head.isEmpty()) {
            return null;
        }
        return new Waiter(head.get(0).getKey(), new String(head.get(0).getValue(), StandardCharsets.UTF_8));
    }

    /** Removes {@code w}'s entry and ticket; clearing the ticket wakes the waiter. */
    void pop(Transaction tr, Waiter w) {
        tr.clear(w.key());
        tr.clear(ticketKey(w.name()));
    }

    /** The ticket of {@code name}, read serializably: present (empty bytes) while it is queued, else null. */
    byte[] ticket(Transaction tr, String name) {
        return tr.get(ticketKey(name)).join();
    }

    /**
     * Appends {@code name}: a key whose suffix is this transaction's commit versionstamp (so the
     * queue is in commit order) holding the name, and the name's ticket. The caller has read
     * the ticket absent in this transaction, so a client never has two entries. The write
     * conflict on {@link #tail} makes a concurrent transaction that read the queue empty (a
     * release about to free the lock) abort rather than strand this waiter.
     */
    void enqueue(Transaction tr, String name) {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stampedKey, name.getBytes(StandardCharsets.UTF_8));
        tr.addWriteConflictKey(tail);
        tr.set(ticketKey(name), EMPTY);
    }

    /**
     * Removes {@code name}'s entry and ticket, if any. Scans the queue (at most one entry per
     * client): only cancellations and timeouts come here, never the hot path.
     */
    void remove(Transaction tr, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (KeyValue kv : tr.getRange(queue.range()).asList().join()) {
            if (Arrays.equals(kv.getValue(), wanted)) {
                tr.clear(kv.getKey());
            }
        }
        tr.clear(ticketKey(name));
    }

    /** The versionstamp of {@code name}'s entry, by a snapshot read (no conflict); null if absent. */
    Versionstamp position(Transaction tr, String name) {
        byte[] wanted = name.getBytes(StandardCharsets.UTF_8);
        for (KeyValue kv : tr.snapshot().getRange(queue.range()).asList().join()) {
            if (Arrays.equals(kv.getValue(), wanted)) {
                return queue.unpack(kv.getKey()).getVersionstamp(0);
            }
        }
        return null;
    }

    /** The queued client names, head first. */
    List<String> names(ReadTransaction tr) {
        List<String> names = new ArrayList<>();
        for (KeyValue kv : tr.getRange(queue.range()).asList().join()) {
            names.add(new String(kv.getValue(), StandardCharsets.UTF_8));
        }
        return names;
    }
}
