package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.blob.BlobStore;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A string key's value. Up to {@link #INLINE_MAX} bytes it is kept inline in the key's
 * metadata (one read for GET); a larger one is a blob of the blob layer ({@link BlobStore}) in
 * the key's object subspace, chunked, so a value may exceed FoundationDB's 100,000-byte value
 * limit.
 *
 * <h2>Layout of a large value</h2>
 * <pre>
 * P 'k' db key        -&gt; KeyMeta(STRING, OBJECT, expiry, payload = object id)
 * P 'o' db id ...     -&gt; a BlobStore whose one blob, named by the empty string, is the value
 * </pre>
 * The object id of a large string is {@code 0xFF} and 16 random bytes: it needs no read to
 * allocate (the High Contention Allocator's ids are tuple-encoded integers, which never start
 * with {@code 0xFF}, so the two kinds cannot collide), and the chance that two random ids meet
 * is 2^-128. Each write of a large value makes a new object, so the old one is cleared whole
 * by {@link KeyStore#put} and no chunk of it can outlive it.
 *
 * <p>Limit: the whole value is written inside the command's transaction, so it must fit
 * FoundationDB's 10,000,000-byte transaction ({@link #MAX_IN_TRANSACTION}); Redis's
 * 512 MB strings need staged writes across transactions, which this server does not do yet.
 */
final class StringValues {
    /** FoundationDB's 100,000-byte value limit less the metadata header. */
    static final int INLINE_MAX = 100_000 - 10;
    /** The largest value one transaction can carry, with room for the command's other writes. */
    static final int MAX_IN_TRANSACTION = 9_000_000;
    /** Redis's {@code proto-max-bulk-len}: the largest string. */
    static final long MAX_STRING = 512L * 1024 * 1024;
    private static final byte[] VALUE = new byte[0];

    private StringValues() {
    }

    /** The value of a string key. */
    static CompletableFuture<byte[]> read(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        if (!meta.isObject()) {
            return CompletableFuture.completedFuture(meta.payload());
        }
        return blob(keys, db, meta).read(tr, VALUE).thenApply(v -> v == null ? new byte[0] : v);
    }

    /** Writes {@code value} as the key's string with expiry {@code expireAt} (0: none), replacing {@code old}. */
    static CompletableFuture<Void> write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] value, long expireAt) {
        checkWritable(value.length);
        if (value.length <= INLINE_MAX) {
            keys.put(tr, db, key, old, KeyMeta.inlineString(value, expireAt));
            return CompletableFuture.completedFuture(null);
        }
        byte[] id = new byte[17];
        ThreadLocalRandom.current().nextBytes(id);
        id[0] = (byte) 0xFF;
        KeyMeta meta = new KeyMeta(RedisType.STRING, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        keys.put(tr, db, key, old, meta);
        return blob(keys, db, meta).write(tr, VALUE, value);
    }

    /**
     * Fails as {@link #write} would for a value of {@code length} bytes, so that a command that
     * builds a value (SETBIT far out, BITFIELD) can refuse before allocating it.
     */
    static void checkWritable(long length) {
        if (length > MAX_STRING) {
            throw new RedisException("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        }
        if (length > MAX_IN_TRANSACTION) {
            throw new RedisException("ERR string values larger than " + MAX_IN_TRANSACTION
                    + " bytes are not supported yet (one FoundationDB transaction carries at most 10 MB)");
        }
    }

    private static BlobStore blob(KeyStore keys, int db, KeyMeta meta) {
        return new BlobStore(keys.objectOf(db, meta));
    }

    static KeyMeta requireString(KeyMeta m) {
        return KeyStore.requireType(m, RedisType.STRING);
    }
}
