package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.BLOCKING;
import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.rdb.FunctionsPayload;
import io.strata.redis.rdb.RdbFormatException;
import io.strata.redis.scripting.Functions;
import io.strata.redis.scripting.FunctionDef;
import io.strata.redis.scripting.Functions;
import io.strata.redis.scripting.Library;
import io.strata.redis.scripting.ScriptFlags;
import io.strata.redis.scripting.Scripts;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * Redis 7 functions: FUNCTION LOAD, DELETE, FLUSH, LIST, STATS, KILL, HELP and FCALL,
 * FCALL_RO ({@link Functions} does the work; libraries live in the database), FUNCTION DUMP and
 * RESTORE in Redis 7.0's payload ({@link FunctionsPayload}).
 *
 * <p>FCALL is of kind BLOCKING for the same reason as EVAL ({@code ScriptingCommands}): alone
 * it runs in a transaction of its own, in MULTI in EXEC's.
 */
final class FunctionCommands {
    private FunctionCommands() {
    }

    static void register(CommandTable t) {
        t.add("fcall", -3, "noscript skip_monitor may_replicate no_mandatory_keys stale", 0, 0, 0, "scripting", BLOCKING,
                (inv, tr) -> fcall(inv, tr, false));
        t.add("fcall_ro", -3, "readonly noscript skip_monitor no_mandatory_keys stale", 0, 0, 0, "scripting", BLOCKING,
                (inv, tr) -> fcall(inv, tr, true));

        t.addContainer("function");
        t.addSubcommand("function", "load", -3, "write denyoom noscript", 0, 0, 0, "scripting", DATA, FunctionCommands::load);
        t.addSubcommand("function", "delete", 3, "write noscript", 0, 0, 0, "scripting", DATA, (inv, tr) ->
                functions(inv).delete(inv, tr, inv.argString(2)));
        t.addSubcommand("function", "flush", -2, "write noscript", 0, 0, 0, "scripting", DATA, FunctionCommands::flush);
        t.addSubcommand("function", "list", -2, "noscript", 0, 0, 0, "scripting", DATA, FunctionCommands::list);
        t.addSubcommand("function", "stats", 2, "noscript allow_busy", 0, 0, 0, "scripting", DATA, FunctionCommands::stats);
        t.addSubcommand("function", "kill", 2, "noscript allow_busy", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> {
            inv.server().scripts().kill(true);
            return done(Reply.OK);
        });
        t.addSubcommand("function", "restore", -3, "write denyoom noscript", 0, 0, 0, "scripting", DATA, FunctionCommands::restore);
        t.addSubcommand("function", "dump", 2, "noscript", 0, 0, 0, "scripting", DATA, (inv, tr) -> functions(inv).dump(tr));
        t.addSubcommand("function", "help", 2, "loading stale", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> done(help()));
    }

    private static Functions functions(Invocation inv) {
        return inv.server().scripts().functions();
    }

    private static CompletableFuture<Reply> fcall(Invocation inv, Transaction tr, boolean readOnly) {
        // Redis shows the call to MONITOR before the commands the function runs.
        if (inv.server().monitors().size() > 0) {
            inv.server().monitors().feed(inv.session(), inv.db(), inv.args(), inv.now() * 1000);
        }
        return functions(inv).call(inv, tr, readOnly);
    }

    /** FUNCTION LOAD [REPLACE] code. */
    private static CompletableFuture<Reply> load(Invocation inv, Transaction tr) {
        boolean replace = false;
        int i = 2;
        for (; i < inv.argc() - 1; i++) {
            if (!inv.option(i).equals("REPLACE")) {
                throw new RedisException("ERR Unknown option given: " + inv.argString(i));
            }
            replace = true;
        }
        if (i >= inv.argc()) {
            throw new RedisException("ERR Function code is missing");
        }
        return functions(inv).load(inv, tr, inv.arg(i), replace);
    }

    private static CompletableFuture<Reply> flush(Invocation inv, Transaction tr) {
        if (inv.argc() > 3) {
            throw new RedisException("ERR unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION HELP.");
        }
        if (inv.argc() == 3 && !inv.option(2).equals("ASYNC") && !inv.option(2).equals("SYNC")) {
            throw new RedisException("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
        }
        functions(inv).flush(tr);
        return done(Reply.OK);
    }

    /** FUNCTION LIST [WITHCODE] [LIBRARYNAME pattern]. */
    private static CompletableFuture<Reply> list(Invocation inv, Transaction tr) {
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < inv.argc(); i++) {
            if (!withCode && inv.option(i).equals("WITHCODE")) {
                withCode = true;
                continue;
            }
            if (pattern == null && inv.option(i).equals("LIBRARYNAME")) {
                if (i >= inv.argc() - 1) {
                    throw new RedisException("ERR library name argument was not given");
                }
                pattern = inv.arg(++i);
                continue;
            }
            throw new RedisException("ERR Unknown argument " + inv.argString(i));
        }
        boolean code = withCode;
        byte[] match = pattern;
        return functions(inv).libraries(inv, tr).thenApply(libraries -> {
            List<Reply> out = new ArrayList<>();
            for (Library library : libraries) {
                if (match != null && !GlobPattern.matches(match, library.name().getBytes(StandardCharsets.UTF_8), true)) {
                    continue;
                }
                List<Reply> functions = new ArrayList<>();
                for (FunctionDef f : library.functions()) {
                    List<Reply> flags = new ArrayList<>();
                    for (ScriptFlags.Flag flag : ScriptFlags.Flag.values()) {
                        if (f.flags().contains(flag)) {
                            flags.add(Reply.bulk(ScriptFlags.wordOf(flag)));
                        }
                    }
                    functions.add(Reply.map(List.of(Reply.bulk("name"), Reply.bulk(f.name()), Reply.bulk("description"),
                            f.description() == null ? Reply.NULL_BULK : Reply.bulk(f.description()), Reply.bulk("flags"),
                            Reply.set(flags))));
                }
                List<Reply> entry = new ArrayList<>(List.of(Reply.bulk("library_name"), Reply.bulk(library.name()),
                        Reply.bulk("engine"), Reply.bulk("LUA"), Reply.bulk("functions"), Reply.array(functions)));
                if (code) {
                    entry.add(Reply.bulk("library_code"));
                    entry.add(Reply.bulk(library.code()));
                }
                out.add(Reply.map(entry));
            }
            return Reply.array(out);
        });
    }

    /** FUNCTION STATS: the function running now and the engine's counts. */
    private static CompletableFuture<Reply> stats(Invocation inv, Transaction tr) {
        Scripts scripts = inv.server().scripts();
        if (scripts.evalRunning()) {
            throw new RedisException(Scripts.BUSY);
        }
        return functions(inv).libraries(inv, tr).thenApply(libraries -> {
            long functionCount = 0;
            for (Library l : libraries) {
                functionCount += l.functions().size();
            }
            Reply running = scripts.runningFunction();
            Reply lua = Reply.map(List.of(Reply.bulk("libraries_count"), Reply.integer(libraries.size()),
                    Reply.bulk("functions_count"), Reply.integer(functionCount)));
            return Reply.map(List.of(Reply.bulk("running_script"), running == null ? Reply.NULL_BULK : running,
                    Reply.bulk("engines"), Reply.map(List.of(Reply.bulk("LUA"), lua))));
        });
    }

    /** FUNCTION RESTORE serialized-value [FLUSH|APPEND|REPLACE], checked in Redis's order. */
    private static CompletableFuture<Reply> restore(Invocation inv, Transaction tr) {
        if (inv.argc() > 4) {
            throw new RedisException("ERR unknown subcommand or wrong number of arguments for 'restore'. Try FUNCTION HELP.");
        }
        Functions.RestorePolicy policy = Functions.RestorePolicy.APPEND;
        if (inv.argc() == 4) {
            try {
                policy = Functions.RestorePolicy.valueOf(inv.option(3));
            } catch (IllegalArgumentException e) {
                throw new RedisException("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
            }
        }
        List<byte[]> codes;
        try {
            codes = FunctionsPayload.decode(inv.arg(2));
        } catch (RdbFormatException e) {
            throw new RedisException("ERR " + e.getMessage());
        }
        return functions(inv).restore(inv, tr, codes, policy);
    }

    private static Reply help() {
        String[] lines = {
            "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "LOAD [REPLACE] <FUNCTION CODE>",
            "    Create a new library with the given library name and code.",
            "DELETE <LIBRARY NAME>",
            "    Delete the given library.",
            "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
            "    Return general information on all the libraries:",
            "    * Library name",
            "    * The engine used to run the Library",
            "    * Library description",
            "    * Functions list",
            "    * Library code (if WITHCODE is given)",
            "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
            "STATS",
            "    Return information about the current function running:",
            "    * Function name",
            "    * Command used to run the function",
            "    * Duration in MS that the function is running",
            "    If no function is running, return nil",
            "    In addition, returns a list of available engines.",
            "KILL",
            "    Kill the current running function.",
            "FLUSH [ASYNC|SYNC]",
            "    Delete all the libraries.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the libraries.",
            "    * SYNC: Synchronously flush the libraries.",
            "DUMP, RESTORE",
            "    Not supported by Strata (Redis's RDB payload).",
            "HELP",
            "    Prints this help.",
        };
        return Reply.lines(lines);
    }
}
