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
 * hashes as {@link HashObject}, sorted sets as {@link ZSetObject}, streams as
 * {@code RestoredStream}), under a new object id,
 * then the key's metadata through {@link KeyStore#put} (which clears the replaced value,
 * moves the expiry index and the WATCH stamp, and wakes blocked clients).
 *
 * <p>{@link #check} finds every reason to refuse the value before anything is written (an
 * element this layout cannot hold, a value too large for one transaction), so that a
 * refused RESTORE inside MULTI/EXEC leaves nothing behind.
 *
 * <p>Limits: the value is written in the command's one transaction, so it must fit
 * FoundationDB's 10,000,000-byte transaction size, estimated as FoundationDB counts it (each
 * written key's mutation and write conflict range, see {@link #written}) against
 * {@link StringValues#MAX_IN_TRANSACTION}. A value beyond that is staged before the command runs
 * ({@link StagedCollections}); {@link #check} refuses one that was not (which only a bug would
 * leave) before anything is written.
 * Nothing is read to write the elements (a sorted set's ranked set is built in one pass), so
 * the time a RESTORE takes is its writes'.
 *
 * <p>Concurrency: everything happens in the caller's transaction. The elements go under an
 * object id just allocated (High Contention Allocator), which no other transaction can be
 * writing, so they need no reads; set members are interned with the interner's own
 * serializable reads; the key's metadata was read serializably by the caller, so a concurrent
 * change of the key conflicts with the RESTORE and one of them retries.
 */
final class RestoredValues {
    /** The longest object id (a length byte is not part of it): a tuple-encoded long. */
    private static final byte[] LONGEST_ID = new byte[9];

    private RestoredValues() {
    }

    /** Refuses, before any write, a value this server cannot store in one transaction. */
    static void check(KeyStore keys, int db, RdbValue value) {
        if (bytesToStore(keys, db, value) > StringValues.MAX_IN_TRANSACTION) {
            throw new RedisException("ERR values that take more than " + StringValues.MAX_IN_TRANSACTION
                    + " bytes to store are not supported yet (one FoundationDB transaction carries at most 10 MB)");
        }
    }

    /**
     * What writing {@code value} adds to a transaction's size, as FoundationDB counts it (0 for
     * a string, which {@link StringValues} stages itself); refuses an element this layout
     * cannot hold.
     */
    static long bytesToStore(KeyStore keys, int db, RdbValue value) {
        // Object keys are at most this long before the type's own suffix (the longest object id).
        int p = objectKeyBytes(keys, db);
        long bytes = 0;
        if (value instanceof RdbValue.StringValue s) {
            StringValues.checkWritable(s.value().length);
            return 0;
        } else if (value instanceof RdbValue.ListValue l) {
            for (byte[] e : l.elements()) {
                bytes += listElementBytes(p, e);
            }
        } else if (value instanceof RdbValue.SetValue s) {
            int max = keys.interner().maxStringBytes();
            for (byte[] m : s.members()) {
                if (m.length > max) {
                    throw SetValues.tooLong(max);
                }
                // The interner's forward key (member -> id) and its share of a reverse block; the roaring container.
                bytes += setMemberBytes(p, m);
            }
        } else if (value instanceof RdbValue.HashValue h) {
            int maxField = HashObject.maxField(keys);
            for (int i = 0; i < h.fields().size(); i++) {
                byte[] f = h.fields().get(i);
                byte[] v = h.values().get(i);
                if (f.length > maxField) {
                    throw new RedisException("ERR hash fields longer than " + maxField + " bytes are not supported");
                }
                if (v.length > HashObject.MAX_VALUE) {
                    throw new RedisException("ERR hash values larger than " + HashObject.MAX_VALUE + " bytes are not supported yet");
                }
                bytes += hashFieldBytes(p, f, v);
            }
        } else if (value instanceof RdbValue.StreamData s) {
            bytes += io.strata.redis.streams.RestoredStream.bytesToStore(s, p, (k, v) -> written((int) k, (int) v));
        } else if (value instanceof RdbValue.ZSetValue z) {
            // The member limit under the longest possible object id: never more than ZADD allows.
            ZSetObject probe = new ZSetObject(keys.keyspace().object(db, LONGEST_ID));
            for (byte[] m : z.members()) {
                probe.checkMember(m);
                // The score key and the ranked set's level-0 key; towers add one key in 15 more.
                long pair = written(p + 1 + m.length, 8) + written(p + 2 + 8 + m.length, 0);
                bytes += pair + pair / 15;
            }
        }
        return bytes;
    }

    /**
     * What one written key adds to FoundationDB's transaction size, as FoundationDB counts it:
     * the mutation (40 bytes of overhead, key, value) and its write conflict range (32 bytes
     * of overhead, the key, and the key with a zero byte appended).
     */
    static long written(int keyBytes, int valueBytes) {
        return 40 + keyBytes + valueBytes + 32 + 2L * keyBytes + 1;
    }

    /** A list element's share of {@link #bytesToStore}, its object's keys {@code p} bytes long before their suffix. */
    static long listElementBytes(int p, byte[] element) {
        return written(p + 8, element.length);
    }

    /** A set member's share: the interner's forward key (member to id) and its share of a reverse block; the roaring container. */
    static long setMemberBytes(int p, byte[] member) {
        return written(p + member.length, 8) + member.length + 16 + 8;
    }

    /** A hash field's share. */
    static long hashFieldBytes(int p, byte[] field, byte[] value) {
        return written(p + 1 + field.length, value.length);
    }

    /** How long an object key of database {@code db} is at most before its type's suffix (the longest object id). */
    static int objectKeyBytes(KeyStore keys, int db) {
        return keys.keyspace().object(db, LONGEST_ID).getKey().length;
    }

    /**
     * Writes {@code value} at {@code key} (replacing {@code old}, or null) with expiry
     * {@code expireAt} (0: none); a hash within {@code hashLimits} stays small, in the
     * payload's order, as Redis loads it.
     */
    static CompletableFuture<Void> write(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, RdbValue value, long expireAt,
                                         HashObject.SmallLimits hashLimits) {
        if (value instanceof RdbValue.StringValue s) {
            return StringValues.write(tr, keys, db, key, old, s.value(), expireAt);
        }
        if (value instanceof RdbValue.StreamData s) {
            return io.strata.redis.streams.RestoredStream.write(tr, keys, db, key, old, s, expireAt);
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
                return writeHash(tr, keys, db, key, old, id, h, expireAt, hashLimits);
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
                                                     RdbValue.HashValue h, long expireAt, HashObject.SmallLimits limits) {
        KeyMeta meta = new KeyMeta(RedisType.HASH, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        HashObject hash = HashObject.of(keys, db, meta);
        boolean withinValueLimit = true;
        for (int i = 0; i < h.fields().size(); i++) {
            hash.put(tr, h.fields().get(i), h.values().get(i));
            withinValueLimit &= limits.fits(h.fields().get(i).length) && limits.fits(h.values().get(i).length);
        }
        hash.addToSize(tr, h.fields().size());
        hash.startOrder(tr, h.fields(), withinValueLimit, limits);
        keys.put(tr, db, key, old, meta);
        return CompletableFuture.completedFuture(null);
    }

    private static CompletableFuture<Void> writeZSet(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old, byte[] id,
                                                     RdbValue.ZSetValue z, long expireAt) {
        KeyMeta meta = new KeyMeta(RedisType.ZSET, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
        new ZSetObject(keys.objectOf(db, meta)).loadNew(tr, z.members(), z.scores());
        keys.put(tr, db, key, old, meta);
        return CompletableFuture.completedFuture(null);
    }
}
