package io.strata.bench.redis;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

import java.util.function.LongSupplier;

/**
 * Memory per key: {@code keys} string keys ({@code mem:<i>}, 100-byte values) written through
 * a client, and the growth of what {@code usedBytes} reports divided by the number of keys —
 * Redis's {@code used_memory} for Redis, the JVM heap after a full collection for Strata —
 * right after the writes and again {@code settleMillis} later: Strata's engine holds the last
 * five seconds of writes in its MVCC window, in larger structures than the keys take once
 * they have left it.
 */
public final class MemoryPerKey {
    public static final int VALUE_BYTES = 100;

    private MemoryPerKey() {
    }

    /** Bytes per key right after the writes, and {@code settleMillis} after them. */
    public record PerKey(double rightAfter, double settled) {
    }

    public static PerKey measure(int port, int keys, LongSupplier usedBytes, long settleMillis) {
        long before = steady(usedBytes);
        byte[] value = new byte[VALUE_BYTES];
        java.util.Arrays.fill(value, (byte) 'v');
        try (Jedis j = new Jedis("127.0.0.1", port, 600_000)) {
            Pipeline p = j.pipelined();
            for (int i = 0; i < keys; i++) {
                p.set(("mem:" + i).getBytes(), value);
                if (i % 1000 == 999) {
                    p.sync();
                }
            }
            p.sync();
            long after = usedBytes.getAsLong();
            double perKey = (after - before) / (double) keys;
            double settled = perKey;
            if (settleMillis > 0) {
                try {
                    Thread.sleep(settleMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                settled = (usedBytes.getAsLong() - before) / (double) keys;
            }
            for (int i = 0; i < keys; i += 1000) {
                String[] batch = new String[Math.min(1000, keys - i)];
                for (int k = 0; k < batch.length; k++) {
                    batch[k] = "mem:" + (i + k);
                }
                j.del(batch);
            }
            return new PerKey(perKey, settled);
        }
    }

    /**
     * What {@code usedBytes} reports once it holds still: two readings 2 s apart within 1 MB
     * (at most 15 readings). What the server wrote before (the other tests' data) may still be
     * settling into its compact form — Strata's store packs it in the background — and would
     * otherwise shrink during the measurement, making the keys look smaller than they are.
     */
    static long steady(LongSupplier usedBytes) {
        long last = usedBytes.getAsLong();
        for (int i = 0; i < 14; i++) {
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            long now = usedBytes.getAsLong();
            if (Math.abs(now - last) <= (1 << 20)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    /** Redis's {@code used_memory}. */
    public static long redisUsedMemory(int port) {
        try (Jedis j = new Jedis("127.0.0.1", port)) {
            for (String line : j.info("memory").split("\r?\n")) {
                if (line.startsWith("used_memory:")) {
                    return Long.parseLong(line.substring("used_memory:".length()).trim());
                }
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }

    /** The JVM heap in use after a full collection (twice, to let reference processing settle). */
    public static long heapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 2; i++) {
            System.gc();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
