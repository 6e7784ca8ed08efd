package io.strata.bench.ssd;

import io.strata.bench.data.Mix;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The data of {@code strata bench ssd}, computed from a key's index so that nothing is held in
 * memory however large the load: {@code count} keys of {@value #KEY_BYTES} bytes and a value of
 * {@code valueBytes} random bytes each.
 *
 * <p>A key is {@code 'k'}, 7 bytes of a bijective hash of its index, then the index (8 bytes,
 * big-endian): consecutive indexes land far apart in key order, so a loader writing a run of
 * indexes writes all over the key space, as an application inserting by random id does, and a
 * scan of 100 keys from a key crosses 100 unrelated indexes. Values are slices of a 1 MiB pool
 * of random bytes (incompressible), stamped with the index in their first 8 bytes, so a read
 * can be checked against {@link #value}.
 */
public final class SsdData {
    public static final int KEY_BYTES = 16;
    private static final int POOL_BYTES = 1 << 20;
    /** The first key byte; every key is below {@link #END}, and none is in the system key space. */
    private static final byte PREFIX = 'k';
    /** Above every key: the end of a scan. */
    public static final byte[] END = {PREFIX + 1};

    private final long count;
    private final int valueBytes;
    private final byte[] pool;

    public SsdData(long count, int valueBytes) {
        if (count < 1 || valueBytes < 8) {
            throw new IllegalArgumentException("need at least 1 key and values of at least 8 bytes");
        }
        this.count = count;
        this.valueBytes = valueBytes;
        this.pool = new byte[POOL_BYTES + valueBytes];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < pool.length; i += 8) {
            long r = random.nextLong();
            for (int b = 0; b < 8 && i + b < pool.length; b++) {
                pool[i + b] = (byte) (r >>> (8 * b));
            }
        }
    }

    /** As many keys as fit {@code bytes} of keys and values. */
    public static SsdData ofBytes(long bytes, int valueBytes) {
        return new SsdData(Math.max(1, bytes / (KEY_BYTES + valueBytes)), valueBytes);
    }

    public long count() {
        return count;
    }

    public int valueBytes() {
        return valueBytes;
    }

    /** Bytes of keys and values of {@code keys} keys. */
    public long bytesOf(long keys) {
        return keys * (KEY_BYTES + valueBytes);
    }

    /** The key of index {@code i}; a new array. */
    public byte[] key(long i) {
        return ByteBuffer.allocate(KEY_BYTES).putLong(((long) PREFIX << 56) | (Mix.murmur64(i) >>> 8)).putLong(i).array();
    }

    /**
     * The share of the keys that sort below {@code key}, from its place in the key space (keys
     * are spread uniformly over the 56 bits after their first byte): 0 for a key below every
     * key, 1 for one at or past {@link #END}.
     */
    public static double share(byte[] key) {
        if (key.length == 0 || (key[0] & 0xFF) < PREFIX) {
            return 0;
        }
        if ((key[0] & 0xFF) > PREFIX) {
            return 1;
        }
        long bits = ByteBuffer.wrap(Arrays.copyOf(key, Long.BYTES)).getLong() & 0x00FF_FFFF_FFFF_FFFFL;
        return bits / (double) (1L << 56);
    }

    /** The value of index {@code i}; a new array (Strata keeps the arrays it is given). */
    public byte[] value(long i) {
        int offset = (int) Long.remainderUnsigned(Mix.murmur64(~i), POOL_BYTES);
        byte[] v = Arrays.copyOfRange(pool, offset, offset + valueBytes);
        ByteBuffer.wrap(v).putLong(i);
        return v;
    }

    /** Whether {@code v} is the value of index {@code i}. */
    public boolean isValueOf(long i, byte[] v) {
        return v != null && Arrays.equals(v, value(i));
    }

}
