package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.RandomProbe;
import io.strata.redis.protocol.Reply;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * RANDOMKEY without reading the whole database: it reads the database's first and last
 * metadata keys, draws a random probe key between them and answers the first live key at or
 * after the probe (wrapping to the start past the last key).
 *
 * <p>Fairness: "uniform-ish". A key's chance is proportional to the gap in key space before
 * it, so keys of similar shape (the usual {@code user:1234}) come out about evenly, while a
 * key after a wide gap comes out more often. Redis's own pick is only approximately fair too.
 *
 * <p>Expired keys are stepped over (and left to the expiry cycle); the walk ends when it finds
 * a live key or has seen every key. Reads are snapshot reads plus one read conflict on the
 * chosen key, so the answer is serializable without conflicting on the range.
 */
final class RandomKeyCommand {
    private static final int BATCH = 64;
    private static final int MAX_BATCH = 10_000;

    private RandomKeyCommand() {
    }

    static void register(CommandTable t) {
        t.add("randomkey", 1, "readonly", 0, 0, 0, "keyspace", DATA, RandomKeyCommand::randomkey);
    }

    private static CompletableFuture<Reply> randomkey(Invocation inv, Transaction tr) {
        Keyspace keyspace = inv.server().keys().keyspace();
        Range all = keyspace.metaRange(inv.db());
        ReadTransaction snap = tr.snapshot();
        CompletableFuture<List<KeyValue>> first = snap.getRange(all, 1).asList();
        CompletableFuture<List<KeyValue>> last = snap.getRange(all, 1, true).asList();
        return first.thenCombine(last, (f, l) -> f.isEmpty() ? null : RandomProbe.between(f.get(0).getKey(), l.get(0).getKey()))
                .thenCompose(probe -> {
                    if (probe == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    return liveFrom(snap, probe, all.end, inv.now())
                            .thenCompose(k -> k != null ? CompletableFuture.completedFuture(k)
                                    : liveFrom(snap, all.begin, probe, inv.now()));
                })
                .thenApply(metaKey -> {
                    if (metaKey == null) {
                        return Reply.NULL_BULK;
                    }
                    tr.addReadConflictKey(metaKey);
                    return Reply.bulk(keyspace.keyOfMeta(metaKey));
                });
    }

    /** The first metadata key in {@code [from, to)} whose key has not expired, or null. */
    private static CompletableFuture<byte[]> liveFrom(ReadTransaction snap, byte[] from, byte[] to, long now) {
        return liveFrom(snap, from, to, now, BATCH);
    }

    /** Each further batch is twice as large, so a long run of expired keys costs few round trips (and little stack). */
    private static CompletableFuture<byte[]> liveFrom(ReadTransaction snap, byte[] from, byte[] to, long now, int batch) {
        return snap.getRange(KeySelector.firstGreaterOrEqual(from), KeySelector.firstGreaterOrEqual(to), batch).asList()
                .thenCompose(kvs -> {
                    for (KeyValue kv : kvs) {
                        if (!KeyMeta.decode(kv.getValue()).expiredAt(now)) {
                            return CompletableFuture.completedFuture(kv.getKey());
                        }
                    }
                    if (kvs.size() < batch) {
                        return CompletableFuture.completedFuture(null);
                    }
                    byte[] last = kvs.get(kvs.size() - 1).getKey();
                    byte[] after = Arrays.copyOf(last, last.length + 1);
                    return liveFrom(snap, after, to, now, Math.min(batch * 2, MAX_BATCH));
                });
    }
}
