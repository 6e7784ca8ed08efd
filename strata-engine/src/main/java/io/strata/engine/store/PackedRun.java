package io.strata.engine.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Scratch for {@link PackedStore}'s writer: the entries of a stretch of leaves being rebuilt,
 * in key order — each either an entry of an existing leaf or a new key and value — cut into
 * new leaves of about {@link PackedStore#LEAF_BYTES}. Reused from one rebuild to the next.
 *
 * <p>Not thread-safe: the store's writer only.
 */
final class PackedRun {
    /** Per entry: the leaf it is in, or its new key. */
    private Object[] sources = new Object[64];
    /** Per entry: its index in its leaf, or -1 for a new key and value. */
    private int[] indexes = new int[64];
    /** Per entry: the new value, or null. */
    private byte[][] values = new byte[64][];
    /** Per entry: the bytes it takes in a leaf, its offset included. */
    private int[] sizes = new int[64];
    private int count;
    private long bytes;

    void clear() {
        Arrays.fill(sources, 0, count, null);
        Arrays.fill(values, 0, count, null);
        count = 0;
        bytes = 0;
    }

    int count() {
        return count;
    }

    /** Adds entry {@code j} of {@code leaf}. */
    void addExisting(byte[] leaf, int j) {
        grow();
        sources[count] = leaf;
        indexes[count] = j;
        sizes[count] = PackedLeaf.entrySize(leaf, j);
        bytes += sizes[count++];
    }

    /** Adds every entry of {@code leaf}. */
    void addAll(byte[] leaf) {
        for (int j = 0, n = PackedLeaf.count(leaf); j < n; j++) {
            addExisting(leaf, j);
        }
    }

    /** Adds a new entry. */
    void addNew(byte[] key, byte[] value) {
        grow();
        sources[count] = key;
        indexes[count] = -1;
        values[count] = value;
        sizes[count] = PackedLeaf.entrySize(key, value);
        bytes += sizes[count++];
    }

    private void grow() {
        if (count == sources.length) {
            int n = count * 2;
            sources = Arrays.copyOf(sources, n);
            indexes = Arrays.copyOf(indexes, n);
            values = Arrays.copyOf(values, n);
            sizes = Arrays.copyOf(sizes, n);
        }
    }

    /**
     * The entries as leaves of about {@code leafBytes} each, as even as whole entries allow
     * (a run of 1.1 leaves' worth becomes two of 0.55, not one full leaf and a sliver);
     * none when the run is empty.
     */
    List<byte[]> cut(int leafBytes) {
        List<byte[]> leaves = new ArrayList<>(1);
        if (count == 0) {
            return leaves;
        }
        long pieces = Math.max(1, (bytes + leafBytes - 1) / leafBytes);
        long target = bytes / pieces;
        int from = 0;
        long taken = 0;
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += sizes[i];
            boolean last = i == count - 1;
            if (last || (leaves.size() < pieces - 1 && sum >= target)) {
                leaves.add(build(from, i + 1, sum));
                taken += sum;
                from = i + 1;
                sum = 0;
            }
        }
        assert taken == bytes;
        return leaves;
    }

    private byte[] build(int from, int to, long size) {
        int n = to - from;
        byte[] leaf = PackedLeaf.allocate(n, size - 4L * n);
        for (int i = from; i < to; i++) {
            if (indexes[i] >= 0) {
                PackedLeaf.copy(leaf, i - from, (byte[]) sources[i], indexes[i]);
            } else {
                PackedLeaf.put(leaf, i - from, (byte[]) sources[i], values[i]);
            }
        }
        return leaf;
    }
}
