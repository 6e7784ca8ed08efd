package io.strata.engine.store;

import java.util.Arrays;

/**
 * {@link PackedStore}'s batch: puts, deletes and range deletes, kept as given (the arrays too)
 * until {@link PackedStore#write} applies them. Not thread-safe.
 */
final class PackedBatch implements DiskStore.Batch {
    static final byte PUT = 0;
    static final byte DELETE = 1;
    static final byte DELETE_RANGE = 2;

    byte[] kinds = new byte[16];
    /** The key; for a range delete its begin. */
    byte[][] keys = new byte[16][];
    /** The value; for a range delete its end. */
    byte[][] values = new byte[16][];
    private int size;

    @Override
    public void put(byte[] key, byte[] value) {
        if (key.length > PackedLeaf.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("a key of " + key.length + " bytes (at most " + PackedLeaf.MAX_KEY_LENGTH + ")");
        }
        add(PUT, key, value);
    }

    @Override
    public void delete(byte[] key) {
        add(DELETE, key, null);
    }

    @Override
    public void deleteRange(byte[] begin, byte[] end) {
        add(DELETE_RANGE, begin, end);
    }

    private void add(byte kind, byte[] a, byte[] b) {
        if (size == kinds.length) {
            kinds = Arrays.copyOf(kinds, size * 2);
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        kinds[size] = kind;
        keys[size] = a;
        values[size++] = b;
    }

    @Override
    public int size() {
        return size;
    }

    /** Entries kept allocated by {@link #clear}; a larger batch's arrays are dropped. */
    static final int KEPT_CAPACITY = 16_384;

    @Override
    public void clear() {
        if (kinds.length > KEPT_CAPACITY) {
            kinds = new byte[16];
            keys = new byte[16][];
            values = new byte[16][];
        } else {
            Arrays.fill(keys, 0, size, null);
            Arrays.fill(values, 0, size, null);
        }
        size = 0;
    }

    @Override
    public void close() {
        clear();
    }
}
