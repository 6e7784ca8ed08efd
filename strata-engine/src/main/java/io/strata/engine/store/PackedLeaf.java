package io.strata.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The leaf format of {@link PackedStore}: sorted key-value pairs packed into one exactly
 * sized {@code byte[]}, so that a leaf of a dozen pairs is one object to the garbage
 * collector and costs 6 bytes per pair beyond the keys and values.
 *
 * <pre>
 * int id | int count | int offset[0] … offset[count] | entry 0 … entry count-1
 * entry i, from offset[i] to offset[i + 1]:  u16 keyLength | key | value
 * </pre>
 * The id is the leaf's slot in {@link PackedIndex}'s table of leaves, which a rebuilt leaf
 * keeps, so that the keys it still holds need no new index entry.
 * Integers are little-endian. {@code offset[count]} is the end of the last entry, so a value's
 * length is implied. Keys are at most 65,535 bytes (FoundationDB allows 10,000, system keys
 * 30,000).
 *
 * <p>A leaf is never changed once built: {@link PackedStore} replaces it.
 */
final class PackedLeaf {
    /** No leaf: a leaf not yet in the index. */
    static final int NO_ID = -1;
    static final byte[] EMPTY = {-1, -1, -1, -1, 0, 0, 0, 0, 12, 0, 0, 0};
    static final int MAX_KEY_LENGTH = 0xffff;
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private PackedLeaf() {
    }

    static int id(byte[] leaf) {
        return (int) INT.get(leaf, 0);
    }

    static int count(byte[] leaf) {
        return (int) INT.get(leaf, 4);
    }

    /** Where entry {@code i} starts; {@code i == count} gives the end of the last one. */
    static int entryStart(byte[] leaf, int i) {
        return (int) INT.get(leaf, 8 + 4 * i);
    }

    static int keyStart(byte[] leaf, int i) {
        return entryStart(leaf, i) + 2;
    }

    static int keyLength(byte[] leaf, int i) {
        return Short.toUnsignedInt((short) SHORT.get(leaf, entryStart(leaf, i)));
    }

    static int valueStart(byte[] leaf, int i) {
        return keyStart(leaf, i) + keyLength(leaf, i);
    }

    static int valueEnd(byte[] leaf, int i) {
        return entryStart(leaf, i + 1);
    }

    static byte[] key(byte[] leaf, int i) {
        int start = keyStart(leaf, i);
        return Arrays.copyOfRange(leaf, start, start + keyLength(leaf, i));
    }

    static byte[] value(byte[] leaf, int i) {
        return Arrays.copyOfRange(leaf, valueStart(leaf, i), valueEnd(leaf, i));
    }

    /** Compares entry {@code i}'s key with {@code key}, unsigned, as {@code Arrays.compareUnsigned}. */
    static int compare(byte[] leaf, int i, byte[] key) {
        int start = keyStart(leaf, i);
        return Arrays.compareUnsigned(leaf, start, start + keyLength(leaf, i), key, 0, key.length);
    }

    /** The index of {@code key}, or {@code -(insertion point) - 1} when absent. */
    static int find(byte[] leaf, byte[] key) {
        return find(leaf, key, 0, key.length);
    }

    /**
     * {@link #find(byte[], byte[])} of the key {@code bytes[from, to)}.
     *
     * <p>A binary search that skips what the key is known to share with every entry left: the
     * entries between two that share {@code p} bytes with the key share them too (keys with a
     * given prefix are contiguous in key order), so each step compares from the smaller of
     * the prefixes the key shares with the entries bounding the search. Keys of one leaf
     * share most of their bytes (a layer's subspace, a type tag, a common stem), which a
     * search from the first byte would compare again at every step.
     */
    static int find(byte[] leaf, byte[] bytes, int from, int to) {
        return find(leaf, 0, bytes, from, to);
    }

    /**
     * {@link #find(byte[], byte[])} among the entries from {@code first} on, for a key known
     * to be after every entry before it: the insertion point is then {@code first} or later.
     */
    static int find(byte[] leaf, int first, byte[] key) {
        return find(leaf, first, key, 0, key.length);
    }

    private static int find(byte[] leaf, int first, byte[] bytes, int from, int to) {
        int keyLength = to - from;
        int lo = first;
        int hi = count(leaf) - 1;
        int loShared = 0; // bytes the key shares with entry lo - 1 (none while lo is 0)
        int hiShared = 0; // bytes the key shares with entry hi + 1 (none while hi is the last)
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int start = keyStart(leaf, mid);
            int length = keyLength(leaf, mid);
            int skip = Math.min(loShared, hiShared);
            int m = Arrays.mismatch(leaf, start + skip, start + length, bytes, from + skip, to);
            if (m < 0) {
                return mid;
            }
            int shared = skip + m;
            int c;
            if (shared == length) {
                c = -1; // the entry is a prefix of the key: before it
            } else if (shared == keyLength) {
                c = 1;
            } else {
                c = Integer.compare(leaf[start + shared] & 0xff, bytes[from + shared] & 0xff);
            }
            if (c < 0) {
                lo = mid + 1;
                loShared = shared;
            } else {
                hi = mid - 1;
                hiShared = shared;
            }
        }
        return -lo - 1;
    }

    /** The first index whose key is {@code >= key} ({@code count} when none). */
    static int ceiling(byte[] leaf, byte[] key) {
        int i = find(leaf, key);
        return i >= 0 ? i : -i - 1;
    }

    /** Bytes of keys and values of entries {@code [0, end)}. */
    static long dataBytesBefore(byte[] leaf, int end) {
        return entryStart(leaf, end) - entryStart(leaf, 0) - 2L * end;
    }

    /** Bytes of all keys and values in the leaf. */
    static long dataBytes(byte[] leaf) {
        return dataBytesBefore(leaf, count(leaf));
    }

    /** What a leaf of {@code count} entries whose entries take {@code entryBytes} bytes takes. */
    static int length(int count, long entryBytes) {
        long n = 12L + 4L * count + entryBytes;
        if (n > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a packed leaf of " + n + " bytes");
        }
        return (int) n;
    }

    /** Starts leaf {@code id} of {@code count} entries taking {@code entryBytes}; entries follow with {@link #copy} or {@link #put}. */
    static byte[] allocate(int id, int count, long entryBytes) {
        byte[] leaf = new byte[length(count, entryBytes)];
        INT.set(leaf, 0, id);
        INT.set(leaf, 4, count);
        INT.set(leaf, 8, 12 + 4 * count);
        return leaf;
    }

    /** Writes entry {@code i} (the one after {@code i - 1}) as a copy of {@code source}'s entry {@code j}. */
    static void copy(byte[] leaf, int i, byte[] source, int j) {
        int at = entryStart(leaf, i);
        int from = entryStart(source, j);
        int n = entryStart(source, j + 1) - from;
        System.arraycopy(source, from, leaf, at, n);
        INT.set(leaf, 12 + 4 * i, at + n);
    }

    /** Writes entry {@code i} (the one after {@code i - 1}) from {@code key} and {@code value}. */
    static void put(byte[] leaf, int i, byte[] key, byte[] value) {
        int at = entryStart(leaf, i);
        SHORT.set(leaf, at, (short) key.length);
        System.arraycopy(key, 0, leaf, at + 2, key.length);
        System.arraycopy(value, 0, leaf, at + 2 + key.length, value.length);
        INT.set(leaf, 12 + 4 * i, at + 2 + key.length + value.length);
    }

    /** The bytes entry {@code j} of {@code leaf} takes, offset included. */
    static int entrySize(byte[] leaf, int j) {
        return entryStart(leaf, j + 1) - entryStart(leaf, j) + 4;
    }

    /** The bytes an entry of {@code key} and {@code value} takes, offset included. */
    static int entrySize(byte[] key, byte[] value) {
        if (key.length > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a key of " + key.length + " bytes (at most " + MAX_KEY_LENGTH + ")");
        }
        return 4 + 2 + key.length + value.length;
    }
}
