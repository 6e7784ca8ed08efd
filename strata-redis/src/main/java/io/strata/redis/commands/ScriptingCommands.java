package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.BLOCKING;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.Replicas;
import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.scripting.CompiledScript;
import io.strata.redis.scripting.Scripts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (LOAD, EXISTS, FLUSH, KILL, DEBUG, HELP), as
 * Redis 7.0 answers them; the Lua side is {@code io.strata.redis.scripting}.
 *
 * <p>The EVAL commands are of kind BLOCKING for the executor's sake, not because they wait:
 * on their own they get no transaction and run the script in one of their own (never batched
 * with other clients' commands in a lane, where a long script would hold them up), and queued
 * in MULTI they get EXEC's transaction, so the script is atomic with the rest of the queue.
 */
final class ScriptingCommands {
    private static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";

    private ScriptingCommands() {
    }

    static void register(CommandTable t) {
        String flags = "noscript skip_monitor may_replicate no_mandatory_keys stale";
        t.add("eval", -3, flags, 0, 0, 0, "scripting", BLOCKING, (inv, tr) -> eval(inv, tr, false, false));
        t.add("evalsha", -3, flags, 0, 0, 0, "scripting", BLOCKING, (inv, tr) -> eval(inv, tr, true, false));
        String readOnly = "readonly noscript skip_monitor no_mandatory_keys stale";
        t.add("eval_ro", -3, readOnly, 0, 0, 0, "scripting", BLOCKING, (inv, tr) -> eval(inv, tr, false, true));
        t.add("evalsha_ro", -3, readOnly, 0, 0, 0, "scripting", BLOCKING, (inv, tr) -> eval(inv, tr, true, true));

        t.addContainer("script");
        t.addSubcommand("script", "load", 3, "noscript stale", 0, 0, 0, "scripting", LOCAL, (inv, tr) ->
                done(Reply.bulk(scripts(inv).cache().load(inv.arg(2)).sha())));
        t.addSubcommand("script", "exists", -3, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> {
            List<Reply> found = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                found.add(scripts(inv).cache().get(inv.argString(i)) != null ? Reply.ONE : Reply.ZERO);
            }
            return done(Reply.array(found));
        });
        t.addSubcommand("script", "flush", -2, "noscript", 0, 0, 0, "scripting", LOCAL, ScriptingCommands::flush);
        t.addSubcommand("script", "kill", 2, "noscript allow_busy", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> {
            scripts(inv).kill(false);
            return done(Reply.OK);
        });
        t.addSubcommand("script", "debug", 3, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> {
            throw new RedisException("ERR SCRIPT DEBUG is not supported by Strata's Redis-compatible server "
                    + "(there is no Lua debugger)");
        });
        t.addSubcommand("script", "help", 2, "loading stale", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> done(help()));
    }

    private static Scripts scripts(Invocation inv) {
        return inv.server().scripts();
    }

    /** EVAL script numkeys key... arg... and its siblings, checked in Redis's order. */
    private static CompletableFuture<Reply> eval(Invocation inv, Transaction tr, boolean bySha, boolean readOnlyCommand) {
        // Redis shows the script command to MONITOR before the commands it runs (so not after, as other commands).
        if (inv.server().monitors().size() > 0) {
            inv.server().monitors().feed(inv.session(), inv.db(), inv.args(), inv.now() * 1000);
        }
        if (bySha && inv.arg(1).length != 40) {
            throw new RedisException(NOSCRIPT);
        }
        long numkeys = inv.longArg(2);
        if (numkeys > inv.argc() - 3) {
            throw new RedisException("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new RedisException("ERR Number of keys can't be negative");
        }
        Scripts scripts = scripts(inv);
        CompiledScript script;
        if (bySha) {
            script = scripts.cache().get(inv.argString(1));
            if (script == null) {
                throw new RedisException(NOSCRIPT);
            }
        } else {
            script = scripts.cache().load(inv.arg(1));
        }
        if (readOnlyCommand && !script.flags().compatibilityMode() && !script.flags().noWrites()) {
            throw new RedisException("ERR Can not execute a script with write flag using *_ro command.");
        }
        boolean readOnly = readOnlyCommand || script.flags().noWrites();
        if (!readOnly && !script.flags().compatibilityMode() && !script.flags().allowOom() && inv.server().databaseFull()) {
            // A script that declares flags and may write is denyoom (evalGetCommandFlags).
            throw new RedisException(CommandExecutor.OOM);
        }
        if (!readOnly && !script.flags().compatibilityMode() && Replicas.tooFewForWrites(inv.server().settings())) {
            // A script that declares flags and may write is refused before it runs.
            throw new RedisException(Replicas.NOREPLICAS);
        }
        int firstArg = 3 + (int) numkeys;
        List<byte[]> keys = Arrays.asList(inv.args()).subList(3, firstArg);
        List<byte[]> args = Arrays.asList(inv.args()).subList(firstArg, inv.argc());
        return scripts.eval(script, inv, tr, readOnly, keys, args);
    }

    private static CompletableFuture<Reply> flush(Invocation inv, Transaction tr) {
        if (inv.argc() > 3 || (inv.argc() == 3 && !inv.option(2).equals("ASYNC") && !inv.option(2).equals("SYNC"))) {
            throw new RedisException("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
        }
        scripts(inv).cache().flush();
        return done(Reply.OK);
    }

    private static Reply help() {
        String[] lines = {
            "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "DEBUG (YES|SYNC|NO)",
            "    Set the debug mode for subsequent scripts executed (not supported by Strata).",
            "EXISTS <sha1> [<sha1> ...]",
            "    Return information about the existence of the scripts in the script cache.",
            "FLUSH [ASYNC|SYNC]",
            "    Flush the Lua scripts cache. Very dangerous on replicas.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the scripts cache.",
            "    * SYNC: Synchronously flush the scripts cache.",
            "KILL",
            "    Kill the currently executing Lua script.",
            "LOAD <script>",
            "    Load a script into the scripts cache without executing it.",
            "HELP",
            "    Prints this help.",
        };
        return Reply.lines(lines);
    }
}
