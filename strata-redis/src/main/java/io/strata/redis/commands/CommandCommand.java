package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.AclCategories;
import io.strata.redis.command.CommandFlag;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.reference.CommandDoc;
import io.strata.redis.command.reference.CommandReference;
import io.strata.redis.command.reference.KeyFinder;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * COMMAND and its subcommands: COUNT, INFO, DOCS, LIST, GETKEYS, GETKEYSANDFLAGS, HELP. What
 * a command is comes from two places: this server's table (name, arity, flags, key positions,
 * categories — only what is implemented) and Redis 7.0's reference (documentation, key
 * specifications, syntax), joined by {@link CommandDescriptions}.
 */
final class CommandCommand {
    private CommandCommand() {
    }

    static void register(CommandTable t) {
        String flags = "loading stale";
        t.addContainer("command", -1, flags, "connection", LOCAL, (inv, tr) -> done(infoOfAll(inv)));
        t.addSubcommand("command", "count", 2, flags, 0, 0, 0, "connection", LOCAL,
                (inv, tr) -> done(Reply.integer(inv.server().commands().size())));
        t.addSubcommand("command", "info", -2, flags, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(info(inv)));
        t.addSubcommand("command", "docs", -2, flags, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(docs(inv)));
        t.addSubcommand("command", "list", -2, flags, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(list(inv)));
        t.addSubcommand("command", "getkeys", -4, flags, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(getKeys(inv, false)));
        t.addSubcommand("command", "getkeysandflags", -4, flags, 0, 0, 0, "connection", LOCAL,
                (inv, tr) -> done(getKeys(inv, true)));
        t.addSubcommand("command", "help", 2, flags, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(help()));
    }

    private static Reply infoOfAll(Invocation inv) {
        CommandDescriptions d = new CommandDescriptions(inv.server().commands(), CommandReference.redis70());
        List<Reply> all = new ArrayList<>();
        for (CommandSpec spec : inv.server().commands().all()) {
            all.add(d.info(spec));
        }
        return Reply.array(all);
    }

    /** COMMAND INFO [name ...]: each name's description or nil; every command with no name. */
    private static Reply info(Invocation inv) {
        if (inv.argc() == 2) {
            return infoOfAll(inv);
        }
        CommandDescriptions d = new CommandDescriptions(inv.server().commands(), CommandReference.redis70());
        List<Reply> out = new ArrayList<>();
        for (int i = 2; i < inv.argc(); i++) {
            CommandSpec spec = inv.server().commands().lookupFullName(inv.argString(i));
            out.add(spec == null ? Reply.NULL_BULK : d.info(spec)); // addReplyNull: $-1, or _ in RESP3
        }
        return Reply.array(out);
    }

    /** COMMAND DOCS [name ...]: a map of each known name to its documentation; every command with no name. */
    private static Reply docs(Invocation inv) {
        CommandTable table = inv.server().commands();
        CommandDescriptions d = new CommandDescriptions(table, CommandReference.redis70());
        List<Reply> map = new ArrayList<>();
        if (inv.argc() == 2) {
            for (CommandSpec spec : table.all()) {
                map.add(Reply.bulk(spec.name()));
                map.add(d.docs(spec));
            }
        } else {
            for (int i = 2; i < inv.argc(); i++) {
                CommandSpec spec = table.lookupFullName(inv.argString(i));
                if (spec != null) {
                    map.add(Reply.bulk(spec.name()));
                    map.add(d.docs(spec));
                }
            }
        }
        return Reply.map(map);
    }

    /** COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: names, subcommands included. */
    private static Reply list(Invocation inv) {
        String filter = null;
        String value = null;
        if (inv.argc() == 5 && inv.option(2).equals("FILTERBY")) {
            filter = inv.option(3);
            value = inv.argString(4);
            if (!filter.equals("MODULE") && !filter.equals("ACLCAT") && !filter.equals("PATTERN")) {
                throw RedisException.syntax();
            }
        } else if (inv.argc() != 2) {
            throw RedisException.syntax();
        }
        List<Reply> names = new ArrayList<>();
        CommandTable table = inv.server().commands();
        for (CommandSpec spec : table.all()) {
            List<CommandSpec> withSubs = new ArrayList<>();
            withSubs.add(spec);
            withSubs.addAll(table.subcommands(spec.name()));
            for (CommandSpec s : withSubs) {
                if (filter == null || matches(s, filter, value)) {
                    names.add(Reply.bulk(s.name()));
                }
            }
        }
        return Reply.array(names);
    }

    private static boolean matches(CommandSpec spec, String filter, String value) {
        switch (filter) {
            case "MODULE":
                return false;
            case "ACLCAT":
                return spec.categories().contains(value.toLowerCase(Locale.ROOT));
            default:
                return GlobPattern.matches(value.getBytes(StandardCharsets.UTF_8), spec.name().getBytes(StandardCharsets.UTF_8), true);
        }
    }

    /** COMMAND GETKEYS / GETKEYSANDFLAGS command [arg ...]. */
    private static Reply getKeys(Invocation inv, boolean withFlags) {
        byte[][] line = Arrays.copyOfRange(inv.args(), 2, inv.argc());
        CommandTable table = inv.server().commands();
        CommandSpec spec = table.resolve(line);
        if (spec == null) {
            throw new RedisException("ERR Invalid command specified");
        }
        CommandDoc doc = new CommandDescriptions(table, CommandReference.redis70()).doc(spec);
        if (!KeyFinder.mayHaveKeys(doc)) {
            throw new RedisException("ERR The command has no key arguments");
        }
        if (!spec.acceptsArgumentCount(line.length)) {
            throw new RedisException("ERR Invalid number of arguments specified for command");
        }
        List<KeyFinder.FoundKey> keys = KeyFinder.find(doc, line);
        if (keys == null || keys.isEmpty()) {
            if (spec.has(CommandFlag.NO_MANDATORY_KEYS)) {
                return Reply.EMPTY_ARRAY;
            }
            throw new RedisException("ERR Invalid arguments specified for command");
        }
        List<Reply> out = new ArrayList<>();
        for (KeyFinder.FoundKey k : keys) {
            Reply key = Reply.bulk(line[k.position()]);
            out.add(withFlags ? Reply.array(key, CommandDescriptions.statusSet(k.flags())) : key);
        }
        return Reply.array(out);
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "COMMAND <subcommand> [<arg> ...]. Subcommands are:",
            "(no subcommand)", "    Describe every command.",
            "COUNT", "    The number of commands.",
            "LIST [FILTERBY (MODULE <module-name>|ACLCAT <category>|PATTERN <pattern>)]",
            "    The names of the commands and subcommands, optionally filtered.",
            "INFO [<command-name> ...]", "    Describe the named commands (every command when none is named).",
            "DOCS [<command-name> ...]", "    Document the named commands (every command when none is named).",
            "GETKEYS <full-command>", "    The keys of a full command line.",
            "GETKEYSANDFLAGS <full-command>", "    The keys of a full command line and how the command uses each.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }

    /** The category names of a spec as COMMAND INFO prints them. */
    static List<String> categoriesWithAt(CommandSpec spec) {
        List<String> out = new ArrayList<>();
        for (String c : AclCategories.inRedisOrder(spec.categories())) {
            out.add("@" + c);
        }
        return out;
    }
}
