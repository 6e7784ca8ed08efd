package io.strata.redis.commands;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.layers.set.RoaringSet;
import io.strata.redis.command.ServerContext;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.keyspace.ObjectRef;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.rdb.RdbValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * RESTORE of a list, set, hash or sorted set too large to be written in the command's one transaction
 * (FoundationDB carries at most 10,000,000 bytes): the value is <em>staged</em> before the
 * command runs, as {@link LargeValues} stages a large string — its elements written over
 * several transactions into a fresh object that no key names yet — and the command's own
 * transaction then claims it and writes the key's metadata naming it. So such a RESTORE is
 * as atomic as any: readers see the old value or the whole new one; BUSYKEY, the TTL and
 * REPLACE are decided in the command's transaction as always, and a staged value the command
 * did not take is cleared after it (or, if the server died, by {@link LargeValues#cleanup}).
 *
 * <p>Each staging transaction writes elements worth at most {@link #CHUNK_BYTES} of
 * transaction size (estimated as {@link RestoredValues} estimates it) and renews the staged
 * object's lease. A sorted set's keys — scores, the ranked set's levels as its one-pass bulk
 * load computes them ({@code RankedSet.addAllToEmptyWrites}), the count — are all blind sets
 * independent of each other, so they are spread over transactions the same way.
 *
 * <p>Concurrency: the object's id is fresh (the High Contention Allocator), so no other
 * transaction writes under it and the staging transactions need no reads but the lease's;
 * set members are interned with the interner's own serializable reads, as in any SADD.
 */
final class StagedCollections {
    /** Transaction size per staging transaction: a quarter of FoundationDB's limit. */
    static final long CHUNK_BYTES = 2_500_000;
    /** Payloads shorter than this hold values that fit one transaction: not decoded twice. */
    private static final int SMALLEST_STAGED_PAYLOAD = 64 * 1024;

    private StagedCollections() {
    }

    /**
     * {@link io.strata.redis.command.CommandTable.ObjectStager} for RESTORE's payload: stages
     * the list, set or hash it holds when that is too large for one transaction; null for
     * anything else (a small value, a string, a sorted set, a malformed payload: the command
     * itself answers those).
     */
    static CompletableFuture<?> stageIfLarge(ServerContext server, byte[] payload, int db) {
        if (payload.length < SMALLEST_STAGED_PAYLOAD) {
            return null;
        }
        // Decoding megabytes takes milliseconds: not on the caller's thread, which may be an event loop.
        Database database = server.database();
        return CompletableFuture.supplyAsync(() -> largeValue(server.keys(), payload, db), database.getExecutor())
                .thenCompose(value -> {
                    if (value == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    LargeValues large = server.largeValues();
                    return large.stageObject(db, payload, elementCount(value), null, server.keys()::newObjectId,
                            staged -> writeChunks(database, large, server.keys(), staged, value));
                });
    }

    /** The collection the payload holds if it is too large for one transaction; null otherwise, or if RESTORE will refuse it. */
    private static RdbValue largeValue(KeyStore keys, byte[] payload, int db) {
        try {
            RdbValue value = DumpRestoreCommands.decode(payload);
            if (value instanceof RdbValue.StringValue || value instanceof RdbValue.StreamData) {
                // Strings are staged as SET stages them; a stream is not staged (RESTORE refuses one too large).
                return null;
            }
            return RestoredValues.bytesToStore(keys, db, value) > StringValues.MAX_IN_TRANSACTION ? value : null;
        } catch (RedisException refused) {
            return null;
        }
    }

    private static long elementCount(RdbValue value) {
        if (value instanceof RdbValue.ListValue l) {
            return l.elements().size();
        }
        if (value instanceof RdbValue.SetValue s) {
            return s.members().size();
        }
        if (value instanceof RdbValue.ZSetValue z) {
            return z.members().size();
        }
        return ((RdbValue.HashValue) value).fields().size();
    }

    /** Writes the elements in order, one staging transaction per {@link #CHUNK_BYTES}. */
    private static CompletableFuture<Void> writeChunks(Database database, LargeValues large, KeyStore keys,
                                                       LargeValues.Staged staged, RdbValue value) {
        if (value instanceof RdbValue.ZSetValue z) {
            ZSetObject zset = new ZSetObject(keys.keyspace().object(staged.db(), staged.id()));
            return writePairs(database, large, staged, zset.newWrites(z.members(), z.scores()));
        }
        int p = RestoredValues.objectKeyBytes(keys, staged.db());
        int n = (int) elementCount(value);
        List<int[]> chunks = new ArrayList<>();
        int start = 0;
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            long b = elementBytes(value, p, i);
            if (i > start && bytes + b > CHUNK_BYTES) {
                chunks.add(new int[] {start, i});
                start = i;
                bytes = 0;
            }
            bytes += b;
        }
        chunks.add(new int[] {start, n});
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        for (int[] chunk : chunks) {
            done = done.thenCompose(ignored -> database.runAsync(tr -> large.inLease(tr, staged)
                    .thenCompose(leased -> writeChunk(tr, keys, staged, value, chunk[0], chunk[1]))));
        }
        return done;
    }

    /** Writes {key, value} pairs of blind sets, one staging transaction per {@link #CHUNK_BYTES}. */
    static CompletableFuture<Void> writePairs(Database database, LargeValues large, LargeValues.Staged staged,
                                              List<byte[][]> pairs) {
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
        int start = 0;
        while (start < pairs.size()) {
            int end = start;
            long bytes = 0;
            while (end < pairs.size()) {
                long b = RestoredValues.written(pairs.get(end)[0].length, pairs.get(end)[1].length);
                if (end > start && bytes + b > CHUNK_BYTES) {
                    break;
                }
                bytes += b;
                end++;
            }
            List<byte[][]> chunk = pairs.subList(start, end);
            done = done.thenCompose(ignored -> database.runAsync(tr -> large.inLease(tr, staged).thenRun(() -> {
                for (byte[][] kv : chunk) {
                    tr.set(kv[0], kv[1]);
                }
            })));
            start = end;
        }
        return done;
    }

    private static long elementBytes(RdbValue value, int p, int i) {
        if (value instanceof RdbValue.ListValue l) {
            return RestoredValues.listElementBytes(p, l.elements().get(i));
        }
        if (value instanceof RdbValue.SetValue s) {
            return RestoredValues.setMemberBytes(p, s.members().get(i));
        }
        RdbValue.HashValue h = (RdbValue.HashValue) value;
        return RestoredValues.hashFieldBytes(p, h.fields().get(i), h.values().get(i));
    }

    /** Writes elements {@code [from, to)} into the staged object. */
    private static CompletableFuture<Void> writeChunk(Transaction tr, KeyStore keys, LargeValues.Staged staged, RdbValue value,
                                                      int from, int to) {
        int db = staged.db();
        if (value instanceof RdbValue.ListValue l) {
            ListElements elements = new ListElements(keys.keyspace().object(db, staged.id()).getKey());
            for (int i = from; i < to; i++) {
                elements.write(tr, i, l.elements().get(i));
            }
            return CompletableFuture.completedFuture(null);
        }
        if (value instanceof RdbValue.SetValue s) {
            RoaringSet ids = new RoaringSet(keys.objectOf(db, SetValues.newMeta(staged.id())));
            return keys.interner().internAll(tr, s.members().subList(from, to))
                    .thenCompose(interned -> ids.addAll(tr, interned))
                    .thenApply(added -> null);
        }
        RdbValue.HashValue h = (RdbValue.HashValue) value;
        HashObject hash = HashObject.of(keys, db, hashMeta(staged.id(), 0));
        for (int i = from; i < to; i++) {
            hash.put(tr, h.fields().get(i), h.values().get(i));
        }
        hash.addToSize(tr, to - from);
        return CompletableFuture.completedFuture(null);
    }

    private static KeyMeta hashMeta(byte[] id, long expireAt) {
        return new KeyMeta(RedisType.HASH, KeyMeta.OBJECT, expireAt, ObjectRef.payload(id, new byte[0]));
    }

    /**
     * In RESTORE's transaction: takes the staged {@code value} (which {@link #stageIfLarge}
     * wrote) for {@code key}, replacing {@code old} (or null), with expiry {@code expireAt}.
     */
    static CompletableFuture<Void> claim(Transaction tr, KeyStore keys, LargeValues large, LargeValues.Staged staged,
                                         int db, byte[] key, KeyMeta old, RdbValue value, long expireAt) {
        if (staged.db() != db) {
            throw new RedisException("ERR a value too large for one transaction is stored in the database selected"
                    + " when its command (or EXEC) began, not after a SELECT");
        }
        KeyMeta meta;
        if (value instanceof RdbValue.ListValue l) {
            byte[] header = new ListHeader(0, l.elements().size()).encode();
            meta = new KeyMeta(RedisType.LIST, KeyMeta.OBJECT, expireAt, ObjectRef.payload(staged.id(), header));
        } else if (value instanceof RdbValue.SetValue) {
            meta = SetValues.newMeta(staged.id()).withExpiry(expireAt);
        } else if (value instanceof RdbValue.ZSetValue) {
            meta = new KeyMeta(RedisType.ZSET, KeyMeta.OBJECT, expireAt, ObjectRef.payload(staged.id(), new byte[0]));
        } else {
            meta = hashMeta(staged.id(), expireAt);
        }
        return large.claim(tr, staged).thenRun(() -> keys.put(tr, db, key, old, meta));
    }
}
