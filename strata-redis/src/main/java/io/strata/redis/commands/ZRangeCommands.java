package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * ZRANGE in all its forms (by rank, BYSCORE, BYLEX, REV, LIMIT, WITHSCORES), the older
 * ZRANGEBYSCORE / ZREVRANGEBYSCORE / ZRANGEBYLEX / ZREVRANGEBYLEX / ZREVRANGE, ZRANGESTORE, and
 * ZREMRANGEBYRANK / ZREMRANGEBYSCORE / ZREMRANGEBYLEX. A rank range starts with one O(log n)
 * lookup of the ranked set, then reads the elements in order.
 */
final class ZRangeCommands {
    private ZRangeCommands() {
    }

    enum By { RANK, SCORE, LEX }

    /** A parsed range request. */
    record Request(byte[] key, byte[] start, byte[] stop, By by, boolean rev, long offset, long count, boolean withScores) {
    }

    static void register(CommandTable t) {
        t.add("zrange", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, parseZrange(inv, 1)));
        t.add("zrangestore", -5, "write denyoom", 1, 2, 1, "sortedset", DATA, ZRangeCommands::zrangestore);
        t.add("zrevrange", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, legacy(inv, By.RANK, true)));
        t.add("zrangebyscore", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, legacy(inv, By.SCORE, false)));
        t.add("zrevrangebyscore", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, legacy(inv, By.SCORE, true)));
        t.add("zrangebylex", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, legacy(inv, By.LEX, false)));
        t.add("zrevrangebylex", -4, "readonly", 1, 1, 1, "sortedset", DATA, (inv, tr) -> range(inv, tr, legacy(inv, By.LEX, true)));
        t.add("zremrangebyrank", 4, "write", 1, 1, 1, "sortedset", DATA, (inv, tr) -> removeRange(inv, tr, By.RANK));
        t.add("zremrangebyscore", 4, "write", 1, 1, 1, "sortedset", DATA, (inv, tr) -> removeRange(inv, tr, By.SCORE));
        t.add("zremrangebylex", 4, "write", 1, 1, 1, "sortedset", DATA, (inv, tr) -> removeRange(inv, tr, By.LEX));
    }

    /** ZRANGE key start stop [BYSCORE|BYLEX] [REV] [LIMIT offset count] [WITHSCORES], from argument {@code at}. */
    static Request parseZrange(Invocation inv, int at) {
        return parse(inv, at, false, null, null);
    }

    /** ZREVRANGE, ZRANGEBYSCORE and the other older forms: the kind and direction fixed by the name. */
    private static Request legacy(Invocation inv, By by, boolean rev) {
        return parse(inv, 1, false, by, rev);
    }

    /**
     * Redis's {@code zrangeGenericCommand} step 1: the options after {@code key min max} at
     * {@code at}, in its order. BYSCORE, BYLEX and REV are words only while not yet set (by an
     * earlier word or the command's name), so a repeated one is a syntax error; WITHSCORES is
     * not a word of the store form; LIMIT's numbers are read where LIMIT stands. Then the
     * conflicts: a LIMIT count other than -1 with a rank range, WITHSCORES with BYLEX.
     */
    private static Request parse(Invocation inv, int at, boolean store, By fixedBy, Boolean fixedRev) {
        By by = fixedBy;
        Boolean rev = fixedRev;
        boolean withScores = false;
        long offset = 0;
        long count = -1;
        for (int i = at + 3; i < inv.argc(); i++) {
            String opt = inv.option(i);
            int left = inv.argc() - i - 1;
            if (!store && opt.equals("WITHSCORES")) {
                withScores = true;
            } else if (opt.equals("LIMIT") && left >= 2) {
                offset = inv.longArg(i + 1);
                count = inv.longArg(i + 2);
                i += 2;
            } else if (rev == null && opt.equals("REV")) {
                rev = true;
            } else if (by == null && opt.equals("BYLEX")) {
                by = By.LEX;
            } else if (by == null && opt.equals("BYSCORE")) {
                by = By.SCORE;
            } else {
                throw RedisException.syntax();
            }
        }
        if (by == null) {
            by = By.RANK;
        }
        boolean reverse = rev != null && rev;
        if (count != -1 && by == By.RANK) {
            throw new RedisException("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
        }
        if (withScores && by == By.LEX) {
            throw new RedisException("ERR syntax error, WITHSCORES not supported in combination with BYLEX");
        }
        // With REV, BYSCORE and BYLEX take the interval as max min.
        byte[] start = inv.arg(at + 1);
        byte[] stop = inv.arg(at + 2);
        if (reverse && by != By.RANK) {
            byte[] t = start;
            start = stop;
            stop = t;
        }
        return new Request(inv.arg(at), start, stop, by, reverse, offset, count, withScores);
    }

    private static CompletableFuture<Reply> range(Invocation inv, Transaction tr, Request r) {
        return select(inv, tr, r).thenApply(elements -> r.withScores() ? ZSets.withScores(inv, elements) : ZSets.members(elements));
    }

    /** The elements a request selects, in reply order. */
    static CompletableFuture<List<byte[]>> select(Invocation inv, Transaction tr, Request r) {
        // Arguments are checked before the key is read, as in Redis.
        ZRangeSpec.Scores scores = r.by() == By.SCORE ? ZRangeSpec.scores(r.start(), r.stop()) : null;
        ZRangeSpec.Lex lex = r.by() == By.LEX ? ZRangeSpec.lex(r.start(), r.stop()) : null;
        long start = r.by() == By.RANK ? Numbers.parseLong(r.start(), RedisException.NOT_INTEGER) : 0;
        long stop = r.by() == By.RANK ? Numbers.parseLong(r.stop(), RedisException.NOT_INTEGER) : 0;
        return ZSets.read(inv, tr, r.key()).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(List.of());
            }
            switch (r.by()) {
                case RANK:
                    return byRank(tr, z.set(), start, stop, r.rev());
                case SCORE:
                    if (scores.empty()) {
                        return CompletableFuture.completedFuture(List.of());
                    }
                    return z.set().ranked().scan(tr, scores.begin(), scores.end(), 0, r.rev()).asList()
                            .thenApply(all -> limit(all, r.offset(), r.count()));
                default:
                    if (lex.empty()) {
                        return CompletableFuture.completedFuture(List.of());
                    }
                    return lexElements(tr, z.set(), lex, r.rev()).thenApply(all -> limit(all, r.offset(), r.count()));
            }
        });
    }

    /** Redis's rank rules: negative counts from the end, clamped; empty when start is past stop or the end. */
    static CompletableFuture<List<byte[]>> byRank(ReadTransaction tr, ZSetObject set, long start, long stop, boolean rev) {
        return set.count(tr).thenCompose(n -> {
            long s = start < 0 ? n + start : start;
            long e = stop < 0 ? n + stop : stop;
            if (s < 0) {
                s = 0;
            }
            if (s > e || s >= n) {
                return CompletableFuture.completedFuture(List.of());
            }
            if (e >= n) {
                e = n - 1;
            }
            int howMany = (int) Math.min(Integer.MAX_VALUE, e - s + 1);
            long firstRank = rev ? n - 1 - s : s;
            return set.ranked().scanFromRank(tr, firstRank, howMany, rev).asList();
        });
    }

    /**
     * The elements whose member is in the lexicographic interval, in order (reverse if asked).
     * Redis defines lex ranges for sets whose members share one score; then this is a range read
     * within that score. With mixed scores it walks the whole set in (score, member) order and
     * keeps the members in the interval.
     */
    static CompletableFuture<List<byte[]>> lexElements(ReadTransaction tr, ZSetObject set, ZRangeSpec.Lex lex, boolean rev) {
        CompletableFuture<List<byte[]>> first = set.ranked().scan(tr, new byte[0], null, 1, false).asList();
        CompletableFuture<List<byte[]>> last = set.ranked().scan(tr, new byte[0], null, 1, true).asList();
        return first.thenCombine(last, (a, b) -> a.isEmpty() ? null : new double[] {ZSetObject.scoreOf(a.get(0)), ZSetObject.scoreOf(b.get(0))})
                .thenCompose(bounds -> {
                    if (bounds == null) {
                        return CompletableFuture.completedFuture(List.<byte[]>of());
                    }
                    if (bounds[0] == bounds[1]) {
                        return set.ranked().scan(tr, lex.begin(bounds[0]), lex.end(bounds[0]), 0, rev).asList();
                    }
                    return set.ranked().scan(tr, new byte[0], null, 0, rev).asList().thenApply(all -> {
                        List<byte[]> kept = new ArrayList<>();
                        for (byte[] e : all) {
                            if (lex.contains(ZSetObject.memberOf(e))) {
                                kept.add(e);
                            }
                        }
                        return kept;
                    });
                });
    }

    /** LIMIT offset count: a negative offset selects nothing, a negative count means all. */
    static List<byte[]> limit(List<byte[]> all, long offset, long count) {
        if (offset < 0 || offset >= all.size()) {
            return offset == 0 ? all : Collections.emptyList();
        }
        long end = count < 0 ? all.size() : Math.min(all.size(), offset + count);
        return all.subList((int) offset, (int) end);
    }

    /** ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]. */
    private static CompletableFuture<Reply> zrangestore(Invocation inv, Transaction tr) {
        Request r = parse(inv, 2, true, null, null);
        byte[] dst = inv.arg(1);
        return select(inv, tr, r).thenCompose(elements -> store(inv, tr, dst, elements));
    }

    /** Replaces {@code dst} (any type) by a sorted set of {@code elements}; deletes it when empty. */
    static CompletableFuture<Reply> store(Invocation inv, Transaction tr, byte[] dst, List<byte[]> elements) {
        // The event is the command's name: zrangestore, zunionstore, zinterstore or zdiffstore.
        return store(inv, tr, dst, elements, inv.spec().name());
    }

    /** {@link #store} notifying {@code event} for the stored set. */
    static CompletableFuture<Reply> store(Invocation inv, Transaction tr, byte[] dst, List<byte[]> elements, String event) {
        return inv.server().keys().getForWrite(tr, inv.db(), dst, inv.now()).thenCompose(old -> {
            if (elements.isEmpty()) {
                if (old != null) {
                    inv.server().keys().delete(tr, inv.db(), dst, old);
                    inv.keyspaceEvent(tr, NotifyKeyspaceEvents.GENERIC, "del", dst);
                }
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            return ZSets.create(inv, tr, dst, old).thenCompose(z -> ZSets.sequentially(elements,
                    e -> z.set().put(tr, ZSetObject.memberOf(e), null, ZSetObject.scoreOf(e))))
                    .thenApply(ignored -> {
                        inv.keyspaceEvent(tr, NotifyKeyspaceEvents.ZSET, event, dst);
                        return Reply.integer(elements.size());
                    });
        });
    }

    private static CompletableFuture<Reply> removeRange(Invocation inv, Transaction tr, By by) {
        ZRangeSpec.Scores scores = by == By.SCORE ? ZRangeSpec.scores(inv.arg(2), inv.arg(3)) : null;
        ZRangeSpec.Lex lex = by == By.LEX ? ZRangeSpec.lex(inv.arg(2), inv.arg(3)) : null;
        long start = by == By.RANK ? inv.longArg(2) : 0;
        long stop = by == By.RANK ? inv.longArg(3) : 0;
        byte[] key = inv.arg(1);
        return ZSets.forWrite(inv, tr, key).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(Reply.ZERO);
            }
            CompletableFuture<List<byte[]>> doomed;
            if (by == By.RANK) {
                doomed = byRank(tr, z.set(), start, stop, false);
            } else if (by == By.SCORE) {
                doomed = scores.empty() ? CompletableFuture.completedFuture(List.of())
                        : z.set().ranked().scan(tr, scores.begin(), scores.end(), 0, false).asList();
            } else {
                doomed = lex.empty() ? CompletableFuture.completedFuture(List.of()) : lexElements(tr, z.set(), lex, false);
            }
            return doomed.thenCompose(list -> z.set().removeElements(tr, list)
                    .thenCompose(ignored -> list.isEmpty() ? CompletableFuture.completedFuture(null)
                            // The event is the command's name: zremrangebyrank, zremrangebyscore or zremrangebylex.
                            : ZSets.settle(inv, tr, key, z, inv.spec().name()))
                    .thenApply(ignored -> Reply.integer(list.size())));
        });
    }
}
