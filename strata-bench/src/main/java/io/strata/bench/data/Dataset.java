package io.strata.bench.data;

import java.util.SplittableRandom;

/**
 * The keys and values every benchmark loads: {@code count} keys of {@value #KEY_BYTES} bytes
 * ({@code "key"} and a zero-padded 13-digit index, so byte order is index order) and a random
 * value of {@code valueBytes} bytes per key, generated from a fixed seed.
 *
 * <p>Keys and values are built once and reused by every operation, so benchmark loops do
 * not allocate them. Engines must treat them as immutable (Strata keeps the arrays it is
 * given, as fdb-java's contract allows).
 */
public final class Dataset {
    public static final int KEY_BYTES = 16;
    public static final int DEFAULT_KEYS = 100_000;
    public static final int DEFAULT_VALUE_BYTES = 100;

    private final byte[][] keys;
    private final byte[][] values;

    public Dataset(int count, int valueBytes, long seed) {
        if (count <= 0 || count >= 10_000_000) {
            throw new IllegalArgumentException("key count must be in [1, 10,000,000): " + count);
        }
        keys = new byte[count][];
        values = new byte[count][];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            keys[i] = formatKey(i);
            values[i] = new byte[valueBytes];
            for (int b = 0; b < valueBytes; b++) {
                values[i][b] = (byte) random.nextInt(256);
            }
        }
    }

    /** The default data set: 100,000 keys of 16 bytes, values of 100 bytes. */
    public static Dataset standard() {
        return new Dataset(DEFAULT_KEYS, DEFAULT_VALUE_BYTES, 42);
    }

    /** The key of index {@code i}: {@code "key0000000000042"} for 42. */
    public static byte[] formatKey(int i) {
        byte[] key = new byte[KEY_BYTES];
        key[0] = 'k';
        key[1] = 'e';
        key[2] = 'y';
        int n = i;
        for (int p = KEY_BYTES - 1; p >= 3; p--) {
            key[p] = (byte) ('0' + n % 10);
            n /= 10;
        }
        return key;
    }

    public int size() {
        return keys.length;
    }

    public byte[] key(int index) {
        return keys[index];
    }

    public byte[] value(int index) {
        return values[index];
    }
}
