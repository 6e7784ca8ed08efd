package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * FUNCTION, the management of Redis 7 functions, which this server does not offer (FCALL is
 * an unknown command that says so; EVAL scripts are {@link ScriptingCommands}). What can be
 * answered truthfully is: there are no libraries, so FLUSH succeeds, LIST is empty, DELETE
 * finds no library and KILL finds no function running. Loading code (FUNCTION LOAD, RESTORE)
 * answers that functions are not supported. Clients and Redis's test suite flush functions
 * before they start, which therefore works.
 */
final class ScriptManagementCommands {
    static final String NOT_SUPPORTED = "functions are not supported by Strata's Redis-compatible server";

    private ScriptManagementCommands() {
    }

    static void register(CommandTable t) {
        t.addContainer("function");
        t.addSubcommand("function", "flush", -2, "write noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> flush(inv, "FUNCTION"));
        t.addSubcommand("function", "list", -2, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> functionList(inv));
        t.addSubcommand("function", "delete", 3, "write noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> {
            throw new RedisException("ERR Library not found");
        });
        t.addSubcommand("function", "kill", 2, "noscript allow_busy", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> notBusy());
        t.addSubcommand("function", "stats", 2, "noscript allow_busy", 0, 0, 0, "scripting", LOCAL, (inv, tr) ->
                done(Reply.map(List.of(Reply.bulk("running_script"), Reply.NULL_BULK, Reply.bulk("engines"), Reply.map(List.of())))));
        t.addSubcommand("function", "load", -3, "write denyoom noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> unsupported(inv));
        t.addSubcommand("function", "restore", -3, "write denyoom noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> unsupported(inv));
        t.addSubcommand("function", "dump", 2, "noscript", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> unsupported(inv));
        t.addSubcommand("function", "help", 2, "loading stale", 0, 0, 0, "scripting", LOCAL, (inv, tr) -> done(help("FUNCTION")));
    }

    /** FUNCTION FLUSH [ASYNC|SYNC]: there is nothing to flush. */
    private static CompletableFuture<Reply> flush(Invocation inv, String command) {
        if (inv.argc() > 3 || (inv.argc() == 3 && !inv.option(2).equals("ASYNC") && !inv.option(2).equals("SYNC"))) {
            throw new RedisException("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
        }
        return done(Reply.OK);
    }

    /** FUNCTION LIST [WITHCODE] [LIBRARYNAME pattern]: no libraries. */
    private static CompletableFuture<Reply> functionList(Invocation inv) {
        for (int i = 2; i < inv.argc(); i++) {
            if (inv.option(i).equals("WITHCODE")) {
                continue;
            }
            if (inv.option(i).equals("LIBRARYNAME") && i + 1 < inv.argc()) {
                i++;
                continue;
            }
            throw new RedisException("ERR Unknown argument " + inv.argString(i));
        }
        return done(Reply.EMPTY_ARRAY);
    }

    private static CompletableFuture<Reply> notBusy() {
        throw new RedisException("NOTBUSY No scripts in execution right now.");
    }

    private static CompletableFuture<Reply> unsupported(Invocation inv) {
        throw new RedisException("ERR " + inv.spec().name().toUpperCase(java.util.Locale.ROOT).replace('|', ' ')
                + " is not available: " + NOT_SUPPORTED);
    }

    private static Reply help(String command) {
        List<Reply> lines = new ArrayList<>();
        lines.add(Reply.simple(command + " <subcommand> [<arg> ...]. " + NOT_SUPPORTED + "; subcommands:"));
        lines.add(Reply.simple("FLUSH [ASYNC|SYNC]"));
        lines.add(Reply.simple("    Succeeds: there is nothing to delete."));
        lines.add(Reply.simple("LIST [WITHCODE] [LIBRARYNAME <pattern>]"));
        lines.add(Reply.simple("    Empty: there are no libraries."));
        lines.add(Reply.simple("HELP"));
        lines.add(Reply.simple("    Print this help."));
        return Reply.array(lines);
    }
}
