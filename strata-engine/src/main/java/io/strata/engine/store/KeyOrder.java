package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Sorts a batch's writes by key for the stores under the window ({@link PackedStore}, whose
 * round rebuilds each leaf once, and RocksDB, whose memtable inserts keys that arrive in order
 * next to the previous one instead of searching its skip list for each): a stable merge sort of indexes
 * ({@code int}s, not boxed) that compares the sixteen bytes of each key after those every key
 * of the batch shares (a layer's subspace, a type tag, a common stem) as two unsigned
 * {@code long}s and only on a tie of longer keys the rest of the keys — for keys of up to
 * sixteen bytes past the shared ones (counters, IDs, hashed interning keys, Redis keys of a
 * common stem) comparisons of numbers instead of calls comparing two arrays.
 *
 * <p>Not thread-safe: the store's writer only; its scratch arrays are reused.
 */
public final class KeyOrder {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int INSERTION = 16;

    /** Scratch kept between sorts up to this many keys; a larger round's is dropped by {@link #trim}. */
    static final int KEPT_CAPACITY = 16_384;

    /** Bytes every key of the sort in progress shares: the windows start after them. */
    private int shared;
    private long[] prefixes = new long[64];
    private long[] seconds = new long[64];
    private int[] scratch = new int[64];

    /**
     * Drops scratch arrays a large round grew: kept, they would hold 20 bytes per key of the
     * largest round ever written for as long as the store lives.
     */
    public void trim() {
        if (prefixes.length > KEPT_CAPACITY) {
            prefixes = new long[64];
            seconds = new long[64];
        }
        if (scratch.length > KEPT_CAPACITY) {
            scratch = new int[64];
        }
    }

    /**
     * The indexes {@code [from, to)} of {@code keys} in key order, keeping of equal keys only
     * the last one: what applying the writes in index order would leave.
     */
    public int[] sortedLastWins(byte[][] keys, int from, int to) {
        // Stable: a key's writes stay in index order, so the last of a run of equal keys wins.
        int[] order = sort(keys, from, to);
        int kept = 0;
        for (int i = 0; i < order.length; i++) {
            if (i + 1 < order.length && Arrays.equals(keys[order[i]], keys[order[i + 1]])) {
                continue;
            }
            order[kept++] = order[i];
        }
        return kept == order.length ? order : Arrays.copyOf(order, kept);
    }

    /**
     * The indexes {@code [from, to)} of {@code keys} in key order, a key's indexes in their
     * own order (so the last of equal keys is the last written).
     */
    int[] sort(byte[][] keys, int from, int to) {
        int n = to - from;
        if (prefixes.length < keys.length) {
            prefixes = new long[Math.max(keys.length, prefixes.length * 2)];
            seconds = new long[prefixes.length];
        }
        if (scratch.length < n) {
            scratch = new int[Math.max(n, scratch.length * 2)];
        }
        int[] order = new int[n];
        shared = n == 0 ? 0 : keys[from].length;
        for (int i = from + 1; i < to && shared > 0; i++) {
            int m = Arrays.mismatch(keys[from], 0, shared, keys[i], 0, Math.min(shared, keys[i].length));
            if (m >= 0) {
                shared = m;
            }
        }
        for (int i = 0; i < n; i++) {
            order[i] = from + i;
            prefixes[from + i] = prefix(keys[from + i], shared);
            seconds[from + i] = prefix(keys[from + i], shared + 8);
        }
        mergeSort(keys, order, 0, n);
        return order;
    }

    /** A key's eight bytes from {@code at}, big-endian, zero-padded: ordered as the keys are, up to ties. */
    private static long prefix(byte[] key, int at) {
        if (key.length >= at + 8) {
            return (long) LONG.get(key, at);
        }
        long p = 0;
        for (int i = at; i < at + 8; i++) {
            p = (p << 8) | (i < key.length ? key[i] & 0xFF : 0);
        }
        return p;
    }

    private int compare(byte[][] keys, int a, int b) {
        int c = Long.compareUnsigned(prefixes[a], prefixes[b]);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(seconds[a], seconds[b]);
        if (c != 0) {
            return c;
        }
        byte[] x = keys[a];
        byte[] y = keys[b];
        int past = shared + 16;
        if (x.length > past && y.length > past) {
            return Arrays.compareUnsigned(x, past, x.length, y, past, y.length); // the bytes before are equal
        }
        // Equal up to 16 bytes past the shared ones, zero padding included: between keys no
        // longer than that, the shorter is a prefix of the longer (padded with zeros) and comes first.
        return x.length <= past && y.length <= past ? Integer.compare(x.length, y.length) : ByteKeys.compare(x, y);
    }

    private void mergeSort(byte[][] keys, int[] order, int lo, int hi) {
        if (hi - lo <= INSERTION) {
            for (int i = lo + 1; i < hi; i++) {
                int x = order[i];
                int j = i - 1;
                while (j >= lo && compare(keys, order[j], x) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(keys, order, lo, mid);
        mergeSort(keys, order, mid, hi);
        if (compare(keys, order[mid - 1], order[mid]) <= 0) {
            return; // already in order: a batch of ascending keys costs one comparison per run
        }
        System.arraycopy(order, lo, scratch, lo, mid - lo);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            // Ties take the left one first: stable.
            order[k++] = compare(keys, scratch[i], order[j]) <= 0 ? scratch[i++] : order[j++];
        }
        while (i < mid) {
            order[k++] = scratch[i++];
        }
    }
}
