package io.strata.engine.client;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The entries of a {@link WriteMap} by key: a hash table, plus a sorted view built on the
 * first ordered access and kept up to date from then on.
 *
 * <p>Most transactions only set keys and read single keys — a layer writing a batch never
 * reads its own writes by range — and a sorted map would make every set pay a tree insertion
 * of some ten key comparisons. Here a set costs one hash insertion until a range read, a
 * range clear or a conflict computation over a range asks for order; then the view is sorted
 * once.
 *
 * <p>The table is open addressing with linear probing over parallel arrays of keys, their
 * hashes and values, at most half full; removal shifts the entries behind back, so no
 * marker is left. A {@code HashMap} cost a key wrapper and a node per write, and its resizes
 * were a seventh of a batch-writing client's time. Not thread-safe.
 */
final class WrittenKeys<V> {
    private static final int MIN_CAPACITY = 16;

    private byte[][] keys = new byte[MIN_CAPACITY][];
    private int[] hashes = new int[MIN_CAPACITY];
    private Object[] values = new Object[MIN_CAPACITY];
    private int size;
    /** Null until the first ordered access; afterwards holds exactly the entries of the table. */
    private TreeMap<byte[], V> sorted;

    boolean isEmpty() {
        return size == 0;
    }

    @SuppressWarnings("unchecked")
    V get(byte[] key) {
        int i = slotOf(key, ByteKeys.hash(key));
        return keys[i] == null ? null : (V) values[i];
    }

    /** Maps {@code key} to {@code value}; returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(byte[] key, V value) {
        int hash = ByteKeys.hash(key);
        int i = slotOf(key, hash);
        V previous = (V) values[i];
        if (keys[i] == null) {
            if ((size + 1) * 2 > keys.length) {
                grow();
                i = slotOf(key, hash);
            }
            keys[i] = key;
            hashes[i] = hash;
            size++;
        }
        values[i] = value;
        if (sorted != null) {
            sorted.put(key, value);
        }
        return previous;
    }

    /** Removes every entry in {@code [begin, end)}. */
    void removeRange(byte[] begin, byte[] end) {
        if (size == 0 || ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        NavigableMap<byte[], V> inside = sorted().subMap(begin, true, end, false);
        for (byte[] k : inside.keySet()) {
            remove(k);
        }
        inside.clear();
    }

    /** All entries in key order (read-only use: writes go through {@link #put}). */
    @SuppressWarnings("unchecked")
    NavigableMap<byte[], V> sorted() {
        if (sorted == null) {
            TreeMap<byte[], V> view = new TreeMap<>(ByteKeys.COMPARATOR);
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] != null) {
                    view.put(keys[i], (V) values[i]);
                }
            }
            sorted = view;
        }
        return sorted;
    }

    /** An independent copy, each value passed through {@code copyValue}. */
    @SuppressWarnings("unchecked")
    WrittenKeys<V> copy(UnaryOperator<V> copyValue) {
        WrittenKeys<V> c = new WrittenKeys<>();
        c.keys = keys.clone();
        c.hashes = hashes.clone();
        c.values = new Object[values.length];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                c.values[i] = copyValue.apply((V) values[i]);
            }
        }
        c.size = size;
        return c;
    }

    /** The slot holding {@code key}, or the empty slot ending its probe. */
    private int slotOf(byte[] key, int hash) {
        int mask = keys.length - 1;
        int i = hash & mask;
        for (byte[] k; (k = keys[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && Arrays.equals(k, key)) {
                return i;
            }
        }
        return i;
    }

    /** Removes {@code key} from the table (not from the sorted view), shifting later entries of its probe back. */
    private void remove(byte[] key) {
        int mask = keys.length - 1;
        int gap = slotOf(key, ByteKeys.hash(key));
        if (keys[gap] == null) {
            return;
        }
        for (int j = (gap + 1) & mask; keys[j] != null; j = (j + 1) & mask) {
            int home = hashes[j] & mask;
            // The entry at j may fill the gap unless its home lies cyclically in (gap, j].
            boolean homeAfterGap = gap <= j ? gap < home && home <= j : gap < home || home <= j;
            if (!homeAfterGap) {
                keys[gap] = keys[j];
                hashes[gap] = hashes[j];
                values[gap] = values[j];
                gap = j;
            }
        }
        keys[gap] = null;
        values[gap] = null;
        size--;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldHashes = hashes;
        Object[] oldValues = values;
        int capacity = oldKeys.length * 2;
        keys = new byte[capacity][];
        hashes = new int[capacity];
        values = new Object[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                hashes[i] = oldHashes[j];
                values[i] = oldValues[j];
            }
        }
    }
}
