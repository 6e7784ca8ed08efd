package io.strata.redis.commands;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The fields of one hash, stored one FoundationDB key per field under the hash's object
 * subspace, with the number of fields beside them.
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'k' db key           -&gt; KeyMeta: type hash, flag OBJECT, payload = object id (no header)
 * P 'o' db id 'd'        -&gt; removals: 8 bytes little-endian, ADDed by every command that
 *                           removes a field (its value is never read: it is a conflict key)
 * P 'o' db id 'f' field  -&gt; the field's value, raw
 * P 'o' db id 'i'        -&gt; while the hash is small: its fields in insertion order
 *                           (count u32, then per field: length u32 | field), all big-endian
 * P 'o' db id 'n'        -&gt; the number of fields: 8 bytes little-endian, changed by atomic ADD only
 * </pre>
 * The field name is appended raw: fields are in byte order (HSCAN resumes after a field) and
 * need no escaping, since nothing else in the object starts with {@code 'f'}.
 *
 * <h2>Small hashes keep insertion order</h2>
 * Redis keeps a hash of at most {@code hash-max-listpack-entries} fields (512), none of them and
 * no value longer than {@code hash-max-listpack-value} bytes (64), as a listpack: HGETALL,
 * HKEYS, HVALS, HSCAN and DUMP give its fields in the order they were added, and OBJECT
 * ENCODING says {@code listpack}. Past either limit it becomes a hash table for good (whose
 * order is Redis's hashing). This layout does the same with the order key: a hash is created
 * with one when it is within the limits, a command that adds fields appends them to it, HDEL
 * removes them, and the first write past a limit clears it — from then on the hash answers in
 * field (byte) order and reports {@code hashtable}. The order key is one value, so it is also
 * dropped if it would outgrow {@link #MAX_ORDER_BYTES}. A hash written before this key existed
 * has none: a hash table.
 *
 * <h2>Concurrency</h2>
 * The count must equal the number of field keys whatever runs concurrently. Every command that
 * creates or removes a field changes the count in the same transaction, by atomic ADD (a blind
 * write: commands that add different fields do not conflict over it). What each command must
 * know is whether a field exists, and that must still hold when it commits:
 * <ul>
 * <li>Creators read the field absent and take a read conflict on its key, so two commands
 * that create the same field conflict and the retry counts it once.</li>
 * <li>Overwriters (HSET of an existing field) read the field at snapshot and take a read
 * conflict on the removals key instead of the field: they conflict with a concurrent removal
 * of any field of the hash (it might be theirs), but not with each other — many clients
 * setting one hot field commit without retries, the last commit's value winning, as in
 * Redis.</li>
 * <li>Removers (HDEL) read the fields they remove and the count serializably, to learn
 * whether they removed the last field (then they delete the key), and ADD to the removals
 * key. So HDEL conflicts with concurrent creations (the count moved) and removals, and never
 * leaves an empty hash behind or deletes one another client has just added to.</li>
 * <li>Commands that need the value (HINCRBY, HINCRBYFLOAT) read it serializably.</li>
 * <li>The order key is read serializably and rewritten by every command that adds or removes
 * a field of a small hash, so such commands conflict with each other on a small hash (as they
 * do on its count in HDEL's case); a write past a limit clears it blindly, and a concurrent
 * adder, having read it, conflicts and retries as a hash table. Overwrites within the limits
 * leave it alone: they still do not conflict with each other.</li>
 * </ul>
 * Deleting, replacing or expiring the key writes its metadata, which every command reads
 * serializably; the metadata is written only then, so it is no point of contention.
 */
final class HashObject {
    static final byte REMOVALS = 'd';
    static final byte FIELD = 'f';
    static final byte COUNT = 'n';
    static final byte ORDER = 'i';
    /** The largest order key: FoundationDB's value limit (100,000 bytes) with room to spare. */
    static final int MAX_ORDER_BYTES = 90_000;
    /** FoundationDB's value limit: a field's value is one value. */
    static final int MAX_VALUE = 100_000;
    /** FoundationDB's key limit. */
    private static final int MAX_KEY = 10_000;
    /** An object id's most bytes: a length byte and a tuple-encoded long. */
    private static final int MAX_ID = 1 + 9;

    private final byte[] prefix;

    private HashObject(byte[] prefix) {
        this.prefix = prefix;
    }

    static HashObject of(KeyStore keys, int db, KeyMeta meta) {
        return new HashObject(keys.objectOf(db, meta).getKey());
    }

    /** The longest field name that fits in a key under any object id of this keyspace. */
    static int maxField(KeyStore keys) {
        return MAX_KEY - (keys.keyspace().prefix().length + 3 + MAX_ID + 1);
    }

    byte[] fieldKey(byte[] field) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 1 + field.length);
        k[prefix.length] = FIELD;
        System.arraycopy(field, 0, k, prefix.length + 1, field.length);
        return k;
    }

    /** The field a key of {@link #fields()} holds. */
    byte[] fieldOf(byte[] key) {
        return Arrays.copyOfRange(key, prefix.length + 1, key.length);
    }

    /** Every field's key, in field order. */
    Range fields() {
        byte[] begin = Arrays.copyOf(prefix, prefix.length + 1);
        begin[prefix.length] = FIELD;
        byte[] end = begin.clone();
        end[prefix.length] = FIELD + 1;
        return new Range(begin, end);
    }

    private byte[] orderKey() {
        return tagged(ORDER);
    }

    private byte[] countKey() {
        return tagged(COUNT);
    }

    private byte[] removalsKey() {
        return tagged(REMOVALS);
    }

    private byte[] tagged(byte tag) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 1);
        k[prefix.length] = tag;
        return k;
    }

    CompletableFuture<byte[]> get(ReadTransaction tr, byte[] field) {
        return tr.get(fieldKey(field));
    }

    /**
     * Whether the field exists, for a command that sets it without needing its value: the
     * answer holds at commit, yet concurrent overwrites of the field do not conflict (see the
     * class comment).
     */
    CompletableFuture<Boolean> existsForOverwrite(Transaction tr, byte[] field) {
        byte[] key = fieldKey(field);
        return tr.snapshot().get(key).thenApply(v -> {
            tr.addReadConflictKey(v == null ? key : removalsKey());
            return v != null;
        });
    }

    /** The number of fields. */
    CompletableFuture<Long> size(ReadTransaction tr) {
        return tr.get(countKey()).thenApply(v -> v == null ? 0L : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong());
    }

    /** Every field and value, in field order. */
    CompletableFuture<List<KeyValue>> all(ReadTransaction tr) {
        return tr.getRange(fields()).asList();
    }

    /**
     * Every field and value in the order Redis gives them: insertion order for a small hash,
     * field order otherwise (see "Small hashes keep insertion order").
     */
    CompletableFuture<List<KeyValue>> allInOrder(ReadTransaction tr) {
        CompletableFuture<byte[]> order = tr.get(orderKey());
        return tr.getRange(fields()).asList().thenCombine(order, (kvs, o) -> o == null ? kvs : inOrder(kvs, decodeOrder(o)));
    }

    /** {@code kvs} (field order) rearranged as {@code order} lists their fields; any it misses go last. */
    private List<KeyValue> inOrder(List<KeyValue> kvs, List<byte[]> order) {
        Map<ByteBuffer, KeyValue> byField = new HashMap<>(kvs.size() * 2);
        for (KeyValue kv : kvs) {
            byField.put(ByteBuffer.wrap(fieldOf(kv.getKey())), kv);
        }
        List<KeyValue> out = new ArrayList<>(kvs.size());
        for (byte[] f : order) {
            KeyValue kv = byField.remove(ByteBuffer.wrap(f));
            if (kv != null) {
                out.add(kv);
            }
        }
        if (!byField.isEmpty()) {
            for (KeyValue kv : kvs) {
                if (byField.containsKey(ByteBuffer.wrap(fieldOf(kv.getKey())))) {
                    out.add(kv);
                }
            }
        }
        return out;
    }

    /** Whether the hash is small (listpack-encoded, in Redis's words): it has an order key. */
    CompletableFuture<Boolean> isSmall(ReadTransaction tr) {
        return tr.get(orderKey()).thenApply(o -> o != null);
    }

    /** The limits of a small hash, as CONFIG has them now. */
    record SmallLimits(long entries, long valueBytes) {
        /** Whether a field or value of {@code length} bytes keeps a hash small. */
        boolean fits(int length) {
            return length <= valueBytes;
        }
    }

    /**
     * Records that a new hash was written with {@code fields} (in insertion order), each of
     * whose names and values {@code withinValueLimit} says fit: it is small if they do and
     * there are not too many. Call once, in the transaction that creates the hash.
     */
    void startOrder(Transaction tr, List<byte[]> fields, boolean withinValueLimit, SmallLimits limits) {
        if (withinValueLimit && fields.size() <= limits.entries()) {
            byte[] order = encodeOrder(fields);
            if (order.length <= MAX_ORDER_BYTES) {
                tr.set(orderKey(), order);
            }
        }
    }

    /**
     * Keeps the order of an existing hash after a write that added {@code added} fields (in
     * insertion order) and whose names and values {@code withinValueLimit} says fit: appends
     * them while the hash stays small, clears the order (a hash table from now on) when it
     * does not.
     */
    CompletableFuture<Void> extendOrder(Transaction tr, List<byte[]> added, boolean withinValueLimit, SmallLimits limits) {
        if (!withinValueLimit) {
            tr.clear(orderKey()); // blind: see "Concurrency"
            return CompletableFuture.completedFuture(null);
        }
        if (added.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return tr.get(orderKey()).thenAccept(o -> {
            if (o == null) {
                return;
            }
            List<byte[]> order = decodeOrder(o);
            order.addAll(added);
            byte[] encoded = order.size() <= limits.entries() ? encodeOrder(order) : null;
            if (encoded == null || encoded.length > MAX_ORDER_BYTES) {
                tr.clear(orderKey());
            } else {
                tr.set(orderKey(), encoded);
            }
        });
    }

    /** Takes {@code removed} fields out of a small hash's order. */
    CompletableFuture<Void> shrinkOrder(Transaction tr, List<byte[]> removed) {
        return tr.get(orderKey()).thenAccept(o -> {
            if (o == null) {
                return;
            }
            Set<ByteBuffer> gone = new HashSet<>();
            for (byte[] f : removed) {
                gone.add(ByteBuffer.wrap(f));
            }
            List<byte[]> order = decodeOrder(o);
            order.removeIf(f -> gone.contains(ByteBuffer.wrap(f)));
            tr.set(orderKey(), encodeOrder(order));
        });
    }

    static byte[] encodeOrder(List<byte[]> fields) {
        int size = 4;
        for (byte[] f : fields) {
            size += 4 + f.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(fields.size());
        for (byte[] f : fields) {
            b.putInt(f.length).put(f);
        }
        return b.array();
    }

    static List<byte[]> decodeOrder(byte[] encoded) {
        ByteBuffer b = ByteBuffer.wrap(encoded);
        int n = b.getInt();
        List<byte[]> fields = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            byte[] f = new byte[b.getInt()];
            b.get(f);
            fields.add(f);
        }
        return fields;
    }

    /** Writes a field's value; the caller accounts a new field with {@link #addToSize}. */
    void put(Transaction tr, byte[] field, byte[] value) {
        tr.set(fieldKey(field), value);
    }

    /** Removes a field; the caller accounts it with {@link #addToSize}. */
    void remove(Transaction tr, byte[] field) {
        tr.clear(fieldKey(field));
        tr.mutate(MutationType.ADD, removalsKey(), le(1));
    }

    void addToSize(Transaction tr, long delta) {
        if (delta != 0) {
            tr.mutate(MutationType.ADD, countKey(), le(delta));
        }
    }

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }
}
