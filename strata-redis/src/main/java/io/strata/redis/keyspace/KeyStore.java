package io.strata.redis.keyspace;

import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.allocator.HighContentionAllocator;
import io.strata.redis.protocol.RedisException;

import java.util.concurrent.CompletableFuture;

/**
 * Reads and writes keys' metadata with the bookkeeping every change needs: the expiry index
 * follows the metadata's expiry, the change stamp moves on every change (WATCH and blocked
 * clients rely on it), and deleting a key clears its object's elements.
 *
 * <p>Expired keys: a read treats a key whose expiry has passed as absent; a write that finds
 * one deletes it first ({@link #getForWrite}), as Redis's {@code expireIfNeeded} does, so the
 * expired value's elements never leak into the new one.
 *
 * <p>Concurrency: every method works inside the caller's transaction; reads of metadata are
 * serializable, so two commands that change the same key conflict and one retries. The
 * stamp is written with a versionstamped value: a blind write, no read, no extra conflict.
 */
public final class KeyStore {
    /** Ten placeholder bytes and the little-endian offset 0 at which the versionstamp goes. */
    private static final byte[] STAMP_PARAM = new byte[14];
    private static final byte[] PLUS_ONE = {1, 0, 0, 0, 0, 0, 0, 0};
    private static final byte[] MINUS_ONE = {-1, -1, -1, -1, -1, -1, -1, -1};

    private final Keyspace keyspace;
    private final HighContentionAllocator objectIds;
    private volatile ChangeListener changeListener;

    /**
     * Told of each key a transaction changes, as the change is made (before the commit): the
     * server's blocked clients use it to be served as soon as the transaction commits.
     */
    @FunctionalInterface
    public interface ChangeListener {
        void changed(Transaction tr, int db, byte[] key);
    }

    public KeyStore(Keyspace keyspace) {
        this.keyspace = keyspace;
        this.objectIds = new HighContentionAllocator(keyspace.allocatorSubspace());
    }

    public Keyspace keyspace() {
        return keyspace;
    }

    /** The key's metadata, expired or not; null when absent. */
    public CompletableFuture<KeyMeta> getRaw(ReadTransaction tr, int db, byte[] key) {
        return tr.get(keyspace.metaKey(db, key)).thenApply(v -> v == null ? null : KeyMeta.decode(v));
    }

    /** The key's metadata if it exists and has not expired at {@code now}; else null. */
    public CompletableFuture<KeyMeta> get(ReadTransaction tr, int db, byte[] key, long now) {
        return getRaw(tr, db, key).thenApply(m -> m == null || m.expiredAt(now) ? null : m);
    }

    /** As {@link #get}, and fails with WRONGTYPE unless the key is absent or of {@code type}. */
    public CompletableFuture<KeyMeta> get(ReadTransaction tr, int db, byte[] key, long now, RedisType type) {
        return get(tr, db, key, now).thenApply(m -> requireType(m, type));
    }

    /** The live metadata, deleting the key first if it has expired; null when absent. */
    public CompletableFuture<KeyMeta> getForWrite(Transaction tr, int db, byte[] key, long now) {
        return getRaw(tr, db, key).thenApply(m -> {
            if (m != null && m.expiredAt(now)) {
                delete(tr, db, key, m);
                return null;
            }
            return m;
        });
    }

    /** As {@link #getForWrite}, and fails with WRONGTYPE unless the key is absent or of {@code type}. */
    public CompletableFuture<KeyMeta> getForWrite(Transaction tr, int db, byte[] key, long now, RedisType type) {
        return getForWrite(tr, db, key, now).thenApply(m -> requireType(m, type));
    }

    public static KeyMeta requireType(KeyMeta m, RedisType type) {
        if (m != null && m.type() != type) {
            throw RedisException.wrongType();
        }
        return m;
    }

    /**
     * Writes the key's metadata, replacing {@code old} (what {@link #getForWrite} returned, or
     * null): moves its expiry index entry and its stamp. When {@code old} held another object,
     * that object's elements are cleared.
     */
    public void put(Transaction tr, int db, byte[] key, KeyMeta old, KeyMeta meta) {
        if (old != null) {
            if (old.hasExpiry() && old.expireAtMillis() != meta.expireAtMillis()) {
                tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
            }
            if (old.isObject() && !(meta.isObject() && ObjectRef.sameObject(old, meta))) {
                clearObject(tr, db, old);
            }
        } else {
            tr.mutate(MutationType.ADD, keyspace.countKey(db), PLUS_ONE);
        }
        if (meta.hasExpiry() && (old == null || old.expireAtMillis() != meta.expireAtMillis())) {
            tr.set(keyspace.expiryKey(meta.expireAtMillis(), db, key), new byte[0]);
        }
        tr.set(keyspace.metaKey(db, key), meta.encode());
        touch(tr, db, key);
    }

    /** Deletes the key: its metadata, its object's elements and its expiry entry; moves its stamp. */
    public void delete(Transaction tr, int db, byte[] key, KeyMeta old) {
        tr.clear(keyspace.metaKey(db, key));
        if (old.hasExpiry()) {
            tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
        }
        if (old.isObject()) {
            clearObject(tr, db, old);
        }
        tr.mutate(MutationType.ADD, keyspace.countKey(db), MINUS_ONE);
        touch(tr, db, key);
    }

    /**
     * Forgets the key's metadata and expiry entry without clearing its object (RENAME hands
     * the object to another key of the same database); moves its stamp.
     */
    public void detach(Transaction tr, int db, byte[] key, KeyMeta old) {
        tr.clear(keyspace.metaKey(db, key));
        if (old.hasExpiry()) {
            tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
        }
        tr.mutate(MutationType.ADD, keyspace.countKey(db), MINUS_ONE);
        touch(tr, db, key);
    }

    /** The number of keys in database {@code db}, expired ones not yet removed included (as Redis's DBSIZE). */
    public CompletableFuture<Long> count(ReadTransaction tr, int db) {
        return tr.get(keyspace.countKey(db)).thenApply(v -> v == null ? 0L
                : java.nio.ByteBuffer.wrap(v).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
    }

    /** Empties database {@code db}: its keys, stamps, objects and count. */
    public void flush(Transaction tr, int db) {
        tr.clear(keyspace.metaRange(db));
        tr.clear(keyspace.stampRange(db));
        tr.clear(keyspace.objectRange(db));
        tr.clear(keyspace.countKey(db));
    }

    /** The subspace of the object a key's metadata names. */
    public com.apple.foundationdb.subspace.Subspace objectOf(int db, KeyMeta meta) {
        return keyspace.object(db, ObjectRef.id(meta));
    }

    /** Marks the key changed without rewriting its metadata (a collection's element changed). */
    public void touch(Transaction tr, int db, byte[] key) {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, keyspace.stampKey(db, key), STAMP_PARAM);
        ChangeListener l = changeListener;
        if (l != null) {
            l.changed(tr, db, key);
        }
    }

    /** Sets the one listener told of every change ({@link #touch}); null for none. */
    public void listen(ChangeListener listener) {
        this.changeListener = listener;
    }

    /** A new object id, unique in the keyspace. */
    public CompletableFuture<byte[]> newObjectId(Transaction tr) {
        return objectIds.allocate(tr);
    }

    private void clearObject(Transaction tr, int db, KeyMeta old) {
        tr.clear(keyspace.object(db, ObjectRef.id(old)).range());
    }
}
