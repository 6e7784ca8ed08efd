package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * XINFO STREAM [FULL [COUNT n]], XINFO GROUPS, XINFO CONSUMERS and XINFO HELP, with Redis
 * 7.0's fields. The radix tree has no counterpart here (entries are FoundationDB keys):
 * radix-tree-keys is the number of nodes the entries span as {@link StreamHeader} numbers
 * them, radix-tree-nodes one more (a tree's root).
 */
final class StreamInfoCommand {
    private StreamInfoCommand() {
    }

    static void register(CommandTable t) {
        t.addContainer("xinfo");
        t.addSubcommand("xinfo", "stream", -3, "readonly", 2, 2, 1, "stream", DATA, StreamInfoCommand::stream);
        t.addSubcommand("xinfo", "groups", 3, "readonly", 2, 2, 1, "stream", DATA, StreamInfoCommand::groups);
        t.addSubcommand("xinfo", "consumers", 4, "readonly", 2, 2, 1, "stream", DATA, StreamInfoCommand::consumers);
        t.addSubcommand("xinfo", "help", 2, "loading stale", 0, 0, 0, "stream", LOCAL, (inv, tr) -> Invocation.done(
                StreamGroupCommands.help(
                        "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
                        "CONSUMERS <key> <groupname>",
                        "    Show consumers of <groupname>.",
                        "GROUPS <key>",
                        "    Show the stream consumer groups.",
                        "STREAM <key> [FULL [COUNT <count>]",
                        "    Show information about the stream.",
                        "HELP",
                        "    Prints this help.")));
    }

    private static CompletableFuture<StreamValue> existing(Invocation inv, Transaction tr) {
        return StreamValue.open(tr, inv.server().keys(), inv.db(), inv.arg(2), inv.now()).thenApply(s -> {
            if (s == null) {
                throw new RedisException("ERR no such key");
            }
            return s;
        });
    }

    private static RedisException syntax(Invocation inv) {
        return inv.subcommandSyntaxError();
    }

    private static Reply bulk(String s) {
        return Reply.bulk(s);
    }

    /** XINFO STREAM: as Redis's xinfoCommand, the key is looked up (no such key, WRONGTYPE) before the options are read. */
    private static CompletableFuture<Reply> stream(Invocation inv, Transaction tr) {
        return existing(inv, tr).thenCompose(s -> stream(inv, s));
    }

    private static CompletableFuture<Reply> stream(Invocation inv, StreamValue s) {
        int optc = inv.argc() - 3;
        boolean full = optc > 0;
        long count = 10;
        if (full) {
            if ((optc != 1 && optc != 3) || !inv.option(3).equals("FULL")) {
                throw syntax(inv);
            }
            if (optc == 3) {
                if (!inv.option(4).equals("COUNT")) {
                    throw syntax(inv);
                }
                count = Numbers.parseLong(inv.arg(5), RedisException.NOT_INTEGER);
                if (count < 0) {
                    count = 10;
                }
            }
        }
        long n = count;
        return s.firstId().thenCombine(s.nodes(), Map::entry).thenCompose(firstAndNodes -> {
            StreamId first = firstAndNodes.getKey();
            long treeKeys = firstAndNodes.getValue();
            StreamHeader h = s.header();
            List<Reply> m = new ArrayList<>(List.of(
                    bulk("length"), Reply.integer(h.length()),
                    bulk("radix-tree-keys"), Reply.integer(treeKeys),
                    bulk("radix-tree-nodes"), Reply.integer(treeKeys + 1),
                    bulk("last-generated-id"), h.lastId().reply(),
                    bulk("max-deleted-entry-id"), h.maxDeletedId().reply(),
                    bulk("entries-added"), Reply.integer(h.entriesAdded()),
                    bulk("recorded-first-entry-id"), first.reply()));
            CompletableFuture<List<byte[]>> names = ConsumerGroup.names(s);
            if (!full) {
                return names.thenCombine(s.edge(true).thenCombine(s.edge(false), java.util.Arrays::asList), (groups, edges) -> {
                    m.add(bulk("groups"));
                    m.add(Reply.integer(groups.size()));
                    m.add(bulk("first-entry"));
                    m.add(edges.get(0) == null ? Reply.NULL_BULK : edges.get(0).reply());
                    m.add(bulk("last-entry"));
                    m.add(edges.get(1) == null ? Reply.NULL_BULK : edges.get(1).reply());
                    return Reply.map(m);
                });
            }
            return s.range(StreamId.MIN, StreamId.MAX, n, false).thenCompose(entries -> names.thenCompose(groups -> {
                List<CompletableFuture<Reply>> details = new ArrayList<>();
                for (byte[] g : groups) {
                    details.add(ConsumerGroup.load(s, g).thenCompose(group -> fullGroup(s, group, first, n)));
                }
                return CompletableFuture.allOf(details.toArray(new CompletableFuture[0])).thenApply(v -> {
                    m.add(bulk("entries"));
                    m.add(StreamCommands.entries(entries));
                    m.add(bulk("groups"));
                    List<Reply> gs = new ArrayList<>();
                    details.forEach(d -> gs.add(d.join()));
                    m.add(Reply.array(gs));
                    return Reply.map(m);
                });
            }));
        });
    }

    private static Reply entriesRead(ConsumerGroup g) {
        return g.entriesRead() == EntriesRead.INVALID ? Reply.NULL_BULK : Reply.integer(g.entriesRead());
    }

    private static Reply lag(StreamValue s, ConsumerGroup g, StreamId first) {
        Long lag = EntriesRead.lag(s.header(), first, g.entriesRead(), g.lastId());
        return lag == null ? Reply.NULL_BULK : Reply.integer(lag);
    }

    private static CompletableFuture<Reply> fullGroup(StreamValue s, ConsumerGroup g, StreamId first, long count) {
        int limit = count <= 0 || count > Integer.MAX_VALUE ? 0 : (int) count;
        CompletableFuture<Long> pelSize = g.pelSize();
        CompletableFuture<List<PendingEntry>> pel = g.pendingRange(StreamId.MIN, StreamId.MAX, limit);
        return g.consumers().thenCompose(consumers -> {
            List<CompletableFuture<Reply>> cs = new ArrayList<>();
            for (ConsumerGroup.Consumer c : consumers) {
                CompletableFuture<Long> pending = g.pendingOf(c.name());
                cs.add(g.consumerPending(c.name(), StreamId.MIN, StreamId.MAX, limit).thenCompose(ids -> {
                    List<CompletableFuture<PendingEntry>> reads = new ArrayList<>();
                    ids.forEach(id -> reads.add(g.pending(id)));
                    return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenCombine(pending, (v, size) -> {
                        List<Reply> own = new ArrayList<>();
                        for (CompletableFuture<PendingEntry> r : reads) {
                            PendingEntry p = r.join();
                            own.add(Reply.array(p.id().reply(), Reply.integer(p.deliveryTime()), Reply.integer(p.deliveryCount())));
                        }
                        return Reply.map(List.of(bulk("name"), Reply.bulk(c.name()), bulk("seen-time"), Reply.integer(c.seenTime()),
                                bulk("pel-count"), Reply.integer(size), bulk("pending"), Reply.array(own)));
                    });
                }));
            }
            return CompletableFuture.allOf(cs.toArray(new CompletableFuture[0])).thenCompose(v -> pel.thenCombine(pelSize, (entries, size) -> {
                List<Reply> pending = new ArrayList<>();
                for (PendingEntry p : entries) {
                    pending.add(Reply.array(p.id().reply(), Reply.bulk(p.consumer()), Reply.integer(p.deliveryTime()),
                            Reply.integer(p.deliveryCount())));
                }
                List<Reply> consumerReplies = new ArrayList<>();
                cs.forEach(c -> consumerReplies.add(c.join()));
                return Reply.map(List.of(bulk("name"), Reply.bulk(g.name), bulk("last-delivered-id"), g.lastId().reply(),
                        bulk("entries-read"), entriesRead(g), bulk("lag"), lag(s, g, first),
                        bulk("pel-count"), Reply.integer(size), bulk("pending"), Reply.array(pending),
                        bulk("consumers"), Reply.array(consumerReplies)));
            }));
        });
    }

    private static CompletableFuture<Reply> groups(Invocation inv, Transaction tr) {
        return existing(inv, tr).thenCompose(s -> s.firstId().thenCompose(first -> ConsumerGroup.names(s).thenCompose(names -> {
            List<CompletableFuture<Reply>> out = new ArrayList<>();
            for (byte[] name : names) {
                out.add(ConsumerGroup.load(s, name).thenCompose(g -> g.consumerCount().thenCombine(g.pelSize(), (consumers, pending) ->
                        Reply.map(List.of(bulk("name"), Reply.bulk(name), bulk("consumers"), Reply.integer(consumers),
                                bulk("pending"), Reply.integer(pending), bulk("last-delivered-id"), g.lastId().reply(),
                                bulk("entries-read"), entriesRead(g), bulk("lag"), lag(s, g, first))))));
            }
            return CompletableFuture.allOf(out.toArray(new CompletableFuture[0])).thenApply(v -> {
                List<Reply> replies = new ArrayList<>();
                out.forEach(f -> replies.add(f.join()));
                return Reply.array(replies);
            });
        })));
    }

    private static CompletableFuture<Reply> consumers(Invocation inv, Transaction tr) {
        byte[] groupName = inv.arg(3);
        return existing(inv, tr).thenCompose(s -> ConsumerGroup.load(s, groupName).thenCompose(g -> {
            if (g == null) {
                throw new RedisException("NOGROUP No such consumer group '" + StreamGroupCommands.str(groupName)
                        + "' for key name '" + StreamGroupCommands.str(inv.arg(2)) + "'");
            }
            long now = inv.now();
            return g.consumers().thenCompose(consumers -> {
                List<CompletableFuture<Reply>> out = new ArrayList<>();
                for (ConsumerGroup.Consumer c : consumers) {
                    out.add(g.pendingOf(c.name()).thenApply(pending -> Reply.map(List.of(
                            bulk("name"), Reply.bulk(c.name()), bulk("pending"), Reply.integer(pending),
                            bulk("idle"), Reply.integer(Math.max(0, now - c.seenTime()))))));
                }
                return CompletableFuture.allOf(out.toArray(new CompletableFuture[0])).thenApply(v -> {
                    List<Reply> replies = new ArrayList<>();
                    out.forEach(f -> replies.add(f.join()));
                    return Reply.array(replies);
                });
            });
        }));
    }
}
