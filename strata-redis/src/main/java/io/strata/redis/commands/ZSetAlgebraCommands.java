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

    private static CompletableFuture<Reply> combine(Invocation inv, Transaction tr, Op op, boolean store) {
        String name = inv.spec().name();
        int numkeysAt = store ? 2 : 1;
        long numkeys = inv.longArg(numkeysAt);
        if (numkeys < 1) {
            throw new RedisException("ERR at least 1 input key is needed for '" + name + "' command");
        }
        if (numkeys > inv.argc() - numkeysAt - 1) {
            throw RedisException.syntax();
        }
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < numkeys; i++) {
            keys.add(inv.arg(numkeysAt + 1 + i));
        }
        double[] weights = new double[keys.size()];
        java.util.Arrays.fill(weights, 1);
        String aggregate = "SUM";
        boolean withScores = false;
        for (int i = numkeysAt + 1 + (int) numkeys; i < inv.argc(); i++) {
            String opt = inv.option(i);
            int left = inv.argc() - i - 1;
            if (op != Op.DIFF && opt.equals("WEIGHTS") && left >= numkeys) {
                for (int w = 0; w < numkeys; w++) {
                    weights[w] = Numbers.parseDouble(inv.arg(i + 1 + w), "ERR weight value is not a float");
                }
                i += (int) numkeys;
            } else if (op != Op.DIFF && opt.equals("AGGREGATE") && left >= 1) {
                aggregate = inv.option(i + 1);
                if (!aggregate.equals("SUM") && !aggregate.equals("MIN") && !aggregate.equals("MAX")) {
                    throw RedisException.syntax();
                }
                i++;
            } else if (!store && opt.equals("WITHSCORES")) {
                withScores = true;
            } else {
                throw RedisException.syntax();
            }
        }
        String agg = aggregate;
        boolean scores = withScores;
        return readAll(inv, tr, keys).thenCompose(inputs -> {
            Map<ByteBuffer, Double> result = compute(op, inputs, weights, agg);
            List<byte[]> elements = sorted(result);
            if (store) {
                return ZRangeCommands.store(inv, tr, inv.arg(1), elements);
            }
            return CompletableFuture.completedFuture(scores ? ZSets.withScores(inv, elements) : ZSets.members(elements));
        });
    }

    /** Each input as member → score in (score, member) order; null for a missing key. Sets count with score 1. */
    static CompletableFuture<List<Map<ByteBuffer, Double>>> readAll(Invocation inv, Transaction tr, List<byte[]> keys) {
        List<CompletableFuture<Map<ByteBuffer, Double>>> reads = new ArrayList<>();
        for (byte[] key : keys) {
            reads.add(inv.server().keys().get(tr, inv.db(), key, inv.now()).thenCompose(meta -> read(inv, tr, meta)));
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

    /** ZINTERCARD numkeys key [key ...] [LIMIT limit]. */
    private static CompletableFuture<Reply> zintercard(Invocation inv, Transaction tr) {
        // Redis 7.0 runs ZINTERCARD through ZUNION/ZINTER's argument checks, words included.
        long numkeys = inv.longArg(1);
        if (numkeys < 1) {
            throw new RedisException("ERR at least 1 input key is needed for 'zintercard' command");
        }
        if (numkeys > inv.argc() - 2) {
            throw RedisException.syntax();
        }
        long limit = 0;
        int i = 2 + (int) numkeys;
        if (i < inv.argc()) {
            if (!inv.option(i).equals("LIMIT") || i + 2 != inv.argc()) {
                throw RedisException.syntax();
            }
            // Redis words both a non-number and a negative LIMIT the same way.
            limit = inv.longArg(i + 1, "ERR LIMIT can't be negative");
            if (limit < 0) {
                throw new RedisException("ERR LIMIT can't be negative");
            }
        }
        List<byte[]> keys = new ArrayList<>();
        for (int k = 2; k < 2 + numkeys; k++) {
            keys.add(inv.arg(k));
        }
        long cap = limit;
        double[] ones = new double[keys.size()];
        java.util.Arrays.fill(ones, 1);
        return readAll(inv, tr, keys).thenApply(inputs -> {
            long n = compute(Op.INTER, inputs, ones, "SUM").size();
            return Reply.integer(cap > 0 ? Math.min(n, cap) : n);
        });
    }
}
