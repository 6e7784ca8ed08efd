package io.strata.redis.commands;

import com.apple.foundationdb.Transaction;
import io.strata.layers.set.RoaringSet;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.rdb.RdbValue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a decoded {@link RdbValue} as a key of this server, in each type's own layout
 * (strings as {@link StringValues}, lists as {@link ListValue}, sets as {@link SetValues},
 * hashes as {@link HashObject}, sorted sets as {@link ZSetObject}), under a new object id,
 * then the key's metadata through {@link KeyStore#put} (which clears the replaced value,
 * moves the expiry index and the WATCH stamp, and wakes blocked clients).
 *
 * <p>{@link #check} finds every reason to refuse the value before anything is written (an
 * element this layout cannot hold, a value too large for one transaction), so that a
 * refused RESTORE inside MULTI/EXEC leaves nothing behind.
 *
 * <p>Limits: the whole value is written in the command's one transaction, so it must fit
 * FoundationDB's 10,000,000 bytes of writes; {@link #check} refuses a value whose estimated
 * writes (elements plus per-element key overhead) exceed {@link StringValues#MAX_IN_TRANSACTION}.
 * Sorted-set members go into the ranked set one after another, so a very large sorted set
 * may also exceed the 5-second transaction lifetime.
 */
final class RestoredValues {
    /** Bytes of keys and bookkeeping written per element besides its own bytes (an estimate). */
    private static final long PER_ELEMENT = 48;
    /** The longest object id (a length byte is not part of it): a tuple-encoded long. */
    private static final byte[] LONGEST_ID = new byte[9];

    private RestoredValues() {
    }

    /** Refuses, before any write, a value this server cannot store in one transaction. */
    static void check(KeyStore keys, int db, RdbValue value) {
        long writes = 0;
        if (value instanceof RdbValue.StringValue s) {
            StringValues.checkWritable(s.value().length);
            return;
        } else if (value instanceof RdbValue.ListValue l) {
            writes = total(l.elements(), 1);
        } else if (value instanceof RdbValue.SetValue s) {
            int max = keys.interner().maxStringBytes();
            for (byte[] m : s.members()) {
                if (m.length > max) {
                    throw SetValues.tooLong(max);
                }
            }
            // The interner keeps each member twice (forward and reverse).
            writes = total(s.members(), 2);
        } else if (value instanceof RdbValue.HashValue h) {
            int maxField = HashObject.maxField(keys);
            for (int i = 0; i < h.fields().size(); i++) {
                if (h.fields().get(i).length > maxField) {
                    throw new RedisException("ERR hash fields longer than " + maxField + " bytes are not supported");
                }
                if (h.values().get(i).length > HashObject.MAX_VALUE) {
                    throw new RedisException("ERR hash values larger than " + HashObject.MAX_VALUE + " bytes are not supported yet");
                }
            }
            writes = total(h.fields(), 1) + total(h.values(), 0);
        } else if (value instanceof RdbValue.ZSetValue z) {
            // The member limit under the longest possible object id: never more than ZADD allows.
            ZSetObject probe = new ZSetObject(keys.keyspace().object(db, LONGEST_ID));
            for (byte[] m : z.members()) {
                probe.checkMember(m);
            }
            // A member is in its score key and in the ranked set (with its score), at several levels.
            writes = total(z.members(), 3);
        }
        if (writes > StringValues.MAX_IN_TRANSACTION) {
            throw new RedisException("ERR values that take more than " + StringValues.MAX_IN_TRANSACTION
                    + " bytes to store are not supported yet (one FoundationDB transaction carries at most 10 MB)");
        }
    }

    private static long total(List<byte[]> items, int copies) {
        long n = 0;
        for (byte[] item : items) {
            n += (long) copies * item.length + PER_ELEMENT;
        }
        return n;
    }

    /** Writes {@code value} at {@code key} (replacing {@code old}, or null) with expiry {@code expireAt} (0: none). */
    static CompletableFuture<Void> write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, RdbValue value, long expireAt) {
        if (value instanceof RdbValue.StringValue s) {
            return StringValues.write(tr, keys, db, key, old, s.value(), expireAt);
        }
        if (value instanceof RdbValue.SetValue s) {
            // Intern first: its reads and writes are the set's only dependency on other keys.
            return keys.interner().internAll(tr, s.members()).thenCompose(ids -> keys.newObjectId(tr).thenCompose(id -> {
                KeyMeta meta = SetValues.newMeta(id).withExpiry(expireAt);
                return new RoaringSet(keys.objectOf(db, meta)).addAll(tr, ids).thenAccept(added -> keys.put(tr, db, key, old, meta));
            }));
        }
        return keys.newObjectId(tr).thenCompose(id -> {
            if (value instanceof RdbValue.ListValue l) {
                return writeList(tr, keys, db, key, old, id, l, expireAt);
            }
            if (value instanceof RdbValue.HashValue h) {
                return writeHash(tr, keys, db, key, old, id, h, expireAt);
            }
            return writeZSet(tr, keys, db, key, old, id, (RdbValue.ZSetValue) value, expireAt);
        });
    }

    private static CompletableFuture<Void> writeList(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] id,
                                                     RdbValue.ListValue l, long expireAt) {
        ListElements elements = new ListElements(keys.keyspace().object(db, id).getKey());
        List<byte[]> values = l.elements();
        for (int i = 0; i < values.size(); i++) {
            elements.write(tr, i, values.get(i));
        }
        byte[] header = new ListHeader(0, values.size()).encode();
        keys.put(tr, db, key, old, new KeyMeta(RedisType.LIST, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, header)));
        return CompletableFuture.completedFuture(null);
    }

    private static CompletableFuture<Void> writeHash(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] id,
                                                     RdbValue.HashValue h, long expireAt) {
        KeyMeta meta = new KeyMeta(RedisType.HASH, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        HashObject hash = HashObject.of(keys, db, meta);
        for (int i = 0; i < h.fields().size(); i++) {
            hash.put(tr, h.fields().get(i), h.values().get(i));
        }
        hash.addToSize(tr, h.fields().size());
        keys.put(tr, db, key, old, meta);
        return CompletableFuture.completedFuture(null);
    }

    private static CompletableFuture<Void> writeZSet(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] id,
                                                     RdbValue.ZSetValue z, long expireAt) {
        KeyMeta meta = new KeyMeta(RedisType.ZSET, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        ZSetObject set = new ZSetObject(keys.objectOf(db, meta));
        List<Integer> order = new java.util.ArrayList<>(z.members().size());
        for (int i = 0; i < z.members().size(); i++) {
            order.add(i);
        }
        return ZSets.sequentially(order, i -> set.put(tr, z.members().get(i), null, z.scores().get(i)))
                .thenAccept(ignored -> keys.put(tr, db, key, old, meta));
    }
}
