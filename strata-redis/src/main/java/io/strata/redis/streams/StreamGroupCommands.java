package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * XGROUP (CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER, HELP) as Redis 7.0, and the
 * lookups the other group commands share ({@link StreamPendingCommands},
 * {@link StreamClaimCommands}). Keyspace events after each change: xgroup-create,
 * xgroup-setid, xgroup-destroy, xgroup-createconsumer (from {@code ConsumerGroup.touchConsumer})
 * and xgroup-delconsumer. Groups are stored as {@link ConsumerGroup} describes; every
 * command finds its errors before its first write and moves the stream's stamp when it
 * changes anything (WATCH sees group changes, as Redis's signalModifiedKey does for them).
 */
final class StreamGroupCommands {
    private StreamGroupCommands() {
    }

    static void register(CommandTable t) {
        t.addContainer("xgroup");
        t.addSubcommand("xgroup", "create", -5, "write denyoom", 2, 2, 1, "stream", DATA, StreamGroupCommands::xgroup);
        t.addSubcommand("xgroup", "setid", -5, "write", 2, 2, 1, "stream", DATA, StreamGroupCommands::xgroup);
        t.addSubcommand("xgroup", "destroy", 4, "write", 2, 2, 1, "stream", DATA, StreamGroupCommands::xgroup);
        t.addSubcommand("xgroup", "createconsumer", 5, "write denyoom", 2, 2, 1, "stream", DATA, StreamGroupCommands::xgroup);
        t.addSubcommand("xgroup", "delconsumer", 5, "write", 2, 2, 1, "stream", DATA, StreamGroupCommands::xgroup);
        t.addSubcommand("xgroup", "help", 2, "loading stale", 0, 0, 0, "stream", LOCAL, (inv, tr) -> Invocation.done(help(
                "XGROUP <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                "CREATE <key> <groupname> <id|$> [option]",
                "    Create a new consumer group. Options are:",
                "    * MKSTREAM",
                "      Create the empty stream if it does not exist.",
                "    * ENTRIESREAD entries_read",
                "      Set the group's entries_read counter (internal use).",
                "CREATECONSUMER <key> <groupname> <consumer>",
                "    Create a new consumer in the specified group.",
                "DELCONSUMER <key> <groupname> <consumer>",
                "    Remove the specified consumer.",
                "DESTROY <key> <groupname>",
                "    Remove the specified group.",
                "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
                "    Set the current group ID and entries_read counter.",
                "HELP",
                "    Prints this help.")));
        StreamPendingCommands.register(t);
        StreamClaimCommands.register(t);
    }

    static Reply help(String... lines) {
        return Reply.lines(lines);
    }

    static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static RedisException subcommandSyntax(Invocation inv) {
        return inv.subcommandSyntaxError();
    }

    /** XGROUP CREATE|SETID|DESTROY|CREATECONSUMER|DELCONSUMER key group ..., as Redis's xgroupCommand. */
    private static CompletableFuture<Reply> xgroup(Invocation inv, Transaction tr) {
        String sub = inv.option(1);
        boolean create = sub.equals("CREATE");
        boolean setid = sub.equals("SETID");
        boolean mkstream = false;
        long entriesRead = EntriesRead.INVALID;
        for (int i = 5; i < inv.argc(); ) {
            String opt = inv.option(i);
            if (create && opt.equals("MKSTREAM")) {
                mkstream = true;
                i++;
            } else if ((create || setid) && opt.equals("ENTRIESREAD") && i + 1 < inv.argc()) {
                entriesRead = Numbers.parseLong(inv.arg(i + 1), RedisException.NOT_INTEGER);
                if (entriesRead < 0 && entriesRead != EntriesRead.INVALID) {
                    throw new RedisException("ERR value for ENTRIESREAD must be positive or -1");
                }
                i += 2;
            } else {
                throw subcommandSyntax(inv);
            }
        }
        if ((create && inv.argc() > 8) || (setid && inv.argc() != 5 && inv.argc() != 7)) {
            throw subcommandSyntax(inv);
        }
        byte[] key = inv.arg(2);
        byte[] groupName = inv.arg(3);
        boolean mk = mkstream;
        long read = entriesRead;
        return StreamValue.openForWrite(tr, inv.server().keys(), inv.db(), key, inv.now()).thenCompose(s -> {
            if (s == null && !mk) {
                throw new RedisException("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may"
                        + " want to use the MKSTREAM option to create an empty stream automatically.");
            }
            CompletableFuture<ConsumerGroup> group = s == null ? CompletableFuture.completedFuture(null) : ConsumerGroup.load(s, groupName);
            return group.thenCompose(g -> {
                if (g == null && !create && !sub.equals("DESTROY")) {
                    throw new RedisException("NOGROUP No such consumer group '" + str(groupName) + "' for key name '"
                            + str(key) + "'");
                }
                switch (sub) {
                    case "CREATE":
                        return create(inv, tr, s, g, key, groupName, read);
                    case "SETID":
                        return setId(inv, s, g, read);
                    case "DESTROY":
                        if (g == null) {
                            return CompletableFuture.completedFuture(Reply.ZERO);
                        }
                        g.destroy();
                        s.save();
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STREAM, "xgroup-destroy", key);
                        return CompletableFuture.completedFuture(Reply.ONE);
                    case "CREATECONSUMER":
                        return g.touchConsumer(inv.arg(4), inv.now(), false).thenApply(created -> {
                            if (created) {
                                s.save();
                            }
                            return created ? Reply.ONE : Reply.ZERO;
                        });
                    default:
                        return g.seenTime(inv.arg(4)).thenCompose(seen -> seen == null ? CompletableFuture.completedFuture(Reply.ZERO)
                                : g.deleteConsumer(inv.arg(4)).thenApply(n -> {
                                    s.save();
                                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STREAM, "xgroup-delconsumer", key);
                                    return Reply.integer(n);
                                }));
                }
            });
        });
    }

    private static CompletableFuture<Reply> create(Invocation inv, Transaction tr, StreamValue existing, ConsumerGroup g,
                                                   byte[] key, byte[] groupName, long entriesRead) {
        StreamId id = dollarOr(inv.arg(4), existing, true);
        if (g != null) {
            throw new RedisException("BUSYGROUP Consumer Group name already exists");
        }
        CompletableFuture<StreamValue> stream = existing != null ? CompletableFuture.completedFuture(existing)
                : StreamValue.create(tr, inv.server().keys(), inv.db(), key);
        return stream.thenApply(s -> {
            ConsumerGroup.create(s, groupName, id, entriesRead).save();
            s.save();
            inv.keyspaceEvent(tr, NotifyKeyspaceEvents.STREAM, "xgroup-create", key);
            return Reply.OK;
        });
    }

    /** {@code $} (the stream's last ID, 0-0 without a stream) or an ID. */
    private static StreamId dollarOr(byte[] arg, StreamValue s, boolean strict) {
        if (arg.length == 1 && arg[0] == '$') {
            return s == null ? StreamId.MIN : s.header().lastId();
        }
        return strict ? StreamId.parseStrict(arg) : StreamId.parseLoose(arg, 0);
    }

    private static CompletableFuture<Reply> setId(Invocation inv, StreamValue s, ConsumerGroup g, long entriesRead) {
        StreamId id = dollarOr(inv.arg(4), s, false);
        g.set(id, entriesRead);
        g.save();
        s.save();
        inv.keyspaceEvent(s.tr, NotifyKeyspaceEvents.STREAM, "xgroup-setid", inv.arg(2));
        return CompletableFuture.completedFuture(Reply.OK);
    }

    static RedisException noGroup(Invocation inv) {
        return new RedisException("NOGROUP No such key '" + str(inv.arg(1)) + "' or consumer group '" + str(inv.arg(2)) + "'");
    }

    /** The stream and group named by arguments 1 and 2, or null when either is missing. */
    static CompletableFuture<ConsumerGroup> group(Invocation inv, Transaction tr, boolean forWrite) {
        CompletableFuture<StreamValue> s = forWrite ? StreamCommands.openForWrite(inv, tr) : StreamCommands.open(inv, tr);
        return s.thenCompose(v -> v == null ? CompletableFuture.completedFuture(null) : ConsumerGroup.load(v, inv.arg(2)));
    }
}
