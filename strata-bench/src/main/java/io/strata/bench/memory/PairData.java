package io.strata.bench.memory;

import io.strata.bench.data.Mix;

import java.util.SplittableRandom;

/**
 * The pairs of {@code strata bench memory}, computed from their index so that the generator
 * holds nothing while a target is measured: {@code keyBytes}-byte keys that look random and
 * are all distinct, and {@code valueBytes}-byte values of random bytes. Every call returns new
 * arrays (Strata keeps the arrays it is given, so each target holds arrays of its own).
 *
 * <h2>Keys</h2>
 * The index goes through a permutation of the {@code n}-bit numbers, {@code n = min(63,
 * 8 * keyBytes - 1)} ({@link #permute}: xor-shifts and odd multiplications, each a bijection,
 * after MurmurHash3's 64-bit finaliser), and the result is written big-endian into the first
 * {@code min(8, keyBytes)} bytes; longer keys are padded with bytes of a further hash of it.
 * So keys are distinct for up to {@link #maxPairs} indexes, land all over the key space in
 * index order (a load writes at random places, as one inserting by random id does), and
 * their first byte is below {@code 0x80}: none is in the system key space ({@code 0xff}).
 *
 * <h2>Values</h2>
 * The bytes of a {@link SplittableRandom} seeded with the index's hash: reproducible, so a
 * target can be checked against {@link #value} after the measurement.
 */
final class PairData {
    private final int keyBytes;
    private final int valueBytes;
    private final int bits;

    PairData(int keyBytes, int valueBytes) {
        if (keyBytes < 1 || valueBytes < 0) {
            throw new IllegalArgumentException("keys of at least 1 byte and values of at least 0 bytes, got " + keyBytes
                    + " and " + valueBytes);
        }
        this.keyBytes = keyBytes;
        this.valueBytes = valueBytes;
        this.bits = bits(keyBytes);
    }

    int keyBytes() {
        return keyBytes;
    }

    int valueBytes() {
        return valueBytes;
    }

    /**
     * How many distinct keys of {@code keyBytes} bytes there are: 2^min(63, 8 * keyBytes - 1),
     * or {@link Long#MAX_VALUE} for 2^63 (every index a {@code long} can hold).
     */
    static long maxPairs(int keyBytes) {
        int bits = bits(keyBytes);
        return bits == 63 ? Long.MAX_VALUE : 1L << bits;
    }

    /** The width of the permuted number: 63 bits, or one bit less than the key for short keys. */
    private static int bits(int keyBytes) {
        return (int) Math.min(63, 8L * keyBytes - 1);
    }

    /** The key of index {@code i}, {@code 0 <= i < maxPairs(keyBytes)}; a new array. */
    byte[] key(long i) {
        if (i < 0 || i >= maxPairs(keyBytes)) {
            throw new IllegalArgumentException("index " + i + " outside [0, 2^" + bits + ")");
        }
        long h = permute(i, bits);
        byte[] key = new byte[keyBytes];
        int width = Math.min(Long.BYTES, keyBytes);
        for (int b = 0; b < width; b++) {
            key[b] = (byte) (h >>> (8 * (width - 1 - b)));
        }
        long pad = h;
        for (int b = width; b < keyBytes; b++) {
            if ((b - width) % Long.BYTES == 0) {
                pad = Mix.murmur64(pad ^ 0x9e3779b97f4a7c15L);
            }
            key[b] = (byte) (pad >>> (8 * ((b - width) % Long.BYTES)));
        }
        return key;
    }

    /** The value of index {@code i}; a new array. */
    byte[] value(long i) {
        byte[] value = new byte[valueBytes];
        new SplittableRandom(Mix.murmur64(~i)).nextBytes(value);
        return value;
    }

    /**
     * A bijection of {@code [0, 2^n)}, {@code 1 <= n <= 63}: MurmurHash3's finaliser with every
     * step taken mod 2^n. An xor with a right shift of itself is invertible, and so is a
     * multiplication by an odd constant mod 2^n.
     */
    static long permute(long x, int n) {
        long mask = (1L << n) - 1;
        int shift = (n + 1) / 2;
        x &= mask;
        x ^= x >>> shift;
        x = (x * 0xff51afd7ed558ccdL) & mask;
        x ^= x >>> shift;
        x = (x * 0xc4ceb9fe1a85ec53L) & mask;
        x ^= x >>> shift;
        return x;
    }

}
