package io.strata.redis.commands;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.interning.StringInterner;
import io.strata.layers.set.RoaringSet;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A set key as stored: its members are interned to uint64 ids by the server's one interner
 * ({@link KeyStore#interner()}) and the ids are a {@link RoaringSet} in the key's object
 * subspace, so set algebra is bitmap algebra on ids and replies turn ids back into members
 * with one batched reverse lookup.
 *
 * <h2>Key layout</h2>
 * <pre>
 * P 'k' db key                   -&gt; KeyMeta: type SET, flag OBJECT, payload = object id ++ 'r'
 * P 'o' db id (0)                -&gt; the member count (RoaringSet's counter, atomic ADD): SCARD
 * P 'o' db id (1) ++ high48[6]   -&gt; a roaring container of the ids sharing those high 48 bits
 * P 'i' ...                      -&gt; the interner: member bytes &lt;-&gt; id, shared by every set
 * </pre>
 * The header byte {@code 'r'} names this encoding, so that another one can be told apart
 * later. A set is never empty: the command that removes its last member deletes the key.
 * Interned members are never freed (see {@link KeyStore#interner()}).
 *
 * <p>Members are binary-safe byte strings of at most the interner's
 * {@link StringInterner#maxStringBytes()} (FoundationDB's 10,000-byte key limit less the
 * interner's prefix); a longer member is refused before anything is written.
 *
 * <p>Concurrency: everything runs in the command's transaction. Membership changes read the
 * touched containers serializably (RoaringSet), interning reads the member's forward key
 * serializably (StringInterner), and the command's metadata read is serializable, so
 * concurrent commands on one set conflict where they overlap and one retries.
 */
final class SetValues {
    /** The metadata header of a set kept as interned ids in a roaring set. */
    private static final byte[] ROARING = {'r'};

    private SetValues() {
    }

    static KeyStore keys(Invocation inv) {
        return inv.server().keys();
    }

    static StringInterner interner(Invocation inv) {
        return keys(inv).interner();
    }

    /** The ids of the set whose metadata is {@code meta}. */
    static RoaringSet ids(Invocation inv, KeyMeta meta) {
        return new RoaringSet(keys(inv).objectOf(inv.db(), meta));
    }

    /** The metadata of a new set whose ids live under object {@code objectId}. */
    static KeyMeta newMeta(byte[] objectId) {
        return new KeyMeta(RedisType.SET, KeyMeta.OBJECT, 0, ObjectRef.payload(objectId, ROARING));
    }

    /** The set's metadata if the key holds a live set, null if absent; WRONGTYPE otherwise. */
    static CompletableFuture<KeyMeta> get(Invocation inv, ReadTransaction tr, byte[] key) {
        return keys(inv).get(tr, inv.db(), key, inv.now(), RedisType.SET);
    }

    /** As {@link #get}, deleting an expired key first (for commands that write). */
    static CompletableFuture<KeyMeta> getForWrite(Invocation inv, Transaction tr, byte[] key) {
        return keys(inv).getForWrite(tr, inv.db(), key, inv.now(), RedisType.SET);
    }

    /** Arguments {@code from} to the end as members to add: each must fit the interner. */
    static List<byte[]> membersToAdd(Invocation inv, int from) {
        int max = interner(inv).maxStringBytes();
        List<byte[]> members = new ArrayList<>(inv.argc() - from);
        for (int i = from; i < inv.argc(); i++) {
            if (inv.arg(i).length > max) {
                throw tooLong(max);
            }
            members.add(inv.arg(i));
        }
        return members;
    }

    static RedisException tooLong(int max) {
        return new RedisException("ERR set members longer than " + max + " bytes are not supported");
    }

    /** Whether {@code member} could have been interned at all (a longer one is in no set). */
    static boolean internable(Invocation inv, byte[] member) {
        return member.length <= interner(inv).maxStringBytes();
    }

    /**
     * The id of each of {@code members} if it is interned, in order; empty for one never
     * interned (or too long to be). Never interns.
     */
    static CompletableFuture<List<OptionalLong>> findIds(Invocation inv, ReadTransaction tr, List<byte[]> members) {
        List<byte[]> lookable = new ArrayList<>(members.size());
        for (byte[] m : members) {
            if (internable(inv, m)) {
                lookable.add(m);
            }
        }
        return interner(inv).findAll(tr, lookable).thenApply(found -> {
            List<OptionalLong> ids = new ArrayList<>(members.size());
            int j = 0;
            for (byte[] m : members) {
                ids.add(internable(inv, m) ? found.get(j++) : OptionalLong.empty());
            }
            return ids;
        });
    }

    /** The members named by {@code ids}, in the same order (one batched reverse lookup). */
    static CompletableFuture<List<byte[]>> strings(Invocation inv, ReadTransaction tr, long[] ids) {
        return interner(inv).lookupAll(tr, ids).thenApply(found -> {
            List<byte[]> out = new ArrayList<>(found.size());
            for (int i = 0; i < found.size(); i++) {
                Optional<byte[]> s = found.get(i);
                if (s.isEmpty()) {
                    throw new IllegalStateException("set member id " + Long.toUnsignedString(ids[i]) + " names no string");
                }
                out.add(s.get());
            }
            return out;
        });
    }

    /** The members of {@code bitmap} (ids), in id order. */
    static CompletableFuture<List<byte[]>> strings(Invocation inv, ReadTransaction tr, Roaring64Bitmap bitmap) {
        return strings(inv, tr, toArray(bitmap));
    }

    static long[] toArray(Roaring64Bitmap bitmap) {
        long[] ids = new long[Math.toIntExact(bitmap.getLongCardinality())];
        int n = 0;
        for (LongIterator it = bitmap.getLongIterator(); it.hasNext(); ) {
            ids[n++] = it.next();
        }
        return ids;
    }

    /** The members of {@code bitmap} as a set reply (RESP3 set, RESP2 array). */
    static CompletableFuture<Reply> setReply(Invocation inv, ReadTransaction tr, Roaring64Bitmap bitmap) {
        if (bitmap.isEmpty()) {
            return CompletableFuture.completedFuture(Reply.set(List.of()));
        }
        return strings(inv, tr, bitmap).thenApply(SetValues::setOf);
    }

    static Reply setOf(List<byte[]> members) {
        List<Reply> items = new ArrayList<>(members.size());
        for (byte[] m : members) {
            items.add(Reply.bulk(m));
        }
        return Reply.set(items);
    }

    /**
     * After members were removed from the set: publishes {@code event}, then deletes the key
     * if it is now empty (Redis keeps no empty set) and publishes {@code del}, else marks it
     * changed. Reads the counter serializably: a set another transaction refilled meanwhile
     * must not be deleted.
     */
    static CompletableFuture<Void> afterRemoval(Invocation inv, Transaction tr, byte[] key, KeyMeta meta, String event) {
        return ids(inv, meta).cardinality(tr).thenAccept(n -> {
            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.SET, event, key);
            if (n == 0) {
                keys(inv).delete(tr, inv.db(), key, meta);
                inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", key);
            } else {
                keys(inv).touch(tr, inv.db(), key);
            }
        });
    }
}
