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

/** Server commands: DBSIZE, FLUSHDB, FLUSHALL, TIME, SHUTDOWN, and the persistence commands answered truthfully. */
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
        t.add("shutdown", -1, "admin noscript loading stale no_multi allow_busy", 0, 0, 0, "", LOCAL, (inv, tr) -> {
            inv.server().shutdown();
            inv.session().requestClose();
            return done(Reply.OK);
        });
        // Every acknowledged write is already durable: there is nothing to save.
        t.add("save", 1, "admin noscript no_multi", 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.OK));
        t.add("bgsave", -1, "admin noscript no_multi", 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.simple("Background saving started")));
        t.add("lastsave", 1, "loading stale fast", 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.integer(inv.now() / 1000)));
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
        return done(Reply.OK);
    }
}
