package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One list key, read or changed inside one transaction. Its metadata's payload is the list's
 * object id followed by a {@link ListHeader} (first position, length); its elements are keyed
 * by position under the object ({@link ListElements}), contiguous from the head. So:
 * LLEN reads the metadata only; LINDEX, LSET and the start of LRANGE go straight to a position;
 * a push or pop at either end writes or clears the end positions and the header; LINSERT and
 * LREM in the middle move the elements of the shorter side by rewriting them (O(n), as in
 * Redis); LTRIM clears two ranges.
 *
 * <p>Indexes here are 0-based from the head and already checked by the caller. Changes are
 * written as they are made; {@link #save} writes the header (and the change stamp, through
 * {@code KeyStore.put}) or deletes the key when the list became empty, as Redis never keeps an
 * empty list. Call it once after the last change.
 *
 * <p>Concurrency: every read and write goes through the caller's transaction, so a command is
 * atomic and two commands changing one list conflict on its metadata (one retries).
 *
 * <p>Limits: a command is one transaction, so one that reads or rewrites very many elements
 * (LRANGE of a whole long list, LINSERT or LREM deep inside one) is bounded by FoundationDB's
 * transaction limits (5 seconds, 10 MB of writes) where Redis has none.
 */
final class ListValue {
    private final ReadTransaction reader;
    private final Transaction tr;
    private final KeyStore keys;
    private final int db;
    private final byte[] key;
    /** The metadata read; null for a list this transaction creates. */
    private final KeyMeta old;
    private final byte[] objectId;
    private final ListElements elements;
    private long head;
    private long length;
    private boolean changed;

    private ListValue(ReadTransaction reader, Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] objectId,
                      ListHeader header) {
        this.reader = reader;
        this.tr = tr;
        this.keys = keys;
        this.db = db;
        this.key = key;
        this.old = old;
        this.objectId = objectId;
        this.elements = new ListElements(keys.keyspace().object(db, objectId).getKey());
        this.head = header.head();
        this.length = header.length();
    }

    /** The list at {@code key} for reading; null if absent; WRONGTYPE if another type. */
    static CompletableFuture<ListValue> read(ReadTransaction tr, KeyStore keys, int db, byte[] key, long now) {
        return keys.get(tr, db, key, now, RedisType.LIST).thenApply(m -> m == null ? null : of(tr, null, keys, db, key, m));
    }

    /** The list at {@code key} for changing; null if absent; WRONGTYPE if another type. */
    static CompletableFuture<ListValue> forWrite(Transaction tr, KeyStore keys, int db, byte[] key, long now) {
        return keys.getForWrite(tr, db, key, now, RedisType.LIST).thenApply(m -> m == null ? null : of(tr, tr, keys, db, key, m));
    }

    /** The list described by {@code meta} (already read and checked to be a list), for changing. */
    static ListValue of(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta) {
        return of(tr, tr, keys, db, key, meta);
    }

    private static ListValue of(ReadTransaction reader, Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta m) {
        return new ListValue(reader, tr, keys, db, key, m, ObjectRef.id(m), ListHeader.decode(ObjectRef.header(m)));
    }

    /** The list described by {@code meta} (already read and checked to be a list), for reading only. */
    static ListValue reading(ReadTransaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta) {
        return of(tr, null, keys, db, key, meta);
    }

    /** Every element, head to tail. */
    CompletableFuture<List<byte[]>> all() {
        return length == 0 ? CompletableFuture.completedFuture(List.of()) : range(0, length - 1, false);
    }

    /**
     * Replaces {@code key} (whose metadata is {@code old}, of any type, or null) with a new list
     * of {@code values} (not empty) and no expiry: SORT ... STORE.
     */
    static CompletableFuture<Void> store(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, List<byte[]> values) {
        return keys.newObjectId(tr).thenAccept(id -> {
            ListElements elements = new ListElements(keys.keyspace().object(db, id).getKey());
            for (int i = 0; i < values.size(); i++) {
                elements.write(tr, i, values.get(i));
            }
            byte[] header = new ListHeader(0, values.size()).encode();
            keys.put(tr, db, key, old, new KeyMeta(RedisType.LIST, KeyMeta.OBJECT, 0, ObjectRef.payload(id, header)));
        });
    }

    /** A new, empty list for {@code key}, which holds nothing; it exists once {@link #save}d with elements. */
    static CompletableFuture<ListValue> create(Transaction tr, KeyStore keys, int db, byte[] key) {
        return keys.newObjectId(tr).thenApply(id -> new ListValue(tr, tr, keys, db, key, null, id, ListHeader.EMPTY));
    }

    /** The list at {@code key} for pushing: the existing one, or a new one if absent. */
    static CompletableFuture<ListValue> forPush(Transaction tr, KeyStore keys, int db, byte[] key, long now) {
        return forWrite(tr, keys, db, key, now).thenCompose(l -> l != null ? CompletableFuture.completedFuture(l) : create(tr, keys, db, key));
    }

    long length() {
        return length;
    }

    byte[] key() {
        return key;
    }

    /** Element {@code index}. */
    CompletableFuture<byte[]> get(long index) {
        return elements.get(reader, head + index);
    }

    /** Elements {@code from} to {@code to}, both included, head to tail (or tail to head if {@code reverse}). */
    CompletableFuture<List<byte[]>> range(long from, long to, boolean reverse) {
        return elements.read(reader, head + from, head + to + 1, reverse);
    }

    /** Receives elements with their index; returns false to stop. */
    @FunctionalInterface
    interface IndexVisitor {
        boolean visit(long index, byte[] value);
    }

    /** Visits the elements from the head (or from the tail if {@code fromTail}) until the visitor stops. */
    CompletableFuture<Void> scan(boolean fromTail, IndexVisitor visitor) {
        return elements.scan(reader, head, head + length, fromTail, (pos, value) -> visitor.visit(pos - head, value));
    }

    void push(boolean left, byte[] value) {
        if (left) {
            head--;
            elements.write(tr, head, value);
        } else {
            elements.write(tr, head + length, value);
        }
        length++;
        changed = true;
    }

    /** Removes up to {@code count} elements from one end; returns them in the order they were popped. */
    CompletableFuture<List<byte[]>> pop(boolean left, long count) {
        long n = Math.min(count, length);
        long from = left ? head : head + length - n;
        long to = from + n;
        return elements.read(tr, from, to, !left).thenApply(values -> {
            elements.clear(tr, from, to);
            if (left) {
                head += n;
            }
            length -= n;
            changed = true;
            return values;
        });
    }

    /** Replaces element {@code index}. */
    void set(long index, byte[] value) {
        long pos = head + index;
        elements.clear(tr, pos, pos + 1);
        elements.write(tr, pos, value);
        changed = true;
    }

    /** Keeps elements {@code from} to {@code to} (both included, {@code 0 <= from}); nothing if {@code from > to}. */
    void trim(long from, long to) {
        if (from > to || from >= length) {
            elements.clear(tr, head, head + length);
            length = 0;
        } else {
            long last = Math.min(to, length - 1);
            elements.clear(tr, head, head + from);
            elements.clear(tr, head + last + 1, head + length);
            head += from;
            length = last - from + 1;
        }
        // Redis signals the key even when nothing was trimmed.
        changed = true;
    }

    /** Inserts {@code value} so that it becomes element {@code index} ({@code 0 <= index <= length}). */
    CompletableFuture<Void> insert(long index, byte[] value) {
        boolean moveFront = index <= length - index;
        long from = moveFront ? head : head + index;
        long to = moveFront ? head + index : head + length;
        return elements.read(tr, from, to, false).thenAccept(moved -> {
            elements.clear(tr, from, to);
            long shift = moveFront ? -1 : 1;
            for (int i = 0; i < moved.size(); i++) {
                elements.write(tr, from + i + shift, moved.get(i));
            }
            if (moveFront) {
                head--;
            }
            elements.write(tr, head + index, value);
            length++;
            changed = true;
        });
    }

    /**
     * Removes the elements at {@code indexes} (ascending, distinct, not empty), closing the gaps
     * from whichever side moves fewer elements: the part after the first removed one moves
     * towards the head, or the part before the last removed one towards the tail.
     */
    CompletableFuture<Void> remove(List<Long> indexes) {
        long first = indexes.get(0);
        long last = indexes.get(indexes.size() - 1);
        boolean keepHead = length - first <= last + 1;
        long fromIndex = keepHead ? first : 0;
        long toIndex = keepHead ? length : last + 1;
        return elements.read(tr, head + fromIndex, head + toIndex, false).thenAccept(values -> {
            List<byte[]> kept = new ArrayList<>(values.size());
            int r = 0;
            for (int i = 0; i < values.size(); i++) {
                long index = fromIndex + i;
                if (r < indexes.size() && indexes.get(r) == index) {
                    r++;
                } else {
                    kept.add(values.get(i));
                }
            }
            elements.clear(tr, head + fromIndex, head + toIndex);
            long removed = indexes.size();
            long start = keepHead ? head + fromIndex : head + toIndex - kept.size();
            for (int i = 0; i < kept.size(); i++) {
                elements.write(tr, start + i, kept.get(i));
            }
            if (!keepHead) {
                head += removed;
            }
            length -= removed;
            changed = true;
        });
    }

    /**
     * Saves as {@link #save()}, then publishes the list {@code events} (in order) and, when the
     * list became empty and its key was deleted, {@code del}: the events Redis's list
     * commands emit after a change.
     */
    void save(String... events) {
        boolean deleted = save();
        for (String event : events) {
            keys.events().publish(tr, NotifyKeyspaceEvents.LIST, event, db, key);
        }
        if (deleted) {
            keys.events().publish(tr, NotifyKeyspaceEvents.GENERIC, "del", db, key);
        }
    }

    /** Writes the list's new header, or deletes the key if the list is empty now; true if it deleted the key. */
    boolean save() {
        if (!changed) {
            return false;
        }
        if (length == 0) {
            if (old != null) {
                keys.delete(tr, db, key, old);
                return true;
            }
            return false;
        }
        byte[] header = new ListHeader(head, length).encode();
        KeyMeta meta = old == null
                ? new KeyMeta(RedisType.LIST, KeyMeta.OBJECT, 0, ObjectRef.payload(objectId, header))
                : ObjectRef.withHeader(old, header);
        keys.put(tr, db, key, old, meta);
        return false;
    }
}
