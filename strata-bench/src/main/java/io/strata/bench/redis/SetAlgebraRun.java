package io.strata.bench.redis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Set algebra over two big sets, timed from a client: two sets of {@code members} members each
 * (members {@code m:0 …} and {@code m:members/2 …}: half of each set is in the other), then
 * SINTERCARD, SINTERSTORE, SUNIONSTORE and SINTER (which returns the members), each the median
 * of {@code repeat} runs, wall-clock from sending the command to the last byte of its reply.
 */
public final class SetAlgebraRun {
    /** Members per SADD when loading. */
    private static final int LOAD_CHUNK = 1_000;

    private SetAlgebraRun() {
    }

    /** Loads the two sets; returns the seconds it took. */
    public static double load(int port, int members) {
        long start = System.nanoTime();
        try (Jedis j = new Jedis("127.0.0.1", port, 600_000)) {
            j.del("bench:set:a", "bench:set:b", "bench:set:out");
            Pipeline p = j.pipelined();
            int pending = 0;
            for (int base = 0; base < members; base += LOAD_CHUNK) {
                int n = Math.min(LOAD_CHUNK, members - base);
                String[] a = new String[n];
                String[] b = new String[n];
                for (int i = 0; i < n; i++) {
                    a[i] = "m:" + (base + i);
                    b[i] = "m:" + (base + i + members / 2);
                }
                p.sadd("bench:set:a", a);
                p.sadd("bench:set:b", b);
                if (++pending == 32) {
                    p.sync();
                    pending = 0;
                }
            }
            p.sync();
            long card = j.scard("bench:set:a");
            if (card != members) {
                throw new IllegalStateException("loaded " + card + " members, expected " + members);
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Median seconds of each operation, in order SINTERCARD, SINTERSTORE, SUNIONSTORE, SINTER; checks each answer. */
    public static Map<String, Double> time(int port, int members, int repeat) {
        Map<String, Double> medians = new LinkedHashMap<>();
        long expectedIntersection = members - members / 2;
        try (Jedis j = new Jedis("127.0.0.1", port, 600_000)) {
            medians.put("sintercard", median(repeat, () -> check(j.sintercard("bench:set:a", "bench:set:b"), expectedIntersection)));
            medians.put("sinterstore", median(repeat, () -> check(j.sinterstore("bench:set:out", "bench:set:a", "bench:set:b"), expectedIntersection)));
            medians.put("sunionstore", median(repeat, () -> check(j.sunionstore("bench:set:out", "bench:set:a", "bench:set:b"),
                    (long) members + members / 2)));
            medians.put("sinter", median(repeat, () -> check(j.sinter("bench:set:a", "bench:set:b").size(), expectedIntersection)));
            j.del("bench:set:a", "bench:set:b", "bench:set:out");
        }
        return medians;
    }

    private static void check(long got, long expected) {
        if (got != expected) {
            throw new IllegalStateException("set algebra answered " + got + ", expected " + expected);
        }
    }

    private static double median(int repeat, Runnable op) {
        List<Double> runs = new ArrayList<>();
        for (int i = 0; i < repeat; i++) {
            long start = System.nanoTime();
            op.run();
            runs.add((System.nanoTime() - start) / 1e9);
        }
        runs.sort(Double::compare);
        return runs.get(runs.size() / 2);
    }
}
