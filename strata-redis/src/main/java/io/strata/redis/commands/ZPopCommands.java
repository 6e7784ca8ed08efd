package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.ScanArgs;
import io.strata.redis.keyspace.ScanCursors;
import io.strata.redis.protocol.RedisDoubles;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/** ZPOPMIN, ZPOPMAX, ZMPOP, ZRANDMEMBER and ZSCAN. */
final class ZPopCommands {
    /** Sets up to this size come back whole from ZSCAN with cursor 0, as Redis's listpack-encoded sets do. */
    static final int SCAN_WHOLE_UP_TO = 128;
    /**
     * A negative ZRANDMEMBER count past this (without WITHSCORES, which Redis itself bounds) is
     * refused: Redis would try to send 2^62 or more elements and exhaust its memory instead.
     */
    static final long MAX_REPEATED_PICKS = Long.MAX_VALUE / 2;

    private ZPopCommands() {
    }

    static void register(CommandTable t) {
        t.add("zpopmin", -2, "write fast", 1, 1, 1, "sortedset", DATA, (inv, tr) -> zpop(inv, tr, false));
        t.add("zpopmax", -2, "write fast", 1, 1, 1, "sortedset", DATA, (inv, tr) -> zpop(inv, tr, true));
        t.add("zmpop", -4, "write", 0, 0, 0, "sortedset", DATA, ZPopCommands::zmpop);
        t.add("zrandmember", -2, "readonly", 1, 1, 1, "sortedset", DATA, ZPopCommands::zrandmember);
        t.add("zscan", -3, "readonly", 1, 1, 1, "sortedset", DATA, ZPopCommands::zscan);
    }

    private static CompletableFuture<Reply> zpop(Invocation inv, Transaction tr, boolean max) {
        if (inv.argc() > 3) {
            throw RedisException.syntax();
        }
        boolean counted = inv.argc() == 3;
        // getPositiveLongFromObjectOrReply: a non-number gets the range's message too.
        String positive = "ERR value is out of range, must be positive";
        long count = counted ? inv.longArg(2, positive) : 1;
        if (count < 0) {
            throw new RedisException(positive);
        }
        return pop(inv, tr, inv.arg(1), max, count).thenApply(popped -> {
            if (popped == null) {
                return Reply.EMPTY_ARRAY;
            }
            if (counted && inv.session().protocol() >= 3) {
                return ZSets.withScores(inv, popped);
            }
            List<Reply> flat = new ArrayList<>();
            for (byte[] e : popped) {
                flat.add(Reply.bulk(ZSetObject.memberOf(e)));
                flat.add(Reply.doubleValue(ZSetObject.scoreOf(e)));
            }
            return Reply.array(flat);
        });
    }

    /** Removes and returns up to {@code count} lowest (or highest) elements; null if the key is absent. */
    static CompletableFuture<List<byte[]>> pop(Invocation inv, Transaction tr, byte[] key, boolean max, long count) {
        return ZSets.forWrite(inv, tr, key).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(null);
            }
            if (count == 0) {
                return CompletableFuture.completedFuture(List.<byte[]>of());
            }
            int limit = (int) Math.min(count, Integer.MAX_VALUE);
            return z.set().ranked().scan(tr, new byte[0], null, limit, max).asList().thenCompose(popped ->
                    z.set().removeElements(tr, popped)
                            .thenCompose(ignored -> ZSets.settle(inv, tr, key, z, max ? "zpopmax" : "zpopmin"))
                            .thenApply(ignored -> popped));
        });
    }

    /** ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]. */
    private static CompletableFuture<Reply> zmpop(Invocation inv, Transaction tr) {
        MpopArgs a = MpopArgs.parse(inv, 1);
        return firstNonEmpty(inv, tr, a.keys(), 0, a.max(), a.count());
    }

    /** The arguments of ZMPOP and BZMPOP from {@code numkeys} on: the keys, MIN or MAX, the count. */
    record MpopArgs(List<byte[]> keys, boolean max, long count) {
        /** Parses {@code numkeys key [key ...] MIN|MAX [COUNT count]} starting at {@code numkeysAt}. */
        static MpopArgs parse(Invocation inv, int numkeysAt) {
            // Redis reads numkeys and COUNT as ranges with their own message, a non-number included.
            String numkeysError = "ERR numkeys should be greater than 0";
            long numkeys = io.strata.redis.command.Numbers.parseLong(inv.arg(numkeysAt), numkeysError);
            if (numkeys <= 0) {
                throw new RedisException(numkeysError);
            }
            if (numkeys > inv.argc() - numkeysAt - 2) {
                throw RedisException.syntax();
            }
            int whereAt = numkeysAt + 1 + (int) numkeys;
            String where = inv.option(whereAt);
            if (!where.equals("MIN") && !where.equals("MAX")) {
                throw RedisException.syntax();
            }
            // As zmpopGenericCommand: COUNT is a word once, and only with a value after it.
            long count = -1;
            for (int i = whereAt + 1; i < inv.argc(); i++) {
                boolean more = i < inv.argc() - 1;
                if (count == -1 && more && inv.option(i).equals("COUNT")) {
                    String countError = "ERR count should be greater than 0";
                    count = io.strata.redis.command.Numbers.parseLong(inv.arg(++i), countError);
                    if (count <= 0) {
                        throw new RedisException(countError);
                    }
                } else {
                    throw RedisException.syntax();
                }
            }
            if (count == -1) {
                count = 1;
            }
            List<byte[]> keys = new ArrayList<>();
            for (int k = numkeysAt + 1; k < whereAt; k++) {
                keys.add(inv.arg(k));
            }
            return new MpopArgs(keys, where.equals("MAX"), count);
        }
    }

    private static CompletableFuture<Reply> firstNonEmpty(Invocation inv, Transaction tr, List<byte[]> keys, int at, boolean max, long count) {
        CompletableFuture<Reply> first = KeysInTurn.firstOf(keys.size() - at, i -> pop(inv, tr, keys.get(at + i), max, count)
                .thenApply(popped -> popped == null || popped.isEmpty() ? null : mpopReply(keys.get(at + i), popped)));
        return first.thenApply(reply -> reply == null ? Reply.NULL_ARRAY : reply);
    }

    /** ZMPOP's reply: the key, then [member, score] pairs. */
    static Reply mpopReply(byte[] key, List<byte[]> popped) {
        List<Reply> pairs = new ArrayList<>();
        for (byte[] e : popped) {
            pairs.add(Reply.array(Reply.bulk(ZSetObject.memberOf(e)), Reply.doubleValue(ZSetObject.scoreOf(e))));
        }
        return Reply.array(Reply.bulk(key), Reply.array(pairs));
    }

    /** ZRANDMEMBER key [count [WITHSCORES]]: random ranks, each found in O(log n). */
    private static CompletableFuture<Reply> zrandmember(Invocation inv, Transaction tr) {
        // Redis's order: the count and its range, then the syntax, then WITHSCORES's tighter range.
        boolean counted = inv.argc() >= 3;
        long count = counted ? inv.longArg(2) : 1;
        if (count == Long.MIN_VALUE) {
            throw new RedisException("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
        }
        if (inv.argc() > 4 || (inv.argc() == 4 && !inv.option(3).equals("WITHSCORES"))) {
            throw RedisException.syntax();
        }
        boolean withScores = inv.argc() == 4;
        if (withScores && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            throw new RedisException("ERR value is out of range");
        }
        if (count < -MAX_REPEATED_PICKS) {
            // Redis would start a reply of that many elements and never finish it.
            throw new RedisException("ERR value is out of range");
        }
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(counted ? Reply.EMPTY_ARRAY : Reply.NULL_BULK);
            }
            return z.set().count(tr).thenCompose(n -> {
                List<Long> ranks = pickRanks(n, counted ? count : 1);
                List<CompletableFuture<Optional<byte[]>>> found = new ArrayList<>();
                for (long r : ranks) {
                    found.add(z.set().ranked().getNth(tr, r));
                }
                return CompletableFuture.allOf(found.toArray(new CompletableFuture[0])).thenApply(ignored -> {
                    List<byte[]> elements = new ArrayList<>();
                    for (CompletableFuture<Optional<byte[]>> f : found) {
                        f.join().ifPresent(elements::add);
                    }
                    if (!counted) {
                        return elements.isEmpty() ? Reply.NULL_BULK : Reply.bulk(ZSetObject.memberOf(elements.get(0)));
                    }
                    return withScores ? ZSets.withScores(inv, elements) : ZSets.members(elements);
                });
            });
        });
    }

    /** Distinct random ranks for a positive count (all of them, shuffled, when it covers the set); repeats for a negative one. */
    static List<Long> pickRanks(long size, long count) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Long> ranks = new ArrayList<>();
        if (size == 0 || count == 0) {
            return ranks;
        }
        if (count < 0) {
            for (long i = 0; i < -count; i++) {
                ranks.add(random.nextLong(size));
            }
            return ranks;
        }
        if (count >= size) {
            for (long i = 0; i < size; i++) {
                ranks.add(i);
            }
            java.util.Collections.shuffle(ranks, random);
            return ranks;
        }
        java.util.Set<Long> chosen = new java.util.LinkedHashSet<>();
        while (chosen.size() < count) {
            chosen.add(random.nextLong(size));
        }
        ranks.addAll(chosen);
        return ranks;
    }

    /** ZSCAN key cursor [MATCH pattern] [COUNT count]: members and scores (scores as strings, as Redis sends them). */
    private static CompletableFuture<Reply> zscan(Invocation inv, Transaction tr) {
        ScanArgs args = ScanArgs.parse(inv, 2, false);
        ScanCursors cursors = new ScanCursors(inv.server().keys().keyspace());
        return ZSets.read(inv, tr, inv.arg(1)).thenCompose(z -> {
            if (!z.exists()) {
                return CompletableFuture.completedFuture(Reply.array(Reply.bulk("0"), Reply.EMPTY_ARRAY));
            }
            return z.set().count(tr).thenCompose(n -> cursors.load(tr, args.cursor()).thenCompose(resume -> {
                boolean whole = n <= SCAN_WHOLE_UP_TO;
                byte[] begin = resume == null || whole ? new byte[0] : java.util.Arrays.copyOf(resume, resume.length + 1);
                int limit = whole ? 0 : (int) Math.min(args.count(), 100_000);
                return z.set().ranked().scan(tr, begin, null, limit, false).asList().thenApply(elements -> {
                    List<Reply> out = new ArrayList<>();
                    for (byte[] e : elements) {
                        byte[] member = ZSetObject.memberOf(e);
                        if (args.matches(member)) {
                            out.add(Reply.bulk(member));
                            out.add(Reply.bulk(RedisDoubles.format(ZSetObject.scoreOf(e))));
                        }
                    }
                    long next = whole || elements.size() < limit ? 0
                            : cursors.save(tr, elements.get(elements.size() - 1), inv.now());
                    return Reply.array(Reply.bulk(Long.toUnsignedString(next)), Reply.array(out));
                });
            }));
        });
    }
}
