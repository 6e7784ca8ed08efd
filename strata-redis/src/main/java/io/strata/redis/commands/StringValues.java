package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.util.concurrent.CompletableFuture;

/**
 * A string key's value: kept inline in the key's metadata when it fits in one FoundationDB
 * value (values up to {@link #INLINE_MAX} bytes — all but the largest strings, and one read
 * for GET).
 */
final class StringValues {
    /** FoundationDB's 100,000-byte value limit less the metadata header. */
    static final int INLINE_MAX = 100_000 - 10;
    /** Redis's {@code proto-max-bulk-len}: the largest string. */
    static final long MAX_STRING = 512L * 1024 * 1024;

    private StringValues() {
    }

    /** The value of a string key's metadata. */
    static CompletableFuture<byte[]> read(ReadTransaction tr, KeyMeta meta) {
        return CompletableFuture.completedFuture(meta.payload());
    }

    /** Writes {@code value} as the key's string, keeping or replacing the expiry as {@code expireAt} says. */
    static void write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] value, long expireAt) {
        checkWritable(value.length);
        keys.put(tr, db, key, old, KeyMeta.inlineString(value, expireAt));
    }

    /**
     * Fails as {@link #write} would for a value of {@code length} bytes, so that a command that
     * builds a value (SETBIT far out, BITFIELD) can refuse before allocating it.
     */
    static void checkWritable(long length) {
        if (length > INLINE_MAX) {
            throw new RedisException("ERR string values larger than " + INLINE_MAX + " bytes are not supported yet");
        }
    }

    static KeyMeta requireString(KeyMeta m) {
        return KeyStore.requireType(m, RedisType.STRING);
    }
}
