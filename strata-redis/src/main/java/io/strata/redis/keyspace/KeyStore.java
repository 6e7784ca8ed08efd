package io.strata.redis.keyspace;

import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.allocator.HighContentionAllocator;
import io.strata.layers.interning.StringInterner;
import io.strata.redis.config.NotifyKeyspaceEvents;
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
 * <p>Keyspace events ({@link KeyspaceEvents}): the store publishes those that happen below
 * the commands — {@code new} when {@link #put} creates a key, {@code expired} when an expired
 * key is deleted ({@link #expire}), {@code keymiss} when a read lookup ({@link #get}) misses —
 * in the caller's transaction; commands publish their own events after their changes.
 *
 * <p>Counters: each database's key count and count of keys with an expiry move by atomic
 * ADD in the same transaction as the change, so they never need a scan and never conflict.
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
    private static final byte[] EMPTY = new byte[0];

    /**
     * Sequence bits of the member interner's ids: 2^8 sequences of 2^56 ids each. See
     * {@link #interner()} for why so few.
     */
    static final int MEMBER_SEQUENCE_BITS = 8;

    private final Keyspace keyspace;
    private final KeyspaceEvents events;
    private final HighContentionAllocator objectIds;
    private volatile ChangeListener changeListener;

    /**
     * Told of each key a transaction changes, as the change is made (before the commit): the
     * server's blocked clients use it to be served as soon as the transaction commits.
     */
    @FunctionalInterface
    public interface ChangeListener {
        void changed(Transaction tr, int db, byte[] key);

        /**
         * The change just reported for {@code key} was its deletion because its expiry had
         * passed: no client made it, whichever command's transaction found it expired.
         */
        default void expired(Transaction tr, int db, byte[] key) {
        }
    }
    private final StringInterner members;

    /** A store that publishes no keyspace events. */
    public KeyStore(Keyspace keyspace) {
        this(keyspace, new KeyspaceEvents((tr, channel, message) -> { }));
    }

    /**
     * A store that publishes through {@code events} what happens to keys below the commands:
     * a key created ({@code new}) and a key deleted because it expired ({@code expired}).
     */
    public KeyStore(Keyspace keyspace, KeyspaceEvents events) {
        this.keyspace = keyspace;
        this.events = events;
        this.objectIds = new HighContentionAllocator(keyspace.allocatorSubspace());
        this.members = StringInterner.sharded(keyspace.internerSubspace(), MEMBER_SEQUENCE_BITS,
                64 - MEMBER_SEQUENCE_BITS, 0);
    }

    public Keyspace keyspace() {
        return keyspace;
    }

    /** The keyspace notifications commands publish their events through. */
    public KeyspaceEvents events() {
        return events;
    }

    /** The key's metadata, expired or not; null when absent. */
    public CompletableFuture<KeyMeta> getRaw(ReadTransaction tr, int db, byte[] key) {
        return tr.get(keyspace.metaKey(db, key)).thenApply(v -> v == null ? null : KeyMeta.decode(v));
    }

    /**
     * Redis's {@code lookupKeyRead}: the key's metadata if it exists and has not expired at
     * {@code now}, else null — and a miss publishes {@code keymiss} when {@code tr} can write
     * (a snapshot read cannot). Read commands and the source keys of store commands look keys
     * up here; a write looks up with {@link #getForWrite}, and a lookup Redis makes without
     * notifying (OBJECT, MEMORY USAGE) with {@link #peek}.
     */
    public CompletableFuture<KeyMeta> get(ReadTransaction tr, int db, byte[] key, long now) {
        if (!events.enabled(NotifyKeyspaceEvents.KEY_MISS)) {
            return peek(tr, db, key, now);
        }
        return peek(tr, db, key, now).thenApply(m -> {
            if (m == null && tr instanceof Transaction writable) {
                events.publish(writable, NotifyKeyspaceEvents.KEY_MISS, "keymiss", db, key);
            }
            return m;
        });
    }

    /** The key's metadata if it exists and has not expired at {@code now}; else null. Publishes nothing. */
    public CompletableFuture<KeyMeta> peek(ReadTransaction tr, int db, byte[] key, long now) {
        return getRaw(tr, db, key).thenApply(m -> m == null || m.expiredAt(now) ? null : m);
    }

    /** As {@link #get}, and fails with WRONGTYPE unless the key is absent or of {@code type}. */
    public CompletableFuture<KeyMeta> get(ReadTransaction tr, int db, byte[] key, long now, RedisType type) {
        return get(tr, db, key, now).thenApply(m -> requireType(m, type));
    }

    /**
     * The live metadata, deleting the key first if it has expired; null when absent.
     *
     * <p>The deletion leaves the key's change stamp as it was ({@link #expireKeepingStamp}):
     * the deletion of an expired key is no change to a WATCH that saw it already expired —
     * Redis's {@code touchWatchedKey} clears such a key's "expired at WATCH" flag instead of
     * failing the EXEC ("Delete WATCHed stale keys should not fail EXEC") — and a WATCH that
     * saw it live sees at EXEC that it no longer is, one that saw it absent the stamp its
     * creation moved.
     */
    public CompletableFuture<KeyMeta> getForWrite(Transaction tr, int db, byte[] key, long now) {
        return getRaw(tr, db, key).thenCompose(m -> {
            if (m != null && m.expiredAt(now)) {
                return tr.get(keyspace.stampKey(db, key)).thenApply(stamp -> {
                    expireKeepingStamp(tr, db, key, m, stamp);
                    return (KeyMeta) null;
                });
            }
            return CompletableFuture.completedFuture(m);
        });
    }

    /**
     * Deletes a key whose expiry has passed, as {@link #expire} does, but leaves its change
     * stamp ({@code stamp}, as this transaction read it; null: none) where it was, recorded in
     * the dead-stamp index so that the sweep ({@link WatchRegistry}) clears it once no WATCH
     * can need it.
     */
    public void expireKeepingStamp(Transaction tr, int db, byte[] key, KeyMeta old, byte[] stamp) {
        clearKey(tr, db, key, old);
        if (stamp != null) {
            tr.set(keyspace.deadStampKey(db, key, stamp), EMPTY);
        }
        ChangeListener l = changeListener;
        if (l != null) {
            l.changed(tr, db, key);
        }
        expired(tr, db, key);
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
     * that object's elements are cleared. A null {@code old} means the key is created: the
     * {@code new} event is published (callers replacing a live key must pass it).
     */
    public void put(Transaction tr, int db, byte[] key, KeyMeta old, KeyMeta meta) {
        if (old != null ? old.hasExpiry() != meta.hasExpiry() : meta.hasExpiry()) {
            tr.mutate(MutationType.ADD, keyspace.expiresCountKey(db), meta.hasExpiry() ? PLUS_ONE : MINUS_ONE);
        }
        if (old != null) {
            if (old.hasExpiry() && old.expireAtMillis() != meta.expireAtMillis()) {
                tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
            }
            if (old.isObject() && !(meta.isObject() && ObjectRef.sameObject(old, meta))) {
                clearObject(tr, db, old);
            }
        } else {
            tr.mutate(MutationType.ADD, keyspace.countKey(db), PLUS_ONE);
            events.publish(tr, NotifyKeyspaceEvents.NEW, "new", db, key);
        }
        if (meta.hasExpiry() && (old == null || old.expireAtMillis() != meta.expireAtMillis())) {
            tr.set(keyspace.expiryKey(meta.expireAtMillis(), db, key), new byte[0]);
        }
        tr.set(keyspace.metaKey(db, key), meta.encode());
        touch(tr, db, key);
    }

    /** Deletes the key: its metadata, its object's elements and its expiry entry; moves its stamp. */
    public void delete(Transaction tr, int db, byte[] key, KeyMeta old) {
        clearKey(tr, db, key, old);
        touch(tr, db, key);
        buryStamp(tr, db, key);
    }

    /**
     * Deletes the key as {@link #delete} does, but clears its change stamp instead of moving
     * it when no WATCH in force can need it: {@code stamp}, the key's stamp as this
     * transaction read it (serializably), is at or below {@code floor}, the read version of
     * the oldest WATCH in force ({@link WatchRegistry#floor}). Every such WATCH then read
     * after the key's last change, saw it exist, and sees at EXEC that it no longer does; so
     * the deletion needs neither a new stamp nor the sweep. For the batch paths (eviction,
     * active expiry), which read the floor once for many keys.
     */
    public void deleteUnwatched(Transaction tr, int db, byte[] key, KeyMeta old, byte[] stamp, long floor) {
        clearKey(tr, db, key, old);
        if (stamp == null || stampVersion(stamp) <= floor) {
            tr.clear(keyspace.stampKey(db, key));
            ChangeListener l = changeListener;
            if (l != null) {
                l.changed(tr, db, key);
            }
        } else {
            touch(tr, db, key);
            buryStamp(tr, db, key);
        }
    }

    /** The commit version a stamp (a versionstamp: 8 bytes of version, 2 of order) was written at. */
    private static long stampVersion(byte[] stamp) {
        return java.nio.ByteBuffer.wrap(stamp, 0, 8).getLong();
    }

    /** Everything of the key but its stamp: metadata, object, expiry entry, counts. */
    private void clearKey(Transaction tr, int db, byte[] key, KeyMeta old) {
        tr.clear(keyspace.metaKey(db, key));
        if (old.hasExpiry()) {
            tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
            tr.mutate(MutationType.ADD, keyspace.expiresCountKey(db), MINUS_ONE);
        }
        if (old.isObject()) {
            clearObject(tr, db, old);
        }
        tr.mutate(MutationType.ADD, keyspace.countKey(db), MINUS_ONE);
    }

    /**
     * Records the stamp a deletion leaves in the dead-stamp index, so that the sweep
     * ({@link WatchRegistry}) clears it once no WATCH can need it.
     */
    private void buryStamp(Transaction tr, int db, byte[] key) {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, keyspace.deadStampParam(db, key), EMPTY);
    }

    /** Deletes a key whose expiry has passed (a write found it, or active expiry) and publishes {@code expired}. */
    public void expire(Transaction tr, int db, byte[] key, KeyMeta old) {
        delete(tr, db, key, old);
        expired(tr, db, key);
    }

    /**
     * As {@link #expire}, clearing the stamp when no WATCH can need it ({@link #deleteUnwatched}),
     * else leaving it where it was ({@link #expireKeepingStamp}: the deletion of an expired key
     * is no change to a WATCH that saw it expired).
     */
    public void expireUnwatched(Transaction tr, int db, byte[] key, KeyMeta old, byte[] stamp, long floor) {
        if (stamp == null || stampVersion(stamp) <= floor) {
            deleteUnwatched(tr, db, key, old, stamp, floor);
            expired(tr, db, key);
        } else {
            expireKeepingStamp(tr, db, key, old, stamp);
        }
    }

    private void expired(Transaction tr, int db, byte[] key) {
        ChangeListener l = changeListener;
        if (l != null) {
            l.expired(tr, db, key);
        }
        events.publish(tr, NotifyKeyspaceEvents.EXPIRED, "expired", db, key);
    }

    /**
     * A write gave the key an expiry already past, so it is not stored (or was just deleted):
     * moves its stamp, as storing it would have, and tells the listeners it expired — a change
     * of no client, as when Redis stores the key and finds it expired afterwards.
     */
    public void expiredAtOnce(Transaction tr, int db, byte[] key) {
        touch(tr, db, key);
        buryStamp(tr, db, key);
        ChangeListener l = changeListener;
        if (l != null) {
            l.expired(tr, db, key);
        }
    }

    /**
     * Forgets the key's metadata and expiry entry without clearing its object (RENAME hands
     * the object to another key of the same database); moves its stamp.
     */
    public void detach(Transaction tr, int db, byte[] key, KeyMeta old) {
        tr.clear(keyspace.metaKey(db, key));
        if (old.hasExpiry()) {
            tr.clear(keyspace.expiryKey(old.expireAtMillis(), db, key));
            tr.mutate(MutationType.ADD, keyspace.expiresCountKey(db), MINUS_ONE);
        }
        tr.mutate(MutationType.ADD, keyspace.countKey(db), MINUS_ONE);
        touch(tr, db, key);
        buryStamp(tr, db, key);
    }

    /** The number of keys in database {@code db}, expired ones not yet removed included (as Redis's DBSIZE). */
    public CompletableFuture<Long> count(ReadTransaction tr, int db) {
        return tr.get(keyspace.countKey(db)).thenApply(v -> v == null ? 0L
                : java.nio.ByteBuffer.wrap(v).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong());
    }

    /**
     * Swaps the contents of databases {@code a} and {@code b} (SWAPDB) inside {@code tr}: every
     * key, object, count and expiry entry of each moves to the other. It rewrites both
     * databases, so it must fit one transaction (FoundationDB's 10 MB and 5 s). Stamps stay
     * with the key's name in its database; the stamp of every key present in either database
     * is moved on in both, so WATCH and blocked clients see the swap as the change it is, and
     * a key absent from both sees none (as Redis's {@code touchAllWatchedKeysInDb}).
     */
    public CompletableFuture<Void> swap(Transaction tr, int a, int b) {
        java.util.List<CompletableFuture<java.util.List<com.apple.foundationdb.KeyValue>>> reads = new java.util.ArrayList<>();
        for (int db : new int[] {a, b}) {
            for (com.apple.foundationdb.Range r : keyspace.databaseRanges(db)) {
                reads.add(tr.getRange(r).asList());
            }
        }
        CompletableFuture<java.util.List<com.apple.foundationdb.KeyValue>> expiries = tr.getRange(keyspace.expiryIndex()).asList();
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenCombine(expiries, (ignored, index) -> {
            int half = reads.size() / 2;
            // Clear both databases first, then write each one's keys under the other's number.
            for (int db : new int[] {a, b}) {
                for (com.apple.foundationdb.Range r : keyspace.databaseRanges(db)) {
                    tr.clear(r);
                }
            }
            for (int i = 0; i < reads.size(); i++) {
                int to = i < half ? b : a;
                for (com.apple.foundationdb.KeyValue kv : reads.get(i).join()) {
                    tr.set(keyspace.inDatabase(kv.getKey(), to), kv.getValue());
                }
            }
            for (com.apple.foundationdb.KeyValue kv : index) {
                Keyspace.ExpiryEntry e = keyspace.expiryEntry(kv.getKey());
                if (e.db() == a || e.db() == b) {
                    tr.clear(kv.getKey());
                }
            }
            for (com.apple.foundationdb.KeyValue kv : index) {
                Keyspace.ExpiryEntry e = keyspace.expiryEntry(kv.getKey());
                if (e.db() == a || e.db() == b) {
                    tr.set(keyspace.expiryInDatabase(kv.getKey(), e.db() == a ? b : a), kv.getValue());
                }
            }
            // Every key of either database changed: move its stamp on.
            for (int i = 0; i < reads.size(); i++) {
                for (com.apple.foundationdb.KeyValue kv : reads.get(i).join()) {
                    byte[] k = kv.getKey();
                    if (k[keyspace.prefix().length] == Keyspace.META) {
                        byte[] key = keyspace.keyOfMeta(k);
                        touch(tr, a, key);
                        touch(tr, b, key);
                    }
                }
            }
            return null;
        });
    }

    /**
     * Empties database {@code db}: its keys, objects and counts, in a few range clears.
     *
     * <p>The keys' change stamps stay, and the flush is recorded for the sweep that clears
     * them once no WATCH can need them ({@link WatchRegistry}): a key absent at a WATCH that
     * another client then created and this flush removed ends absent, as it began, and only
     * its stamp tells EXEC that it changed — Redis fails such an EXEC too, since the creation
     * touched the key.
     */
    public void flush(Transaction tr, int db) {
        tr.clear(keyspace.metaRange(db));
        tr.clear(keyspace.objectRange(db));
        tr.clear(keyspace.countKey(db));
        tr.clear(keyspace.expiresCountKey(db));
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, keyspace.flushParam(db), EMPTY);
    }

    /**
     * Every database's number of keys and of keys with an expiry (INFO keyspace), by database;
     * databases never written are absent.
     */
    public CompletableFuture<java.util.SortedMap<Integer, long[]>> counts(ReadTransaction tr) {
        return tr.getRange(keyspace.countRange()).asList().thenApply(kvs -> {
            java.util.SortedMap<Integer, long[]> out = new java.util.TreeMap<>();
            for (com.apple.foundationdb.KeyValue kv : kvs) {
                Keyspace.CounterKey c = keyspace.counterKey(kv.getKey());
                long n = java.nio.ByteBuffer.wrap(kv.getValue()).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
                out.computeIfAbsent(c.db(), d -> new long[2])[c.expires() ? 1 : 0] = n;
            }
            return out;
        });
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

    /** Adds a listener told of every change ({@link #touch}), after those added before it. */
    public synchronized void listen(ChangeListener listener) {
        ChangeListener before = changeListener;
        this.changeListener = before == null ? listener : new ChangeListener() {
            @Override
            public void changed(Transaction tr, int db, byte[] key) {
                before.changed(tr, db, key);
                listener.changed(tr, db, key);
            }

            @Override
            public void expired(Transaction tr, int db, byte[] key) {
                before.expired(tr, db, key);
                listener.expired(tr, db, key);
            }
        };
    }

    /**
     * The one interner of the server: set members (of every set, in every database) become
     * uint64 ids here, so that the same member has the same id in every set and set algebra
     * is bitmap algebra on the ids.
     *
     * <p><b>Allocator.</b> Random sharded sequences with only {@value #MEMBER_SEQUENCE_BITS}
     * sequence bits ({@code ShardedSequenceAllocator}: an id is {@code sequence << 56 | n}).
     * Versionstamp ids are out: they are known only at commit, and SADD must add the id to
     * the set in the transaction that interns it. The High Contention Allocator costs one
     * allocation per new member (a SADD of a thousand new members would make a thousand),
     * and writes a reverse block per string. One counter makes every pair of concurrent
     * SADDs of new members conflict. Sharded sequences reserve a whole batch with one
     * counter read and write and give it consecutive ids, so a SADD's new members share one
     * reverse block and, in the set, few roaring containers. The seed's 32 sequence bits
     * would scatter members that arrive one per SADD over 2^32 sequences, a roaring
     * container per member, which is where roaring algebra loses its advantage (see
     * {@code SetAlgebra}); 8 bits keep every set's members in at most 256 dense runs (a
     * million members fill a few hundred containers, not a million) while two concurrent
     * interning transactions pick the same counter, and one retries, once in 256.
     *
     * <p><b>Never freed.</b> As in the interner's design, a mapping is forever: removing a
     * member from its last set, or deleting the set, leaves its string and id in the
     * interner. The interner grows with the number of distinct members ever added (about
     * twice the member's bytes plus 8 per member); nothing can tell that an id is unused
     * without reference counts, which would make every SADD and SREM write a shared key.
     *
     * <p>No cache: the interner's cache is filled only by calls that run their own
     * transaction, and commands intern inside theirs.
     */
    public StringInterner interner() {
        return members;
    }

    /** A new object id, unique in the keyspace. */
    public CompletableFuture<byte[]> newObjectId(Transaction tr) {
        return objectIds.allocate(tr);
    }

    private void clearObject(Transaction tr, int db, KeyMeta old) {
        tr.clear(keyspace.object(db, ObjectRef.id(old)).range());
    }
}
