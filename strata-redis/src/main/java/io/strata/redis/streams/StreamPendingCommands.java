package io.strata.redis.streams;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** XACK and XPENDING (summary and extended form, IDLE, consumer), as Redis 7.0. */
final class StreamPendingCommands {
    private StreamPendingCommands() {
    }

    static void register(CommandTable t) {
        t.add("xack", -4, "write fast", 1, 1, 1, "stream", DATA, StreamPendingCommands::xack);
        t.add("xpending", -3, "readonly", 1, 1, 1, "stream", DATA, StreamPendingCommands::xpending);
    }

    /** XACK key group id [id ...]: how many were pending. */
    private static CompletableFuture<Reply> xack(Invocation inv, Transaction tr) {
        return StreamGroupCommands.group(inv, tr, true).thenCompose(g -> {
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
        return StreamGroupCommands.group(inv, tr, false).thenCompose(g -> {
            if (g == null) {
                throw StreamGroupCommands.noGroup(inv);
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
}
