package io.strata.engine.commit;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.Objects;

/**
 * A transaction's read or write conflict ranges, in the order added. A single-key range
 * {@code [k, k\x00)} — what nearly every read and write adds — is kept as its key alone:
 * building {@code k\x00} would copy the key once more per read and per write, and the
 * resolver checks single keys by hashing them, never by their end.
 *
 * <p>Not thread-safe: filled by one transaction under its lock, then handed to the
 * sequencer with the commit request and no longer changed.
 */
public final class ConflictRanges {
    private byte[][] begins;
    /** {@code ends[i] == null}: range {@code i} is the single key {@code begins[i]}. */
    private byte[][] ends;
    private int size;

    public ConflictRanges() {
        this(8);
    }

    private ConflictRanges(int capacity) {
        begins = new byte[capacity][];
        ends = new byte[capacity][];
    }

    /** One range {@code [key, key\x00)}. */
    public static ConflictRanges ofKey(byte[] key) {
        ConflictRanges r = new ConflictRanges(1);
        r.addKey(key);
        return r;
    }

    /** Adds {@code [begin, end)}; a range holding exactly one key is stored as that key. */
    public void add(byte[] begin, byte[] end) {
        append(begin, ByteKeys.isKeyAfter(begin, end) ? null : end);
    }

    /** Adds {@code [key, key\x00)}. */
    public void addKey(byte[] key) {
        append(key, null);
    }

    private void append(byte[] begin, byte[] end) {
        if (size == begins.length) {
            begins = Arrays.copyOf(begins, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        begins[size] = begin;
        ends[size++] = end;
    }

    /** Removes every range. */
    public void clear() {
        Arrays.fill(begins, 0, size, null);
        Arrays.fill(ends, 0, size, null);
        size = 0;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public byte[] begin(int i) {
        return begins[Objects.checkIndex(i, size)];
    }

    /** The end of range {@code i}; for a single key, {@code key\x00}, built on each call. */
    public byte[] end(int i) {
        byte[] end = ends[Objects.checkIndex(i, size)];
        return end != null ? end : ByteKeys.keyAfter(begins[i]);
    }

    /** Whether range {@code i} holds exactly the key {@link #begin}. */
    public boolean isSingleKey(int i) {
        return ends[Objects.checkIndex(i, size)] == null;
    }
}
