package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.concurrent.CompletableFuture;

/**
 * Server commands: DBSIZE, FLUSHDB, FLUSHALL, TIME, SHUTDOWN, the persistence commands answered
 * truthfully, MONITOR, ROLE, WAIT, SWAPDB, and the cluster commands as a Redis without cluster
 * support answers them.
 */
final class ServerCommands {
    private ServerCommands() {
    }

    static void register(CommandTable t) {
        t.add("dbsize", 1, "readonly fast", 0, 0, 0, "keyspace", DATA,
                (inv, tr) -> inv.server().keys().count(tr, inv.db()).thenApply(Reply::integer));
        t.add("flushdb", -1, "write", 0, 0, 0, "keyspace dangerous", DATA, (inv, tr) -> flush(inv, tr, false));
        t.add("flushall", -1, "write", 0, 0, 0, "keyspace dangerous", DATA, (inv, tr) -> flush(inv, tr, true));
        t.add("time", 1, "loading stale fast", 0, 0, 0, "", LOCAL, (inv, tr) -> {
            long micros = Math.multiplyExact(inv.now(), 1000L);
            return done(Reply.array(Reply.bulk(Long.toString(micros / 1_000_000)), Reply.bulk(Long.toString(micros % 1_000_000))));
        });
        t.add("shutdown", -1, "admin noscript loading stale no_multi allow_busy", 0, 0, 0, "", LOCAL, (inv, tr) -> shutdown(inv));
        // Every acknowledged write is already durable: there is nothing to save.
        t.add("save", 1, "admin noscript no_async_loading no_multi", 0, 0, 0, "", LOCAL, (inv, tr) -> {
            inv.server().stats().changes.saved();
            return done(Reply.OK);
        });
        t.add("bgsave", -1, "admin noscript no_async_loading", 0, 0, 0, "", LOCAL, (inv, tr) -> {
            inv.server().stats().changes.saved();
            return done(Reply.simple("Background saving started"));
        });
        // No append-only file either: a rewrite has nothing to do, and starts as Redis says one does.
        t.add("bgrewriteaof", 1, "admin noscript no_async_loading", 0, 0, 0, "", LOCAL,
                (inv, tr) -> done(Reply.simple("Background append only file rewriting started")));
        t.add("lastsave", 1, "loading stale fast", 0, 0, 0, "admin dangerous", LOCAL, (inv, tr) -> done(Reply.integer(inv.now() / 1000)));
        t.add("lolwut", -1, "readonly fast", 0, 0, 0, "", LOCAL, (inv, tr) -> lolwut(inv));
        t.add("monitor", 1, "admin noscript loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> monitor(inv));
        t.add("role", 1, "noscript loading stale fast", 0, 0, 0, "admin dangerous", LOCAL,
                (inv, tr) -> done(Reply.array(Reply.bulk("master"), Reply.ZERO, Reply.EMPTY_ARRAY)));
        t.add("replicaof", 3, "admin noscript stale no_async_loading", 0, 0, 0, "admin dangerous", LOCAL, (inv, tr) -> replicaof(inv));
        t.add("slaveof", 3, "admin noscript stale no_async_loading", 0, 0, 0, "admin dangerous", LOCAL, (inv, tr) -> replicaof(inv));
        t.add("wait", 3, "noscript", 0, 0, 0, "connection", LOCAL, (inv, tr) -> waitForReplicas(inv));
        t.add("swapdb", 3, "write fast", 0, 0, 0, "keyspace dangerous", DATA, ServerCommands::swapdb);
        ClusterCommands.register(t);
    }

    /**
     * LOLWUT [VERSION v] [...]: the server's version line, as Redis 7.0 answers for every
     * version it has no drawing of. Redis draws generative art for versions 5 and 6; this
     * server answers those with the same line (docs/redis.md).
     */
    private static CompletableFuture<Reply> lolwut(Invocation inv) {
        if (inv.argc() >= 3 && inv.option(1).equals("VERSION")) {
            inv.longArg(2); // an integer, or Redis's error
        }
        return done(Reply.verbatim("Redis ver. " + ConnectionCommands.REDIS_VERSION + "\n"));
    }

    /** MONITOR: from now on the connection receives every other client's commands. */
    private static CompletableFuture<Reply> monitor(Invocation inv) {
        if (inv.server().monitors().isMonitor(inv.session().id())) {
            return done(Reply.OK);
        }
        inv.server().monitor(inv.session());
        return done(Reply.OK);
    }

    /**
     * REPLICAOF (and SLAVEOF) host port | NO ONE. {@code NO ONE} makes a replica a master;
     * this server is always a master (ROLE), so it answers OK and changes nothing, as Redis
     * does on a master. Following another server is replication, which is not supported: the
     * port is checked as Redis checks it, then the request is refused, changing nothing
     * (docs/redis.md, "Not supported"). Every process serving the same database already sees
     * every write.
     */
    private static CompletableFuture<Reply> replicaof(Invocation inv) {
        if (inv.option(1).equals("NO") && inv.option(2).equals("ONE")) {
            return done(Reply.OK);
        }
        long port = inv.longArg(2, "ERR Invalid master port");
        if (port < 0 || port > 65535) {
            throw new RedisException("ERR Invalid master port");
        }
        throw new RedisException("ERR " + inv.spec().name().toUpperCase(java.util.Locale.ROOT)
                + " host port is not supported: replication is not supported by Strata's Redis-compatible server");
    }

    /**
     * WAIT numreplicas timeout: there are no replicas, so 0 — at once when no replica is
     * asked for, else after the timeout (0: never), as Redis without replicas answers.
     */
    private static CompletableFuture<Reply> waitForReplicas(Invocation inv) {
        long replicas = inv.longArg(1);
        long timeout = inv.longArg(2, "ERR timeout is not an integer or out of range");
        if (timeout < 0) {
            throw new RedisException("ERR timeout is negative");
        }
        if (replicas <= 0) {
            return done(Reply.ZERO);
        }
        if (timeout == 0) {
            return new CompletableFuture<>();
        }
        return CompletableFuture.supplyAsync(() -> Reply.ZERO,
                CompletableFuture.delayedExecutor(timeout, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    /**
     * SWAPDB: the two databases' contents change places in one transaction
     * ({@link io.strata.redis.keyspace.KeyStore#swap}), so clients see the swap at once or not
     * at all; it rewrites both databases, so it is bounded by FoundationDB's transaction limits.
     */
    private static CompletableFuture<Reply> swapdb(Invocation inv, Transaction tr) {
        long a = inv.longArg(1, "ERR invalid first DB index");
        long b = inv.longArg(2, "ERR invalid second DB index");
        int databases = inv.server().config().databases();
        if (a < 0 || a >= databases || b < 0 || b >= databases) {
            throw new RedisException("ERR DB index is out of range");
        }
        if (a == b) {
            return done(Reply.OK);
        }
        return inv.server().keys().swap(tr, (int) a, (int) b).thenApply(ignored -> Reply.OK);
    }

    /**
     * SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]: as Redis 7.0, a successful shutdown answers
     * nothing — the connection closes; every write is already durable, so SAVE and NOSAVE
     * change nothing; with no shutdown ever in progress, ABORT is an error.
     */
    private static CompletableFuture<Reply> shutdown(Invocation inv) {
        boolean save = false;
        boolean nosave = false;
        boolean abort = false;
        for (int i = 1; i < inv.argc(); i++) {
            switch (inv.option(i)) {
                case "SAVE": save = true; break;
                case "NOSAVE": nosave = true; break;
                case "NOW": case "FORCE": break;
                case "ABORT": abort = true; break;
                default: throw RedisException.syntax();
            }
        }
        if ((abort && inv.argc() > 2) || (save && nosave)) {
            throw RedisException.syntax();
        }
        if (abort) {
            throw new RedisException("ERR No shutdown in progress.");
        }
        inv.server().shutdown();
        inv.session().requestClose();
        return done(Reply.sequence(java.util.List.of()));
    }

    private static CompletableFuture<Reply> flush(Invocation inv, Transaction tr, boolean all) {
        if (inv.argc() > 2) {
            throw RedisException.syntax();
        }
        if (inv.argc() == 2) {
            String mode = inv.option(1);
            if (!mode.equals("ASYNC") && !mode.equals("SYNC")) {
                throw RedisException.syntax();
            }
        }
        if (all) {
            for (int db = 0; db < inv.server().config().databases(); db++) {
                inv.server().keys().flush(tr, db);
            }
        } else {
            inv.server().keys().flush(tr, inv.db());
        }
        // Clients caching keys hear that every key is invalid, once the flush has committed.
        inv.server().tracking().flushed(tr);
        return done(Reply.OK);
    }
}
