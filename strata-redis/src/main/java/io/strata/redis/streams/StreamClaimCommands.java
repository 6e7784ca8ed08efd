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

/**
 * XCLAIM and XAUTOCLAIM, as Redis 7.0: pending entries idle long enough change consumer;
 * entries deleted from the stream leave the PEL (XAUTOCLAIM lists them).
 */
final class StreamClaimCommands {
    private StreamClaimCommands() {
    }

    static void register(CommandTable t) {
        t.add("xclaim", -6, "write fast", 1, 1, 1, "stream", DATA, StreamClaimCommands::xclaim);
        t.add("xautoclaim", -6, "write fast", 1, 1, 1, "stream", DATA, StreamClaimCommands::xautoclaim);
    }

    /**
     * XCLAIM key group consumer min-idle-time id [id ...] [IDLE ms] [TIME ms] [RETRYCOUNT n]
     * [FORCE] [JUSTID] [LASTID id]
     */
    private static CompletableFuture<Reply> xclaim(Invocation inv, Transaction tr) {
        return StreamGroupCommands.group(inv, tr, true).thenCompose(g -> {
            if (g == null) {
                throw StreamGroupCommands.noGroup(inv);
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
        return StreamGroupCommands.group(inv, tr, true).thenCompose(g -> {
            if (g == null) {
                throw StreamGroupCommands.noGroup(inv);
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
