package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.blob.BlobStore;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

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
 * <p>Sizes: a value written whole inside the command's transaction must fit FoundationDB's
 * 10,000,000-byte transaction ({@link #MAX_IN_TRANSACTION}). A larger value given as an
 * argument (SET, MSET ...) is staged before the command runs and claimed by it
 * ({@link LargeValues}, {@link #writeArgument}); APPEND, SETRANGE and SETBIT on a large value
 * edit only the chunks they touch ({@link #append}, {@link #writeAt}). So strings reach Redis's
 * 512 MB; what one command adds in one go (an APPEND's tail, a value it computes) stays within
 * one transaction.
 */
final class StringValues {
    /** FoundationDB's 100,000-byte value limit less the metadata header. */
    static final int INLINE_MAX = 100_000 - 10;
    /** The largest value one transaction can carry, with room for the command's other writes. */
    static final int MAX_IN_TRANSACTION = LargeValues.MAX_IN_TRANSACTION;
    /** Redis's {@code proto-max-bulk-len}: the largest string. */
    static final long MAX_STRING = 512L * 1024 * 1024;

    private StringValues() {
    }

    /** The value of a string key. */
    static CompletableFuture<byte[]> read(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        if (!meta.isObject()) {
            return CompletableFuture.completedFuture(meta.payload());
        }
        return blob(keys, db, meta).read(tr, LargeValues.VALUE_BLOB).thenApply(v -> v == null ? new byte[0] : v);
    }

    /** The length of a string key's value: for a large one, one read of its blob's head. */
    static CompletableFuture<Long> length(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        if (!meta.isObject()) {
            return CompletableFuture.completedFuture((long) meta.payload().length);
        }
        return blob(keys, db, meta).length(tr, LargeValues.VALUE_BLOB).thenApply(n -> n.orElse(0));
    }

    /**
     * Bytes {@code [offset, offset + length)} of a string key's value, clipped to it; for a
     * large one only the chunks that hold them are read.
     */
    static CompletableFuture<byte[]> read(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta, long offset, int length) {
        if (!meta.isObject()) {
            byte[] v = meta.payload();
            int from = (int) Math.min(offset, v.length);
            return CompletableFuture.completedFuture(Arrays.copyOfRange(v, from, (int) Math.min(v.length, from + (long) length)));
        }
        return blob(keys, db, meta).read(tr, LargeValues.VALUE_BLOB, offset, length).thenApply(v -> v == null ? new byte[0] : v);
    }

    /**
     * Writes {@code bytes} at {@code offset} of a large string key's value (SETRANGE, SETBIT),
     * zero-padded as Redis pads, touching only the chunks it covers; completes with the new
     * length. The caller moves the key's change stamp.
     */
    static CompletableFuture<Long> writeAt(Transaction tr, KeyStore keys, int db, KeyMeta meta, long offset, byte[] bytes) {
        checkWritable(bytes.length);
        return blob(keys, db, meta).writeAt(tr, LargeValues.VALUE_BLOB, offset, bytes);
    }

    /**
     * The key's string as a large one (an object), to be edited in place: a large value is
     * returned as it is; an inline or missing one (empty) is rewritten as an object, keeping
     * the key's expiry. Written in {@code tr}, which then holds the key's new metadata.
     */
    static CompletableFuture<KeyMeta> asObject(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta meta) {
        if (meta != null && meta.isObject()) {
            return CompletableFuture.completedFuture(meta);
        }
        KeyMeta object = new KeyMeta(RedisType.STRING, KeyMeta.OBJECT, meta == null ? 0 : meta.expireAtMillis(),
                ObjectRef.payload(LargeValues.newObjectId(), new byte[0]));
        keys.put(tr, db, key, meta, object);
        return blob(keys, db, object).write(tr, LargeValues.VALUE_BLOB, meta == null ? new byte[0] : meta.payload()).thenApply(ignored -> object);
    }

    /** Appends to a large string key's value, touching its last chunk and the new ones; the new length. */
    static CompletableFuture<Long> append(Transaction tr, KeyStore keys, int db, KeyMeta meta, byte[] tail) {
        checkWritable(tail.length);
        return blob(keys, db, meta).append(tr, LargeValues.VALUE_BLOB, tail);
    }

    /**
     * Writes an argument of the command as the key's string: one too large for the
     * transaction was staged before the command ran ({@link LargeValues}) and is claimed here,
     * so only the key's metadata is written; others as {@link #write}.
     */
    static CompletableFuture<Void> writeArgument(Invocation inv, Transaction tr, int db, byte[] key, KeyMeta old, byte[] value,
                                                 long expireAt) {
        LargeValues large = inv.server().largeValues();
        LargeValues.Staged staged = large.stagedFor(value);
        if (staged == null) {
            return write(tr, inv.server().keys(), db, key, old, value, expireAt);
        }
        if (staged.db() != db) {
            throw new RedisException("ERR a value larger than " + MAX_IN_TRANSACTION
                    + " bytes is stored in the database selected when its command (or EXEC) began, not after a SELECT");
        }
        return large.claim(tr, staged).thenRun(() -> inv.server().keys().put(tr, db, key, old,
                new KeyMeta(RedisType.STRING, KeyMeta.OBJECT, expireAt, ObjectRef.payload(staged.id(), new byte[0]))));
    }

    /** Fails as {@link #writeArgument} would for {@code value}, before anything is written. */
    static void checkArgument(Invocation inv, byte[] value) {
        if (value.length <= MAX_IN_TRANSACTION || inv.server().largeValues().stagedFor(value) == null) {
            checkWritable(value.length);
        }
    }

    /** Writes {@code value} as the key's string with expiry {@code expireAt} (0: none), replacing {@code old}. */
    static CompletableFuture<Void> write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] value, long expireAt) {
        checkWritable(value.length);
        if (value.length <= INLINE_MAX) {
            keys.put(tr, db, key, old, KeyMeta.inlineString(value, expireAt));
            return CompletableFuture.completedFuture(null);
        }
        byte[] id = LargeValues.newObjectId();
        KeyMeta meta = new KeyMeta(RedisType.STRING, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        keys.put(tr, db, key, old, meta);
        return blob(keys, db, meta).write(tr, LargeValues.VALUE_BLOB, value);
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
            throw new RedisException("ERR a command may write at most " + MAX_IN_TRANSACTION
                    + " bytes of a string in one go (one FoundationDB transaction carries 10 MB); SET and MSET take larger values");
        }
    }

    private static BlobStore blob(KeyStore keys, int db, KeyMeta meta) {
        return new BlobStore(keys.objectOf(db, meta));
    }

    static KeyMeta requireString(KeyMeta m) {
        return KeyStore.requireType(m, RedisType.STRING);
    }
}
