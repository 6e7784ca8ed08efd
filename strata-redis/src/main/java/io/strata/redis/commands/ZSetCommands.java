package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sorted sets: ZADD (NX/XX/GT/LT/CH/INCR), ZINCRBY, ZREM, ZCARD, ZSCORE, ZMSCORE, ZRANK,
 * ZREVRANK, ZCOUNT, ZLEXCOUNT. Ranges, pops and algebra are in their own classes
 * ({@link ZRangeCommands}, {@link ZPopCommands}, {@link ZSetAlgebraCommands}); the layout in
 * {@link ZSetObject}.
 */
final class ZSetCommands {
    private ZSetCommands() {
    }

    static void register(CommandTable t) {
        t.add("zadd", -4, "write denyoom fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zadd);
        t.add("zincrby", 4, "write denyoom fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zincrby);
        t.add("zrem", -3, "write fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zrem);
        t.add("zcard", 2, "readonly fast", 1, 1, 1, "sortedset", DATA, (inv, tr) ->
                ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> z.exists() ? z.set().count(tr).thenApply(Reply::integer)
                        : CompletableFuture.completedFuture(Reply.ZERO)));
        t.add("zscore", 3, "readonly fast", 1, 1, 1, "sortedset", DATA, (inv, tr) ->
                ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> !z.exists() ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                        : z.set().score(tr, inv.arg(2)).thenApply(s -> s == null ? Reply.NULL_BULK : Reply.doubleValue(s))));
        t.add("zmscore", -3, "readonly fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zmscore);
        t.add("zrank", 3, "readonly fast", 1, 1, 1, "sortedset", DATA, (inv, tr) -> rank(inv, tr, false));
        t.add("zrevrank", 3, "readonly fast", 1, 1, 1, "sortedset", DATA, (inv, tr) -> rank(inv, tr, true));
        t.add("zcount", 4, "readonly fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zcount);
        t.add("zlexcount", 4, "readonly fast", 1, 1, 1, "sortedset", DATA, ZSetCommands::zlexcount);
    }

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]. */
    private static CompletableFuture<Reply> zadd(Invocation inv, Transaction tr) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        boolean ch = false;
        boolean incr = false;
        int i = 2;
        for (; i < inv.argc(); i++) {
            String opt = inv.option(i);
            if (opt.equals("NX")) {
                nx = true;
            } else if (opt.equals("XX")) {
                xx = true;
            } else if (opt.equals("GT")) {
                gt = true;
            } else if (opt.equals("LT")) {
                lt = true;
            } else if (opt.equals("CH")) {
                ch = true;
            } else if (opt.equals("INCR")) {
                incr = true;
            } else {
                break;
            }
        }
        int elements = inv.argc() - i;
        if (elements % 2 != 0 || elements == 0) {
            throw RedisException.syntax();
        }
        // Redis's order: the option conflicts, then INCR's single pair, then the scores, then the key.
        if (nx && xx) {
            throw new RedisException("ERR XX and NX options at the same time are not compatible");
        }
        if ((gt && nx) || (lt && nx) || (gt && lt)) {
            throw new RedisException("ERR GT, LT, and/or NX options at the same time are not compatible");
        }
        if (incr && elements > 2) {
            throw new RedisException("ERR INCR option supports a single increment-element pair");
        }
        List<Double> scores = new ArrayList<>();
        List<byte[]> members = new ArrayList<>();
        for (int j = i; j < inv.argc(); j += 2) {
            scores.add(Numbers.parseDouble(inv.arg(j), RedisException.NOT_FLOAT));
            members.add(inv.arg(j + 1));
        }
        return add(inv, tr, inv.arg(1), scores, members, new Flags(nx, xx, gt, lt, ch, incr));
    }

    record Flags(boolean nx, boolean xx, boolean gt, boolean lt, boolean ch, boolean incr) {
    }

    /** ZADD's work once its arguments are checked; also ZINCRBY's. */
    static CompletableFuture<Reply> add(Invocation inv, Transaction tr, byte[] key, List<Double> scores, List<byte[]> members, Flags f) {
        return ZSets.forWrite(inv, tr, key).thenCompose(z -> {
            if (!z.exists() && f.xx()) {
                return CompletableFuture.completedFuture(f.incr() ? Reply.NULL_BULK : Reply.ZERO);
            }
            CompletableFuture<ZSets.Opened> open = z.exists() ? CompletableFuture.completedFuture(z) : ZSets.allocate(inv, tr);
            return open.thenCompose(set -> {
                for (byte[] m : members) {
                    set.set().checkMember(m);
                }
                if (!z.exists()) {
                    // Created only once the members passed: a refused ZADD leaves no key (and no event).
                    ZSets.install(inv, tr, key, null, set);
                }
                AtomicLong added = new AtomicLong();
                AtomicLong updated = new AtomicLong();
                double[] incrResult = {Double.NaN};
                boolean[] performed = {false};
                List<Integer> order = new ArrayList<>();
                for (int k = 0; k < members.size(); k++) {
                    order.add(k);
                }
                return ZSets.sequentially(order, k -> set.set().score(tr, members.get(k)).thenCompose(old -> {
                    double score = scores.get(k);
                    if (old == null) {
                        if (f.xx()) {
                            return CompletableFuture.completedFuture(null);
                        }
                        added.incrementAndGet();
                        performed[0] = true;
                        incrResult[0] = score;
                        return set.set().put(tr, members.get(k), null, score);
                    }
                    if (f.nx()) {
                        return CompletableFuture.completedFuture(null);
                    }
                    double next = f.incr() ? old + score : score;
                    if (Double.isNaN(next)) {
                        throw new RedisException("ERR resulting score is not a number (NaN)");
                    }
                    if ((f.gt() && next <= old) || (f.lt() && next >= old)) {
                        return CompletableFuture.completedFuture(null);
                    }
                    performed[0] = true;
                    incrResult[0] = next;
                    if (next != old) {
                        updated.incrementAndGet();
                    }
                    return set.set().put(tr, members.get(k), old, next);
                })).thenCompose(ignored -> {
                    if (added.get() + updated.get() > 0) {
                        inv.server().keys().touch(tr, inv.db(), key);
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.ZSET, f.incr() ? "zincr" : "zadd", key);
                    }
                    if (!z.exists() && added.get() == 0) {
                        // Nothing was added to a set created for this command: it must not stay empty.
                        return ZSets.settle(inv, tr, key, set, null).thenApply(v -> (Object) null);
                    }
                    return CompletableFuture.completedFuture(null);
                }).thenApply(ignored -> {
                    if (f.incr()) {
                        return performed[0] ? Reply.doubleValue(incrResult[0]) : Reply.NULL_BULK;
                    }
                    return Reply.integer(added.get() + (f.ch() ? updated.get() : 0));
                });
            });
        });
    }

    private static CompletableFuture<Reply> zincrby(Invocation inv, Transaction tr) {
        double by = Numbers.parseDouble(inv.arg(2), RedisException.NOT_FLOAT);
        return add(inv, tr, inv.arg(1), List.of(by), List.of(inv.arg(3)), new Flags(false, false, false, false, false, true));
    }

    private static CompletableFuture<Reply> zrem(Invocation inv, Transaction tr) {
        byte[] key = inv.arg(1);
        return ZSets.forWrite(inv, tr, key).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            List<byte[]> members = new ArrayList<>();
            java.util.Set<java.nio.ByteBuffer> seen = new java.util.HashSet<>();
            for (int i = 2; i < inv.argc(); i++) {
                if (seen.add(java.nio.ByteBuffer.wrap(inv.arg(i)))) {
                    members.add(inv.arg(i));
                }
            }
            // Every score first, then the elements removed highest first (ZSetObject.removeElements).
            List<CompletableFuture<Double>> scores = new ArrayList<>(members.size());
            for (byte[] m : members) {
                scores.add(z.set().score(tr, m));
            }
            return CompletableFuture.allOf(scores.toArray(new CompletableFuture[0])).thenCompose(read -> {
                List<byte[]> elements = new ArrayList<>();
                for (int i = 0; i < members.size(); i++) {
                    Double old = scores.get(i).join();
                    if (old != null) {
                        elements.add(ZSetObject.element(old, members.get(i)));
                    }
                }
                if (elements.isEmpty()) {
                    return CompletableFuture.completedFuture(Reply.ZERO);
                }
                return z.set().removeElements(tr, elements)
                        .thenCompose(ignored -> ZSets.settle(inv, tr, key, z, "zrem"))
                        .thenApply(ignored -> Reply.integer(elements.size()));
            });
        });
    }

    private static CompletableFuture<Reply> zmscore(Invocation inv, Transaction tr) {
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            List<CompletableFuture<Double>> scores = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                scores.add(z.exists() ? z.set().score(tr, inv.arg(i)) : CompletableFuture.completedFuture(null));
            }
            return CompletableFuture.allOf(scores.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                List<Reply> out = new ArrayList<>();
                for (CompletableFuture<Double> s : scores) {
                    out.add(s.join() == null ? Reply.NULL_BULK : Reply.doubleValue(s.join()));
                }
                return Reply.array(out);
            });
        });
    }

    private static CompletableFuture<Reply> rank(Invocation inv, Transaction tr, boolean reverse) {
        byte[] member = inv.arg(2);
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(Reply.NULL_BULK);
            }
            return z.set().score(tr, member).thenCompose(score -> {
                if (score == null) {
                    return CompletableFuture.completedFuture(Reply.NULL_BULK);
                }
                CompletableFuture<java.util.OptionalLong> r = z.set().ranked().rank(tr, ZSetObject.element(score, member));
                if (!reverse) {
                    return r.thenApply(o -> Reply.integer(o.orElseThrow()));
                }
                return r.thenCombine(z.set().count(tr), (o, n) -> Reply.integer(n - 1 - o.orElseThrow()));
            });
        });
    }

    private static CompletableFuture<Reply> zcount(Invocation inv, Transaction tr) {
        ZRangeSpec.Scores range = ZRangeSpec.scores(inv.arg(2), inv.arg(3));
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists() || range.empty()) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return z.set().ranked().count(tr, range.begin(), range.end()).thenApply(Reply::integer);
        });
    }

    private static CompletableFuture<Reply> zlexcount(Invocation inv, Transaction tr) {
        ZRangeSpec.Lex range = ZRangeSpec.lex(inv.arg(2), inv.arg(3));
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists() || range.empty()) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return ZRangeCommands.lexElements(tr, z.set(), range, false).thenApply(list -> Reply.integer(list.size()));
        });
    }
}
