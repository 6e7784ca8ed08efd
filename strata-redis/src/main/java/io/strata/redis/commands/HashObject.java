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
 * P 'o' db id 'f' field  -&gt; the field's value, raw
 * P 'o' db id 'n'        -&gt; the number of fields: 8 bytes little-endian, changed by atomic ADD only
 * </pre>
 * The field name is appended raw: fields are in byte order (HSCAN resumes after a field) and
 * need no escaping, since nothing else in the object starts with {@code 'f'}.
 *
 * <h2>Concurrency</h2>
 * A command decides whether a field is new by reading that field's key (a serializable read),
 * and changes the count with an atomic ADD (a blind write, no read conflict). So two commands
 * that write different fields of one hash both commit, and the count still ends exact: each
 * transaction adds what it changed. Two that add the same new field both read it absent and
 * both write it, so they conflict and the retry counts it once. HLEN reads the count;
 * HDEL reads it serializably to learn whether it removed the last field (then it deletes the
 * key), so an HDEL conflicts with any concurrent change of the field set and never leaves an
 * empty hash behind or deletes one that another client just added to. The key's metadata is
 * only written when the hash is created or deleted, so it is not a point of contention.
 */
final class HashObject {
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
        byte[] k = Arrays.copyOf(prefix, prefix.length + 1);
        k[prefix.length] = COUNT;
        return k;
    }

    CompletableFuture<byte[]> get(ReadTransaction tr, byte[] field) {
        return tr.get(fieldKey(field));
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
    }

    void addToSize(Transaction tr, long delta) {
        if (delta != 0) {
            tr.mutate(MutationType.ADD, countKey(), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(delta).array());
        }
    }
}
