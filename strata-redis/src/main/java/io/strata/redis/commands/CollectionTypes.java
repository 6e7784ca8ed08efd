package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What the type-generic commands (SORT, SORT_RO, OBJECT ENCODING) need from the collection
 * types, in one place: each collection type's store plugs in here by implementing
 * {@link Access} and adding itself to {@link #ACCESS}. A type that is not plugged in yet
 * answers SORT with a clear error and OBJECT ENCODING with the encoding Redis uses for
 * large values of that type.
 *
 * <p>Plugging in a type: implement {@code elements} (and {@code encoding} if the type can
 * tell its size cheaply), then add {@code ACCESS.put(RedisType.X, new XAccess())} below. The
 * list type also implements {@link #storeList} (SORT ... STORE) and the hash type
 * {@link #hashField} (SORT ... BY/GET {@code pattern->field}).
 */
final class CollectionTypes {
    /** One collection type's answers; every method runs inside the caller's transaction. */
    interface Access {
        /**
         * SORT's input: a list's elements in order, a set's members (any order), a sorted
         * set's members by ascending score then member.
         */
        CompletableFuture<List<byte[]>> elements(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta);

        /** The encoding Redis 7.0 would report for this value (OBJECT ENCODING). */
        default CompletableFuture<String> encoding(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
            return CompletableFuture.completedFuture(largeEncoding(meta.type()));
        }
    }

    private static final Map<RedisType, Access> ACCESS = new EnumMap<>(RedisType.class);

    static {
        ACCESS.put(RedisType.SET, (tr, keys, db, meta) -> new io.strata.layers.set.RoaringSet(keys.objectOf(db, meta)).toBitmap(tr)
                .thenCompose(bitmap -> keys.interner().lookupAll(tr, SetValues.toArray(bitmap)))
                .thenApply(found -> {
                    List<byte[]> members = new java.util.ArrayList<>(found.size());
                    for (java.util.Optional<byte[]> m : found) {
                        members.add(m.orElseThrow(() -> new IllegalStateException("a set member id names no string")));
                    }
                    return members;
                }));
        ACCESS.put(RedisType.LIST, (tr, keys, db, meta) -> ListValue.reading(tr, keys, db, null, meta).all());
        ACCESS.put(RedisType.ZSET, (tr, keys, db, meta) -> new ZSetObject(keys.objectOf(db, meta)).ranked()
                .scan(tr, new byte[0], null, 0, false).asList()
                .thenApply(elements -> {
                    List<byte[]> members = new java.util.ArrayList<>(elements.size());
                    for (byte[] e : elements) {
                        members.add(ZSetObject.memberOf(e));
                    }
                    return members;
                }));
    }

    private CollectionTypes() {
    }

    /** SORT's elements of a list, set or sorted set. */
    static CompletableFuture<List<byte[]>> elements(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        Access access = ACCESS.get(meta.type());
        if (access == null) {
            throw new RedisException("ERR SORT of a " + meta.type().typeName() + " is not supported by this server yet");
        }
        return access.elements(tr, keys, db, meta);
    }

    /** OBJECT ENCODING of a collection. */
    static CompletableFuture<String> encoding(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta) {
        if (meta.type() == RedisType.HASH) {
            return HashObject.of(keys, db, meta).isSmall(tr).thenApply(small -> small ? "listpack" : "hashtable");
        }
        Access access = ACCESS.get(meta.type());
        return access == null ? CompletableFuture.completedFuture(largeEncoding(meta.type()))
                : access.encoding(tr, keys, db, meta);
    }

    /**
     * Replaces {@code key} (whose current metadata is {@code old}, or null) with a list of
     * {@code elements} and no expiry, as SORT ... STORE does; {@code elements} is not empty.
     */
    static CompletableFuture<Void> storeList(Transaction tr, KeyStore keys, int db, byte[] key, KeyMeta old,
                                             List<byte[]> elements) {
        return ListValue.store(tr, keys, db, key, old, elements);
    }

    /** The value of {@code field} in the hash {@code meta} names, or null (SORT's {@code ->field}). */
    static CompletableFuture<byte[]> hashField(ReadTransaction tr, KeyStore keys, int db, KeyMeta meta, byte[] field) {
        return HashObject.of(keys, db, meta).get(tr, field);
    }

    /** Redis 7.0's encoding of a large value of {@code type}. */
    static String largeEncoding(RedisType type) {
        switch (type) {
            case LIST: return "quicklist";
            case ZSET: return "skiplist";
            case STRING: return "raw";
            case STREAM: return "stream";
            default: return "hashtable";
        }
    }
}
