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
    /** Per entry: the id of the leaf the index has its key in, or {@link PackedLeaf#NO_ID} for a new key. */
    private int[] indexedIn = new int[64];
    /** After {@link #cut}: where each new leaf's entries begin, and one past the last. */
    private int[] cuts = new int[8];
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
        indexedIn[count] = PackedLeaf.id(leaf);
        sizes[count] = PackedLeaf.entrySize(leaf, j);
        bytes += sizes[count++];
    }

    /** Adds every entry of {@code leaf}. */
    void addAll(byte[] leaf) {
        for (int j = 0, n = PackedLeaf.count(leaf); j < n; j++) {
            addExisting(leaf, j);
        }
    }

    /** Adds a new entry, whose key the index has in leaf {@code indexedIn} ({@link PackedLeaf#NO_ID}: not at all). */
    void addNew(byte[] key, byte[] value, int indexedIn) {
        grow();
        sources[count] = key;
        indexes[count] = -1;
        this.indexedIn[count] = indexedIn;
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
            indexedIn = Arrays.copyOf(indexedIn, n);
        }
    }

    /** The id of the leaf the index has entry {@code i}'s key in, or {@link PackedLeaf#NO_ID}. */
    int indexedIn(int i) {
        return indexedIn[i];
    }

    /** After {@link #cut}: the first entry of new leaf {@code p}; {@code p == leaves} gives the count. */
    int cutAt(int p) {
        return cuts[p];
    }

    /**
     * The entries as leaves of about {@code leafBytes} each, as even as whole entries allow
     * (a run of 1.1 leaves' worth becomes two of 0.55, not one full leaf and a sliver);
     * none when the run is empty. The first takes id {@code firstId}, the others ids from
     * {@code ids}.
     */
    List<byte[]> cut(int leafBytes, int firstId, java.util.function.IntSupplier ids) {
        List<byte[]> leaves = new ArrayList<>(1);
        if (count == 0) {
            return leaves;
        }
        long pieces = Math.max(1, (bytes + leafBytes - 1) / leafBytes);
        long target = bytes / pieces;
        if (cuts.length < pieces + 1) {
            cuts = new int[(int) pieces + 1];
        }
        int from = 0;
        long taken = 0;
        long sum = 0;
        for (int i = 0; i < count; i++) {
            sum += sizes[i];
            boolean last = i == count - 1;
            if (last || (leaves.size() < pieces - 1 && sum >= target)) {
                cuts[leaves.size()] = from;
                cuts[leaves.size() + 1] = i + 1;
                leaves.add(build(leaves.isEmpty() ? firstId : ids.getAsInt(), from, i + 1, sum));
                taken += sum;
                from = i + 1;
                sum = 0;
            }
        }
        assert taken == bytes;
        return leaves;
    }

    private byte[] build(int id, int from, int to, long size) {
        int n = to - from;
        byte[] leaf = PackedLeaf.allocate(id, n, size - 4L * n);
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
