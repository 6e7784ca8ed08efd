package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.concurrent.CompletableFuture;

/**
 * Scripting is not supported (no Lua, no functions). What can be answered truthfully is: there
 * are no functions and no cached scripts, so FUNCTION FLUSH, FUNCTION LIST, SCRIPT FLUSH and
 * SCRIPT EXISTS answer as a Redis without any would — tools and test harnesses call them to
 * reset a server. Everything that would run code answers with an error naming the reason.
 */
final class ScriptingCommands {
    static final String UNSUPPORTED = "ERR scripting is not supported by Strata's Redis-compatible server";

    private ScriptingCommands() {
    }

    static void register(CommandTable t) {
        t.add("function", -2, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> function(inv));
        t.add("script", -2, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> script(inv));
        for (String name : new String[] {"eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro"}) {
            t.add(name, -3, "noscript skip_monitor may_replicate no_mandatory_keys movable_keys", 0, 0, 0, "scripting", LOCAL,
                    (inv, tr) -> {
                        throw new RedisException(UNSUPPORTED);
                    });
        }
    }

    private static CompletableFuture<Reply> function(Invocation inv) {
        switch (inv.option(1)) {
            case "FLUSH":
                flushMode(inv);
                return done(Reply.OK);
            case "LIST":
                return done(Reply.EMPTY_ARRAY);
            default:
                throw new RedisException(UNSUPPORTED);
        }
    }

    private static CompletableFuture<Reply> script(Invocation inv) {
        switch (inv.option(1)) {
            case "FLUSH":
                flushMode(inv);
                return done(Reply.OK);
            case "EXISTS":
                if (inv.argc() < 3) {
                    throw new RedisException("ERR wrong number of arguments for 'script|exists' command");
                }
                java.util.List<Reply> none = new java.util.ArrayList<>();
                for (int i = 2; i < inv.argc(); i++) {
                    none.add(Reply.ZERO);
                }
                return done(Reply.array(none));
            default:
                throw new RedisException(UNSUPPORTED);
        }
    }

    private static void flushMode(Invocation inv) {
        if (inv.argc() > 3 || (inv.argc() == 3 && !inv.option(2).equals("ASYNC") && !inv.option(2).equals("SYNC"))) {
            throw RedisException.syntax();
        }
    }
}
