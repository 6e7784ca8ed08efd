package io.strata.redis.keyspace;

import java.util.concurrent.ThreadLocalRandom;

/** Random points of a key range, for reading a "random" key without reading them all (RANDOMKEY, eviction's samples). */
public final class RandomProbe {
    private RandomProbe() {
    }

    /**
     * A random key in {@code [low, high]}: their common prefix, then at the first byte where
     * they differ a byte drawn between theirs, then random bytes.
     */
    public static byte[] between(byte[] low, byte[] high) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int common = 0;
        while (common < low.length && common < high.length && low[common] == high[common]) {
            common++;
        }
        if (common == high.length) {
            // One key only (low == high).
            return low;
        }
        int lowByte = common < low.length ? low[common] & 0xff : 0;
        int highByte = high[common] & 0xff;
        byte[] probe = new byte[common + 1 + 8];
        System.arraycopy(high, 0, probe, 0, common);
        probe[common] = (byte) (lowByte + random.nextInt(highByte - lowByte + 1));
        for (int i = common + 1; i < probe.length; i++) {
            probe[i] = (byte) random.nextInt(256);
        }
        return probe;
    }
}
