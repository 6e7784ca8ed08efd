package io.strata.redis.commands;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * How the hash commands find the hash named by argument 1, create it, and write fields into
 * it with the bookkeeping every change needs (the field count, the key's change stamp). A
 * hash's metadata carries its object id and no header: the field count lives in the object
 * (see {@link HashObject} for the layout and why).
 */
final class HashKeys {
    private static final byte[] NO_HEADER = new byte[0];

    private HashKeys() {
    }

    /** The hash for reading; null when the key is absent; WRONGTYPE for another type. */
    static CompletableFuture<HashObject> read(Invocation inv, Transaction tr) {
        KeyStore keys = inv.server().keys();
        return keys.get(tr, inv.db(), inv.arg(1), inv.now(), RedisType.HASH)
                .thenApply(m -> m == null ? null : HashObject.of(keys, inv.db(), m));
    }

    /** The hash's metadata for writing (an expired key is deleted first); null when absent; WRONGTYPE for another type. */
    static CompletableFuture<KeyMeta> forWrite(Invocation inv, Transaction tr) {
        return inv.server().keys().getForWrite(tr, inv.db(), inv.arg(1), inv.now(), RedisType.HASH);
    }

    static HashObject open(Invocation inv, KeyMeta meta) {
        return HashObject.of(inv.server().keys(), inv.db(), meta);
    }

    /**
     * Writes {@code values} (field to value, in argument order) into the hash whose metadata
     * is {@code meta}, creating the hash when {@code meta} is null; {@code added} are the
     * fields that are new, in the order they were first named. Keeps a small hash's insertion
     * order ({@link HashObject}). Call it after every check: it writes.
     */
    static CompletableFuture<Void> write(Invocation inv, Transaction tr, KeyMeta meta, Map<ByteBuffer, byte[]> values,
                                         List<byte[]> added) {
        return write(inv, tr, meta, values, added, true);
    }

    /**
     * As {@link #write(Invocation, Transaction, KeyMeta, Map, List)}; {@code argumentsFit} false
     * when an argument the command was given, though not written (a field's earlier value in
     * the same HSET), is past {@code hash-max-listpack-value}: Redis converts on the arguments.
     */
    static CompletableFuture<Void> write(Invocation inv, Transaction tr, KeyMeta meta, Map<ByteBuffer, byte[]> values,
                                         List<byte[]> added, boolean argumentsFit) {
        CompletableFuture<HashObject> target = meta != null
                ? CompletableFuture.completedFuture(open(inv, meta))
                : create(inv, tr);
        HashObject.SmallLimits limits = smallLimits(inv);
        boolean withinValueLimit = argumentsFit;
        for (Map.Entry<ByteBuffer, byte[]> e : values.entrySet()) {
            withinValueLimit &= limits.fits(e.getKey().remaining()) && limits.fits(e.getValue().length);
        }
        boolean fits = withinValueLimit;
        return target.thenCompose(h -> {
            values.forEach((field, value) -> h.put(tr, field.array(), value));
            h.addToSize(tr, added.size());
            inv.server().keys().touch(tr, inv.db(), inv.arg(1));
            if (meta == null) {
                h.startOrder(tr, added, fits, limits);
                return CompletableFuture.completedFuture(null);
            }
            return h.extendOrder(tr, added, fits, limits);
        });
    }

    /** Writes one field; see {@link #write(Invocation, Transaction, KeyMeta, Map, List)}. */
    static CompletableFuture<Void> write(Invocation inv, Transaction tr, KeyMeta meta, byte[] field, byte[] value, boolean added) {
        return write(inv, tr, meta, Map.of(ByteBuffer.wrap(field), value), added ? List.of(field) : List.of());
    }

    /** {@code hash-max-listpack-entries} and {@code hash-max-listpack-value} as CONFIG has them now. */
    static HashObject.SmallLimits smallLimits(Invocation inv) {
        return new HashObject.SmallLimits(inv.server().settings().getLong("hash-max-listpack-entries"),
                inv.server().settings().getLong("hash-max-listpack-value"));
    }

    /** A new empty hash under argument 1 (the key must be absent). */
    private static CompletableFuture<HashObject> create(Invocation inv, Transaction tr) {
        KeyStore keys = inv.server().keys();
        return keys.newObjectId(tr).thenApply(id -> {
            KeyMeta meta = new KeyMeta(RedisType.HASH, KeyMeta.OBJECT, 0, ObjectRef.payload(id, NO_HEADER));
            keys.put(tr, inv.db(), inv.arg(1), null, meta);
            return HashObject.of(keys, inv.db(), meta);
        });
    }

    /** Refuses a field or value FoundationDB cannot hold in one key or value; call before any write. */
    static void checkFits(Invocation inv, byte[] field, byte[] value) {
        int maxField = HashObject.maxField(inv.server().keys());
        if (field.length > maxField) {
            throw new RedisException("ERR hash fields longer than " + maxField + " bytes are not supported");
        }
        if (value != null && value.length > HashObject.MAX_VALUE) {
            throw new RedisException("ERR hash values larger than " + HashObject.MAX_VALUE + " bytes are not supported yet");
        }
    }
}
