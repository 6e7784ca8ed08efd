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
import java.util.Arrays;
import java.util.List;
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
 * P 'o' db id 'n'        -&gt; the number of fields: 8 bytes little-endian, changed by atomic ADD only
 * </pre>
 * The field name is appended raw: fields are in byte order (HSCAN resumes after a field) and
 * need no escaping, since nothing else in the object starts with {@code 'f'}.
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
 * </ul>
 * Deleting, replacing or expiring the key writes its metadata, which every command reads
 * serializably; the metadata is written only then, so it is no point of contention.
 */
final class HashObject {
    static final byte REMOVALS = 'd';
    static final byte FIELD = 'f';
    static final byte COUNT = 'n';
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
