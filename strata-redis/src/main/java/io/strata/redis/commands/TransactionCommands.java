package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.ClientSession.WatchState;
import io.strata.redis.command.ClientSession.WatchedKey;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * MULTI, EXEC, DISCARD, WATCH and UNWATCH.
 *
 * <p>EXEC runs the whole queue as <em>one</em> database transaction, so its commands are
 * atomic together, not only one by one. WATCH remembers each key's change stamp (the
 * versionstamp of the last transaction that changed it, see {@code Keyspace}); EXEC re-reads
 * the stamps inside its transaction and answers nil when one moved or a key that was live at
 * WATCH has since expired — exactly when Redis would. Because those reads are serializable, a
 * change that lands while EXEC runs makes the transaction conflict; the retry then sees the
 * moved stamp and answers nil. Conflicts on keys that are not watched are retried inside and
 * never turn into a nil reply.
 */
final class TransactionCommands {
    private TransactionCommands() {
    }

    static void register(CommandTable t) {
        t.add("multi", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transaction", LOCAL, (inv, tr) -> multi(inv));
        t.add("exec", 1, "noscript loading stale skip_slowlog", 0, 0, 0, "transaction", LOCAL, (inv, tr) -> exec(inv));
        t.add("discard", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transaction", LOCAL, (inv, tr) -> discard(inv));
        t.add("watch", -2, "noscript loading stale fast allow_busy", 1, -1, 1, "transaction", DATA, TransactionCommands::watch);
        t.add("unwatch", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transaction", LOCAL, (inv, tr) -> {
            inv.session().unwatchAll();
            return done(Reply.OK);
        });
    }

    private static CompletableFuture<Reply> multi(Invocation inv) {
        if (inv.session().inMulti()) {
            throw new RedisException("ERR MULTI calls can not be nested");
        }
        inv.session().beginMulti();
        return done(Reply.OK);
    }

    private static CompletableFuture<Reply> discard(Invocation inv) {
        if (!inv.session().inMulti()) {
            throw new RedisException("ERR DISCARD without MULTI");
        }
        inv.session().endMulti();
        inv.session().unwatchAll();
        return done(Reply.OK);
    }

    private static CompletableFuture<Reply> watch(Invocation inv, Transaction tr) {
        ClientSession s = inv.session();
        if (s.inMulti()) {
            throw new RedisException("ERR WATCH inside MULTI is not allowed");
        }
        KeyStore keys = inv.server().keys();
        long now = inv.now();
        int db = s.db();
        Map<WatchedKey, WatchState> seen = new HashMap<>();
        List<CompletableFuture<Void>> reads = new ArrayList<>();
        // Holds the floor under which deleted keys' stamps are swept (WatchRegistry), before this commits.
        // A connection already watching holds the floor at its first WATCH's version, lower still.
        boolean first = s.watchVersion() == Long.MAX_VALUE;
        reads.add(tr.getReadVersion().thenAccept(readVersion -> {
            s.watchingSince(readVersion);
            if (first) {
                inv.server().watchRegistry().watching(tr, readVersion, now);
            }
        }));
        for (int i = 1; i < inv.argc(); i++) {
            byte[] key = inv.arg(i);
            reads.add(state(tr, keys, db, key, now).thenAccept(st -> {
                synchronized (seen) {
                    seen.put(new WatchedKey(db, ByteBuffer.wrap(key)), st);
                }
            }));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            // A key watched again keeps its first state, as Redis keeps the first WATCH.
            seen.forEach(s.watched()::putIfAbsent);
            return Reply.OK;
        });
    }

    private static CompletableFuture<WatchState> state(Transaction tr, KeyStore keys, int db, byte[] key, long now) {
        CompletableFuture<byte[]> stamp = tr.get(keys.keyspace().stampKey(db, key));
        CompletableFuture<KeyMeta> meta = keys.getRaw(tr, db, key);
        return stamp.thenCombine(meta, (st, m) -> new WatchState(st, m != null && !m.expiredAt(now)));
    }

    private static CompletableFuture<Reply> exec(Invocation inv) {
        ClientSession s = inv.session();
        if (!s.inMulti()) {
            throw new RedisException("ERR EXEC without MULTI");
        }
        boolean dirty = s.multiDirty();
        List<byte[][]> queued = s.endMulti();
        Map<WatchedKey, WatchState> watched = new HashMap<>(s.watched());
        if (dirty) {
            s.unwatchAll();
            throw new RedisException("EXECABORT Transaction discarded because of previous errors.");
        }
        // The watched keys' floor holds until the check below has committed or failed.
        long since = s.watchVersion();
        s.watched().clear();
        List<Reply> denials = inv.server().executor().recheckQueued(s, queued);
        int startDb = s.db();
        KeyStore keys = inv.server().keys();
        return inv.server().executor().runInTransaction(tr -> {
            s.db(startDb);
            long now = inv.now();
            return unchanged(tr, keys, watched, now).thenCompose(ok -> {
                if (!ok) {
                    return CompletableFuture.completedFuture((Reply) null);
                }
                return inv.server().executor().executeAll(s, queued, denials, tr).thenApply(Reply::array);
            });
        }, r -> {
            if (r != null) {
                inv.server().executor().accountTransaction(s, queued, r);
            }
        }).whenComplete((r, e) -> s.execDone(since)).thenApply(r -> r == null ? Reply.NULL_ARRAY : r);
    }

    private static CompletableFuture<Boolean> unchanged(Transaction tr, KeyStore keys, Map<WatchedKey, WatchState> watched, long now) {
        List<CompletableFuture<Boolean>> checks = new ArrayList<>();
        for (Map.Entry<WatchedKey, WatchState> e : watched.entrySet()) {
            byte[] key = new byte[e.getKey().key().remaining()];
            e.getKey().key().duplicate().get(key);
            WatchState before = e.getValue();
            // A stamp gone from a key absent at WATCH is one the sweep cleared: older than
            // this WATCH (WatchRegistry), so no change since.
            checks.add(state(tr, keys, e.getKey().db(), key, now).thenApply(after ->
                    (Arrays.equals(before.stamp(), after.stamp()) || (after.stamp() == null && !before.live()))
                            && !(before.live() && !after.live())));
        }
        return CompletableFuture.allOf(checks.toArray(new CompletableFuture[0]))
                .thenApply(ignored -> checks.stream().allMatch(CompletableFuture::join));
    }
}
