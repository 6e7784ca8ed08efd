package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * XGROUP (CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER, HELP), XACK, XPENDING, XCLAIM
 * and XAUTOCLAIM, as Redis 7.0. Groups are stored as {@link ConsumerGroup} describes; every
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
        t.add("xack", -4, "write fast", 1, 1, 1, "stream", DATA, StreamGroupCommands::xack);
        t.add("xpending", -3, "readonly", 1, 1, 1, "stream", DATA, StreamGroupCommands::xpending);
        t.add("xclaim", -6, "write fast", 1, 1, 1, "stream", DATA, StreamGroupCommands::xclaim);
        t.add("xautoclaim", -6, "write fast", 1, 1, 1, "stream", DATA, StreamGroupCommands::xautoclaim);
    }

    static Reply help(String... lines) {
        List<Reply> out = new ArrayList<>();
        for (String line : lines) {
            out.add(Reply.simple(line));
        }
        return Reply.array(out);
    }

    static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static RedisException subcommandSyntax(Invocation inv) {
        return new RedisException("ERR unknown subcommand or wrong number of arguments for '" + inv.argString(1)
                + "'. Try " + inv.argString(0).toUpperCase(java.util.Locale.ROOT) + " HELP.");
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
        return CompletableFuture.completedFuture(Reply.OK);
    }

    private static RedisException noGroup(Invocation inv) {
        return new RedisException("NOGROUP No such key '" + str(inv.arg(1)) + "' or consumer group '" + str(inv.arg(2)) + "'");
    }

    /** The stream and group named by arguments 1 and 2, or null when either is missing. */
    private static CompletableFuture<ConsumerGroup> group(Invocation inv, Transaction tr, boolean forWrite) {
        CompletableFuture<StreamValue> s = forWrite ? StreamCommands.openForWrite(inv, tr) : StreamCommands.open(inv, tr);
        return s.thenCompose(v -> v == null ? CompletableFuture.completedFuture(null) : ConsumerGroup.load(v, inv.arg(2)));
    }

    /** XACK key group id [id ...]: how many were pending. */
    private static CompletableFuture<Reply> xack(Invocation inv, Transaction tr) {
        return group(inv, tr, true).thenCompose(g -> {
            if (g == null) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            List<StreamId> ids = new ArrayList<>();
            for (int j = 3; j < inv.argc(); j++) {
                ids.add(StreamId.parseStrict(inv.arg(j)));
            }
            List<CompletableFuture<PendingEntry>> found = new ArrayList<>();
            for (StreamId id : ids) {
                found.add(g.pending(id));
            }
            return CompletableFuture.allOf(found.toArray(new CompletableFuture[0])).thenApply(v -> {
                java.util.Set<StreamId> done = new java.util.HashSet<>();
                long acked = 0;
                for (CompletableFuture<PendingEntry> f : found) {
                    PendingEntry p = f.join();
                    if (p != null && done.add(p.id())) {
                        g.removePending(p);
                        acked++;
                    }
                }
                if (acked > 0) {
                    g.s.save();
                }
                return Reply.integer(acked);
            });
        });
    }

    /** XPENDING key group [[IDLE min-idle-time] start end count [consumer]] */
    private static CompletableFuture<Reply> xpending(Invocation inv, Transaction tr) {
        int argc = inv.argc();
        if (argc != 3 && (argc < 6 || argc > 9)) {
            throw RedisException.syntax();
        }
        long minIdle = 0;
        StreamId start = null;
        StreamId end = null;
        long count = 0;
        byte[] consumer = null;
        if (argc >= 6) {
            int at = 3;
            if (inv.option(3).equals("IDLE")) {
                minIdle = Numbers.parseLong(inv.arg(4), RedisException.NOT_INTEGER);
                if (argc < 8) {
                    throw RedisException.syntax();
                }
                at += 2;
            }
            count = Math.max(0, Numbers.parseLong(inv.arg(at + 2), RedisException.NOT_INTEGER));
            start = StreamId.parseBound(inv.arg(at), true);
            end = StreamId.parseBound(inv.arg(at + 1), false);
            if (at + 3 < argc) {
                consumer = inv.arg(at + 3);
            }
        }
        long idle = minIdle;
        StreamId from = start;
        StreamId to = end;
        long n = count;
        byte[] owner = consumer;
        return group(inv, tr, false).thenCompose(g -> {
            if (g == null) {
                throw noGroup(inv);
            }
            return from == null ? summary(g) : extended(inv, g, idle, from, to, n, owner);
        });
    }

    private static CompletableFuture<Reply> summary(ConsumerGroup g) {
        return g.pelSize().thenCompose(size -> {
            if (size == 0) {
                return CompletableFuture.completedFuture(Reply.array(Reply.ZERO, Reply.NULL_BULK, Reply.NULL_BULK, Reply.NULL_ARRAY));
            }
            CompletableFuture<StreamId> first = g.pendingEdge(true);
            CompletableFuture<StreamId> last = g.pendingEdge(false);
            return g.consumers().thenCompose(consumers -> {
                List<CompletableFuture<Long>> counts = new ArrayList<>();
                for (ConsumerGroup.Consumer c : consumers) {
                    counts.add(g.pendingOf(c.name()));
                }
                return CompletableFuture.allOf(counts.toArray(new CompletableFuture[0])).thenCombine(first.thenCombine(last, List::of), (v, edges) -> {
                    List<Reply> per = new ArrayList<>();
                    for (int i = 0; i < consumers.size(); i++) {
                        long c = counts.get(i).join();
                        if (c > 0) {
                            per.add(Reply.array(Reply.bulk(consumers.get(i).name()), Reply.bulk(Long.toString(c))));
                        }
                    }
                    return Reply.array(Reply.integer(size), edges.get(0).reply(), edges.get(1).reply(), Reply.array(per));
                });
            });
        });
    }

    private static CompletableFuture<Reply> extended(Invocation inv, ConsumerGroup g, long minIdle, StreamId from, StreamId to,
                                                     long count, byte[] consumer) {
        if (count == 0) {
            return CompletableFuture.completedFuture(Reply.EMPTY_ARRAY);
        }
        long now = inv.now();
        // With IDLE, entries are filtered after reading: read all in the range (bounded by the PEL).
        int limit = minIdle != 0 || count > Integer.MAX_VALUE ? 0 : (int) count;
        CompletableFuture<List<PendingEntry>> entries;
        if (consumer == null) {
            entries = g.pendingRange(from, to, limit);
        } else {
            entries = g.seenTime(consumer).thenCompose(seen -> seen == null ? CompletableFuture.completedFuture(List.<PendingEntry>of())
                    : g.consumerPending(consumer, from, to, limit).thenCompose(ids -> {
                        List<CompletableFuture<PendingEntry>> reads = new ArrayList<>();
                        for (StreamId id : ids) {
                            reads.add(g.pending(id));
                        }
                        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(v -> {
                            List<PendingEntry> out = new ArrayList<>();
                            reads.forEach(r -> out.add(r.join()));
                            return out;
                        });
                    }));
        }
        return entries.thenApply(list -> {
            List<Reply> out = new ArrayList<>();
            for (PendingEntry p : list) {
                if (out.size() >= count) {
                    break;
                }
                long elapsed = now - p.deliveryTime();
                if (minIdle != 0 && elapsed < minIdle) {
                    continue;
                }
                out.add(Reply.array(p.id().reply(), Reply.bulk(p.consumer()), Reply.integer(Math.max(0, elapsed)),
                        Reply.integer(p.deliveryCount())));
            }
            return Reply.array(out);
        });
    }

    /**
     * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms] [RETRYCOUNT n]
     * [FORCE] [JUSTID] [LASTID id]
     */
    private static CompletableFuture<Reply> xclaim(Invocation inv, Transaction tr) {
        return group(inv, tr, true).thenCompose(g -> {
            if (g == null) {
                throw noGroup(inv);
            }
            long minIdle = Math.max(0, Numbers.parseLong(inv.arg(4), "ERR Invalid min-idle-time argument for XCLAIM"));
            List<StreamId> ids = new ArrayList<>();
            int j = 5;
            for (; j < inv.argc(); j++) {
                StreamId id;
                try {
                    id = StreamId.parseStrict(inv.arg(j));
                } catch (RedisException notAnId) {
                    break;
                }
                ids.add(id);
            }
            long now = inv.now();
            long retryCount = -1;
            long deliveryTime = -1;
            boolean force = false;
            boolean justId = false;
            StreamId lastId = StreamId.MIN;
            for (; j < inv.argc(); j++) {
                boolean more = j + 1 < inv.argc();
                String opt = inv.option(j);
                if (opt.equals("FORCE")) {
                    force = true;
                } else if (opt.equals("JUSTID")) {
                    justId = true;
                } else if (opt.equals("IDLE") && more) {
                    deliveryTime = now - Numbers.parseLong(inv.arg(++j), "ERR Invalid IDLE option argument for XCLAIM");
                } else if (opt.equals("TIME") && more) {
                    deliveryTime = Numbers.parseLong(inv.arg(++j), "ERR Invalid TIME option argument for XCLAIM");
                } else if (opt.equals("RETRYCOUNT") && more) {
                    retryCount = Numbers.parseLong(inv.arg(++j), "ERR Invalid RETRYCOUNT option argument for XCLAIM");
                } else if (opt.equals("LASTID") && more) {
                    lastId = StreamId.parseStrict(inv.arg(++j));
                } else {
                    throw new RedisException("ERR Unrecognized XCLAIM option '" + inv.argString(j) + "'");
                }
            }
            if (deliveryTime == -1 || deliveryTime < 0 || deliveryTime > now) {
                deliveryTime = now;
            }
            Claim claim = new Claim(inv.arg(3), minIdle, deliveryTime, retryCount, force, justId, now);
            StreamId last = lastId;
            return claimAll(g, ids, claim).thenApply(reply -> {
                if (last.compareTo(g.lastId()) > 0) {
                    g.set(last, g.entriesRead());
                }
                g.save();
                g.s.save();
                return reply;
            });
        });
    }

    /** XCLAIM's options, resolved. */
    private record Claim(byte[] consumer, long minIdle, long deliveryTime, long retryCount, boolean force, boolean justId,
                         long now) {
    }

    private static CompletableFuture<Reply> claimAll(ConsumerGroup g, List<StreamId> ids, Claim c) {
        List<CompletableFuture<PendingEntry>> pending = new ArrayList<>();
        List<CompletableFuture<StreamEntry>> entries = new ArrayList<>();
        for (StreamId id : ids) {
            pending.add(g.pending(id));
            entries.add(g.s.entry(id));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(pending.toArray(new CompletableFuture[0]))
                .thenCombine(CompletableFuture.allOf(entries.toArray(new CompletableFuture[0])), (a, b) -> null);
        return all.thenCompose(v -> {
            // Entries claimed in order; the same ID named twice sees its first claim.
            java.util.Map<StreamId, PendingEntry> current = new java.util.HashMap<>();
            List<Reply> out = new ArrayList<>();
            boolean[] consumerSeen = {false};
            CompletableFuture<Void> consumerReady = CompletableFuture.completedFuture(null);
            List<Runnable> writes = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                StreamId id = ids.get(i);
                PendingEntry p = current.containsKey(id) ? current.get(id) : pending.get(i).join();
                StreamEntry e = entries.get(i).join();
                if (e == null) {
                    if (p != null) {
                        g.removePending(p);
                        current.put(id, null);
                    }
                    continue;
                }
                boolean fresh = false;
                if (c.force() && p == null) {
                    p = new PendingEntry(id, c.now(), 1, null);
                    fresh = true;
                }
                if (p == null) {
                    continue;
                }
                if (!fresh && c.minIdle() != 0 && c.now() - p.deliveryTime() < c.minIdle()) {
                    continue;
                }
                if (!consumerSeen[0]) {
                    consumerSeen[0] = true;
                    consumerReady = g.touchConsumer(c.consumer(), c.now(), true).thenApply(x -> null);
                }
                long count = c.retryCount() >= 0 ? c.retryCount() : c.justId() ? p.deliveryCount() : p.deliveryCount() + 1;
                PendingEntry claimed = new PendingEntry(id, c.deliveryTime(), count, c.consumer());
                g.putPending(claimed, fresh ? null : p);
                current.put(id, claimed);
                out.add(c.justId() ? id.reply() : e.reply());
            }
            return consumerReady.thenApply(x -> Reply.array(out));
        });
    }

    /** XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID] */
    private static CompletableFuture<Reply> xautoclaim(Invocation inv, Transaction tr) {
        long minIdle = Math.max(0, Numbers.parseLong(inv.arg(4), "ERR Invalid min-idle-time argument for XAUTOCLAIM"));
        StreamId start = StreamId.parseBound(inv.arg(5), true);
        long count = 100;
        boolean justId = false;
        for (int j = 6; j < inv.argc(); j++) {
            boolean more = j + 1 < inv.argc();
            String opt = inv.option(j);
            if (opt.equals("COUNT") && more) {
                long maxCount = Long.MAX_VALUE / 16;
                long c = Numbers.parseLong(inv.arg(j + 1), "ERR COUNT must be > 0");
                if (c < 1 || c > maxCount) {
                    throw new RedisException("ERR COUNT must be > 0");
                }
                count = c;
                j++;
            } else if (opt.equals("JUSTID")) {
                justId = true;
            } else {
                throw RedisException.syntax();
            }
        }
        long n = count;
        boolean just = justId;
        return group(inv, tr, true).thenCompose(g -> {
            if (g == null) {
                throw noGroup(inv);
            }
            return autoclaim(inv, g, minIdle, start, n, just);
        });
    }

    private static CompletableFuture<Reply> autoclaim(Invocation inv, ConsumerGroup g, long minIdle, StreamId start, long count,
                                                      boolean justId) {
        long attempts = count * 10;
        // Examines at most `attempts` PEL entries, and one more to learn where the next call starts.
        int limit = attempts + 1 > Integer.MAX_VALUE ? 0 : (int) (attempts + 1);
        long now = inv.now();
        byte[] consumer = inv.arg(3);
        return g.pendingRange(start, StreamId.MAX, limit).thenCompose(pel -> {
            int examinable = (int) Math.min(pel.size(), attempts);
            List<CompletableFuture<StreamEntry>> entries = new ArrayList<>();
            for (int i = 0; i < examinable; i++) {
                entries.add(g.s.entry(pel.get(i).id()));
            }
            return CompletableFuture.allOf(entries.toArray(new CompletableFuture[0])).thenCompose(v -> {
                List<Reply> claimed = new ArrayList<>();
                List<Reply> deleted = new ArrayList<>();
                long left = count;
                int i = 0;
                boolean touched = false;
                for (; i < examinable && left > 0; i++) {
                    PendingEntry p = pel.get(i);
                    StreamEntry e = entries.get(i).join();
                    if (e == null) {
                        g.removePending(p);
                        deleted.add(p.id().reply());
                        left--;
                        continue;
                    }
                    if (minIdle != 0 && now - p.deliveryTime() < minIdle) {
                        continue;
                    }
                    touched = true;
                    g.putPending(new PendingEntry(p.id(), now, justId ? p.deliveryCount() : p.deliveryCount() + 1, consumer), p);
                    claimed.add(justId ? p.id().reply() : e.reply());
                    left--;
                }
                StreamId next = i < pel.size() ? pel.get(i).id() : StreamId.MIN;
                CompletableFuture<Boolean> ready = touched ? g.touchConsumer(consumer, now, true) : CompletableFuture.completedFuture(false);
                boolean changed = touched || !deleted.isEmpty();
                return ready.thenApply(x -> {
                    if (changed) {
                        g.s.save();
                    }
                    return Reply.array(next.reply(), Reply.array(claimed), Reply.array(deleted));
                });
            });
        });
    }
}
