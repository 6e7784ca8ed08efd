package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.Numbers;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.RedisType;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * ZUNION, ZINTER, ZDIFF, their STORE forms, and ZINTERCARD: read every input whole (as Redis
 * does), combine with WEIGHTS and AGGREGATE SUM|MIN|MAX, and sort by (score, member).
 */
final class ZSetAlgebraCommands {
    enum Op { UNION, INTER, DIFF }

    private ZSetAlgebraCommands() {
    }

    static void register(CommandTable t) {
        t.add("zunion", -3, "readonly", 0, 0, 0, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.UNION, false));
        t.add("zinter", -3, "readonly", 0, 0, 0, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.INTER, false));
        t.add("zdiff", -3, "readonly", 0, 0, 0, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.DIFF, false));
        t.add("zunionstore", -4, "write denyoom", 1, 1, 1, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.UNION, true));
        t.add("zinterstore", -4, "write denyoom", 1, 1, 1, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.INTER, true));
        t.add("zdiffstore", -4, "write denyoom", 1, 1, 1, "sortedset", DATA, (inv, tr) -> combine(inv, tr, Op.DIFF, true));
        t.add("zintercard", -3, "readonly", 0, 0, 0, "sortedset", DATA, ZSetAlgebraCommands::zintercard);
    }

    /** The options after the keys: WEIGHTS, AGGREGATE, WITHSCORES, or ZINTERCARD's LIMIT. */
    private record Options(double[] weights, String aggregate, boolean withScores, long limit) {
    }

    /**
     * ZUNION/ZINTER/ZDIFF and their STORE forms. As Redis's {@code zunionInterDiffGenericCommand}:
     * numkeys, then every input key's type (WRONGTYPE before any option is looked at), then the
     * options, then the work.
     */
    private static CompletableFuture<Reply> combine(Invocation inv, Transaction tr, Op op, boolean store) {
        int numkeysAt = store ? 2 : 1;
        List<byte[]> keys = keys(inv, numkeysAt);
        return metas(inv, tr, keys).thenCompose(metas -> {
            Options o = options(inv, numkeysAt + 1 + keys.size(), keys.size(), op, store, false);
            return contents(inv, tr, metas).thenCompose(inputs -> {
                Map<ByteBuffer, Double> result = compute(op, inputs, o.weights(), o.aggregate());
                List<byte[]> elements = sorted(result);
                if (store) {
                    return ZRangeCommands.store(inv, tr, inv.arg(1), elements);
                }
                return CompletableFuture.completedFuture(o.withScores() ? withScores(inv, elements, result) : ZSets.members(elements));
            });
        });
    }

    /**
     * The reply with each score as computed, not as the element key holds it: a -0 (0 times a
     * negative weight) stays -0, as in Redis, which replies from the skip list it built; the
     * element key stores -0 as 0.
     */
    private static Reply withScores(Invocation inv, List<byte[]> elements, Map<ByteBuffer, Double> result) {
        List<Reply> out = new ArrayList<>();
        boolean pairs = inv.session().protocol() >= 3;
        for (byte[] e : elements) {
            byte[] member = ZSetObject.memberOf(e);
            Reply score = Reply.doubleValue(result.get(ByteBuffer.wrap(member)));
            if (pairs) {
                out.add(Reply.array(Reply.bulk(member), score));
            } else {
                out.add(Reply.bulk(member));
                out.add(score);
            }
        }
        return Reply.array(out);
    }

    /** numkeys at {@code numkeysAt} and the keys after it, checked as Redis does before reading them. */
    private static List<byte[]> keys(Invocation inv, int numkeysAt) {
        long numkeys = inv.longArg(numkeysAt);
        if (numkeys < 1) {
            throw new RedisException("ERR at least 1 input key is needed for '" + inv.spec().name() + "' command");
        }
        if (numkeys > inv.argc() - numkeysAt - 1) {
            throw RedisException.syntax();
        }
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < numkeys; i++) {
            keys.add(inv.arg(numkeysAt + 1 + i));
        }
        return keys;
    }

    /** The options from argument {@code at}, word by word as Redis reads them. */
    private static Options options(Invocation inv, int at, int numkeys, Op op, boolean store, boolean cardinality) {
        double[] weights = new double[numkeys];
        java.util.Arrays.fill(weights, 1);
        String aggregate = "SUM";
        boolean withScores = false;
        long limit = 0;
        for (int i = at; i < inv.argc(); i++) {
            String opt = inv.option(i);
            int remaining = inv.argc() - i;
            if (op != Op.DIFF && !cardinality && remaining >= numkeys + 1 && opt.equals("WEIGHTS")) {
                for (int w = 0; w < numkeys; w++) {
                    weights[w] = Numbers.parseDouble(inv.arg(i + 1 + w), "ERR weight value is not a float");
                }
                i += numkeys;
            } else if (op != Op.DIFF && !cardinality && remaining >= 2 && opt.equals("AGGREGATE")) {
                aggregate = inv.option(i + 1);
                if (!aggregate.equals("SUM") && !aggregate.equals("MIN") && !aggregate.equals("MAX")) {
                    throw RedisException.syntax();
                }
                i++;
            } else if (!store && !cardinality && opt.equals("WITHSCORES")) {
                withScores = true;
            } else if (cardinality && remaining >= 2 && opt.equals("LIMIT")) {
                // getPositiveLongFromObjectOrReply: a non-number and a negative LIMIT share the message.
                limit = inv.longArg(i + 1, "ERR LIMIT can't be negative");
                if (limit < 0) {
                    throw new RedisException("ERR LIMIT can't be negative");
                }
                i++;
            } else {
                throw RedisException.syntax();
            }
        }
        return new Options(weights, aggregate, withScores, limit);
    }

    /** Each key's metadata (null if absent); WRONGTYPE for a key neither a sorted set nor a set. */
    private static CompletableFuture<List<KeyMeta>> metas(Invocation inv, Transaction tr, List<byte[]> keys) {
        List<CompletableFuture<KeyMeta>> reads = new ArrayList<>();
        for (byte[] key : keys) {
            reads.add(inv.server().keys().get(tr, inv.db(), key, inv.now()));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<KeyMeta> out = new ArrayList<>();
            for (CompletableFuture<KeyMeta> r : reads) {
                KeyMeta m = r.join();
                if (m != null && m.type() != RedisType.ZSET && m.type() != RedisType.SET) {
                    throw RedisException.wrongType();
                }
                out.add(m);
            }
            return out;
        });
    }

    /** Each input as member → score in (score, member) order; null for a missing key. Sets count with score 1. */
    private static CompletableFuture<List<Map<ByteBuffer, Double>>> contents(Invocation inv, Transaction tr, List<KeyMeta> metas) {
        List<CompletableFuture<Map<ByteBuffer, Double>>> reads = new ArrayList<>();
        for (KeyMeta m : metas) {
            reads.add(read(inv, tr, m));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            List<Map<ByteBuffer, Double>> out = new ArrayList<>();
            for (CompletableFuture<Map<ByteBuffer, Double>> r : reads) {
                out.add(r.join());
            }
            return out;
        });
    }

    private static CompletableFuture<Map<ByteBuffer, Double>> read(Invocation inv, Transaction tr, KeyMeta meta) {
        if (meta == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (meta.type() == RedisType.SET) {
            return SetMembersForZSets.read(inv, tr, meta);
        }
        if (meta.type() != RedisType.ZSET) {
            throw RedisException.wrongType();
        }
        ZSetObject set = new ZSetObject(inv.server().keys().objectOf(inv.db(), meta));
        return set.ranked().scan(tr, new byte[0], null, 0, false).asList().thenApply(elements -> {
            Map<ByteBuffer, Double> m = new LinkedHashMap<>();
            for (byte[] e : elements) {
                m.put(ByteBuffer.wrap(ZSetObject.memberOf(e)), ZSetObject.scoreOf(e));
            }
            return m;
        });
    }

    static Map<ByteBuffer, Double> compute(Op op, List<Map<ByteBuffer, Double>> inputs, double[] weights, String aggregate) {
        Map<ByteBuffer, Double> result = new LinkedHashMap<>();
        if (op == Op.DIFF) {
            Map<ByteBuffer, Double> first = inputs.get(0);
            if (first == null) {
                return result;
            }
            outer:
            for (Map.Entry<ByteBuffer, Double> e : first.entrySet()) {
                for (int i = 1; i < inputs.size(); i++) {
                    if (inputs.get(i) != null && inputs.get(i).containsKey(e.getKey())) {
                        continue outer;
                    }
                }
                result.put(e.getKey(), e.getValue());
            }
            return result;
        }
        if (op == Op.INTER) {
            for (Map<ByteBuffer, Double> in : inputs) {
                if (in == null || in.isEmpty()) {
                    return result;
                }
            }
            outer:
            for (Map.Entry<ByteBuffer, Double> e : inputs.get(0).entrySet()) {
                double acc = weighted(e.getValue(), weights[0]);
                for (int i = 1; i < inputs.size(); i++) {
                    Double s = inputs.get(i).get(e.getKey());
                    if (s == null) {
                        continue outer;
                    }
                    acc = aggregate(acc, weighted(s, weights[i]), aggregate);
                }
                result.put(e.getKey(), acc);
            }
            return result;
        }
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i) == null) {
                continue;
            }
            for (Map.Entry<ByteBuffer, Double> e : inputs.get(i).entrySet()) {
                double s = weighted(e.getValue(), weights[i]);
                result.merge(e.getKey(), s, (a, b) -> aggregate(a, b, aggregate));
            }
        }
        return result;
    }

    /** Redis: a weighted score that is NaN (0 × inf) counts as 0. */
    private static double weighted(double score, double weight) {
        double w = score * weight;
        return Double.isNaN(w) ? 0 : w;
    }

    private static double aggregate(double a, double b, String how) {
        switch (how) {
            case "MIN":
                return Math.min(a, b);
            case "MAX":
                return Math.max(a, b);
            default:
                double s = a + b;
                // inf + -inf: Redis makes the sum 0 rather than NaN.
                return Double.isNaN(s) ? 0 : s;
        }
    }

    static List<byte[]> sorted(Map<ByteBuffer, Double> result) {
        List<byte[]> elements = new ArrayList<>(result.size());
        for (Map.Entry<ByteBuffer, Double> e : result.entrySet()) {
            elements.add(ZSetObject.element(e.getValue(), e.getKey().array()));
        }
        elements.sort(java.util.Arrays::compareUnsigned);
        return elements;
    }

    /** ZINTERCARD numkeys key [key ...] [LIMIT limit]: ZINTER's checks and order, LIMIT its only option. */
    private static CompletableFuture<Reply> zintercard(Invocation inv, Transaction tr) {
        List<byte[]> keys = keys(inv, 1);
        return metas(inv, tr, keys).thenCompose(metas -> {
            long cap = options(inv, 2 + keys.size(), keys.size(), Op.INTER, false, true).limit();
            double[] ones = new double[keys.size()];
            java.util.Arrays.fill(ones, 1);
            return contents(inv, tr, metas).thenApply(inputs -> {
                long n = compute(Op.INTER, inputs, ones, "SUM").size();
                return Reply.integer(cap > 0 ? Math.min(n, cap) : n);
            });
        });
    }
}
