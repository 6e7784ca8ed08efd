package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandExecutor;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.ConfigFileRewriter;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * CONFIG GET, SET, RESETSTAT, REWRITE and HELP over the server's {@code ServerSettings}.
 * REWRITE writes the parameters that differ from their defaults into the file the server was
 * started with ({@code --config}), and refuses when there is none, as Redis does.
 */
final class ConfigCommand {
    private ConfigCommand() {
    }

    static void register(CommandTable t) {
        String admin = "admin noscript loading stale";
        t.addContainer("config");
        t.addSubcommand("config", "get", -3, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(get(inv)));
        t.addSubcommand("config", "set", -4, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> set(inv));
        t.addSubcommand("config", "resetstat", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> {
            inv.server().stats().reset();
            return done(Reply.OK);
        });
        t.addSubcommand("config", "rewrite", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> rewrite(inv));
        t.addSubcommand("config", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> done(help()));
    }

    private static Reply get(Invocation inv) {
        List<String> patterns = new ArrayList<>();
        for (int i = 2; i < inv.argc(); i++) {
            patterns.add(inv.argString(i));
        }
        List<Reply> out = new ArrayList<>();
        for (Map.Entry<String, String> e : inv.server().settings().matching(patterns).entrySet()) {
            out.add(Reply.bulk(e.getKey()));
            out.add(Reply.bulk(e.getValue()));
        }
        return Reply.map(out);
    }

    private static CompletableFuture<Reply> set(Invocation inv) {
        if (inv.argc() % 2 != 0) {
            throw RedisException.syntax();
        }
        List<String> pairs = new ArrayList<>();
        for (int i = 2; i < inv.argc(); i++) {
            pairs.add(inv.argString(i));
        }
        inv.server().settings().set(pairs, CommandExecutor.isLocal(inv.session()));
        return done(Reply.OK);
    }

    private static CompletableFuture<Reply> rewrite(Invocation inv) {
        String file = inv.server().settings().configFile();
        if (file == null) {
            throw new RedisException("ERR The server is running without a config file");
        }
        try {
            ConfigFileRewriter.rewrite(Path.of(file), inv.server().settings().changed());
        } catch (IOException e) {
            throw new RedisException("ERR Rewriting config file: " + e.getMessage());
        }
        return done(Reply.OK);
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "CONFIG <subcommand> [<arg> ...]. Subcommands are:",
            "GET <pattern>", "    The parameters whose names match the glob-style pattern, with their values.",
            "SET <directive> <value>", "    Change a parameter.",
            "RESETSTAT", "    Reset the statistics INFO reports.",
            "REWRITE", "    Write the running configuration into the configuration file.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
