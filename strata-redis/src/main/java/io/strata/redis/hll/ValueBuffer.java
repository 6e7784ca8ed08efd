package io.strata.redis.hll;

import java.util.Arrays;

/**
 * A value's bytes being edited, with room after its end, as Redis's strings have: the byte at
 * {@link #length} reads as zero after every length change (Redis's strings end in a zero
 * byte), and a few more bytes may be written past the end before the length catches up, as the
 * sparse update does. Keeping that slack makes a damaged value read and edit as it does in
 * Redis, where an opcode cut off at the end reads the terminating zero.
 */
final class ValueBuffer {
    /** Room kept after the end: the terminating zero, a dense register's second byte, an update's growth. */
    private static final int SLACK = 8;

    byte[] bytes;
    int length;

    ValueBuffer(byte[] value) {
        this.bytes = Arrays.copyOf(value, value.length + SLACK);
        this.length = value.length;
    }

    /** A zeroed value of {@code length} bytes. */
    ValueBuffer(int length) {
        this.bytes = new byte[length + SLACK];
        this.length = length;
    }

    /** Makes sure {@code extra} more bytes (and the terminating one) fit without moving the array. */
    void makeRoom(int extra) {
        if (bytes.length < length + extra + SLACK) {
            bytes = Arrays.copyOf(bytes, length + extra + SLACK);
        }
    }

    /** Moves the end by {@code delta} (room made first) and zeroes the byte after it. */
    void grow(int delta) {
        length += delta;
        bytes[length] = 0;
    }

    /** Copies {@code count} bytes from {@code from} to {@code to}; the ranges may overlap. */
    void move(int to, int from, int count) {
        System.arraycopy(bytes, from, bytes, to, count);
    }

    byte[] toArray() {
        return Arrays.copyOf(bytes, length);
    }
}
