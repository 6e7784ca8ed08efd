package io.strata.redis.hll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Austin Appleby's MurmurHash2 in its 64-bit form (MurmurHash64A), reading the input's 8-byte
 * blocks little-endian whatever the platform, as Redis's endian-neutral variant does; with
 * {@link #REDIS_SEED} it gives the hashes Redis's HyperLogLog gives the same bytes. Stateless.
 */
public final class MurmurHash64A {
    /** The seed Redis hashes HyperLogLog elements with. */
    public static final int REDIS_SEED = 0xadc83b19;

    private static final long M = 0xc6a4a7935bd1e995L;
    private static final int R = 47;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private MurmurHash64A() {
    }

    /** The 64-bit hash of {@code data[offset .. offset+length)}; the seed is taken as unsigned. */
    public static long hash(byte[] data, int offset, int length, int seed) {
        long h = (seed & 0xffffffffL) ^ (length * M);
        int i = offset;
        int blocksEnd = offset + (length & ~7);
        for (; i < blocksEnd; i += 8) {
            long k = (long) LONG_LE.get(data, i);
            k *= M;
            k ^= k >>> R;
            k *= M;
            h ^= k;
            h *= M;
        }
        int tail = length & 7;
        if (tail > 0) {
            // The last 1..7 bytes go in little-endian, the highest first, then one multiply.
            for (int j = tail - 1; j >= 0; j--) {
                h ^= (long) (data[i + j] & 0xff) << (8 * j);
            }
            h *= M;
        }
        h ^= h >>> R;
        h *= M;
        h ^= h >>> R;
        return h;
    }

    /** {@link #hash(byte[], int, int, int)} of all of {@code data}. */
    public static long hash(byte[] data, int seed) {
        return hash(data, 0, data.length, seed);
    }
}
