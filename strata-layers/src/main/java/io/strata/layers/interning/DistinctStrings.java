package io.strata.layers.interning;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The distinct strings of a batch, in first-seen order, and for each input position the
 * index of its distinct string: a batch may name a string twice, and must read, allocate and
 * write it once.
 *
 * <p>Open addressing over {@code int} slots rather than a {@code HashMap}: a batch of 1,000
 * strings would otherwise cost a key wrapper, a node and a boxed index per string, on the path
 * that bounds how fast new strings are interned.
 */
final class DistinctStrings {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The distinct strings, first-seen order. */
    final byte[][] strings;
    /** For each input position, the index into {@link #strings}. */
    final int[] indexOf;

    private DistinctStrings(byte[][] strings, int[] indexOf) {
        this.strings = strings;
        this.indexOf = indexOf;
    }

    static DistinctStrings of(byte[][] batch) {
        int n = batch.length;
        int[] indexOf = new int[n];
        if (n <= 1) {
            return new DistinctStrings(batch, indexOf);
        }
        int capacity = Integer.highestOneBit(n * 2 - 1) << 1; // a power of two, at least 2n
        int mask = capacity - 1;
        int[] slots = new int[capacity]; // 1 + an index into distinct; 0 is empty
        int[] hashes = new int[n];
        byte[][] distinct = new byte[n][];
        int count = 0;
        for (int i = 0; i < n; i++) {
            byte[] s = batch[i];
            int h = hash(s);
            int slot = h & mask;
            while (true) {
                int entry = slots[slot];
                if (entry == 0) {
                    hashes[count] = h;
                    distinct[count] = s;
                    slots[slot] = ++count;
                    indexOf[i] = count - 1;
                    break;
                }
                if (hashes[entry - 1] == h && Arrays.equals(distinct[entry - 1], s)) {
                    indexOf[i] = entry - 1;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        return new DistinctStrings(count == n ? batch : Arrays.copyOf(distinct, count), indexOf);
    }

    /**
     * Eight bytes per step, then MurmurHash3's finalizer: {@code Arrays.hashCode} on Java 17
     * is one dependent multiply per byte, a fifth of a microsecond for a 60-byte URI. (The
     * engine hashes keys the same way, but layers depend on fdb-java alone, so that they run
     * on a FoundationDB cluster without the engine.)
     */
    static int hash(byte[] s) {
        long h = 0x9E3779B97F4A7C15L ^ s.length;
        int i = 0;
        for (; i + Long.BYTES <= s.length; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(s, i), 29) * 0xC2B2AE3D27D4EB4FL;
        }
        for (; i < s.length; i++) {
            h = (h ^ (s[i] & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }

    /** {@code ids} of the distinct strings, spread back to the input positions. */
    long[] expand(long[] ids) {
        long[] out = new long[indexOf.length];
        for (int i = 0; i < indexOf.length; i++) {
            out[i] = ids[indexOf[i]];
        }
        return out;
    }
}
