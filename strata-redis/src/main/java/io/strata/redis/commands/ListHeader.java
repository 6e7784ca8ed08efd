package io.strata.redis.commands;

import java.nio.ByteBuffer;

/**
 * The part of a list key's metadata that locates its elements: the position of the first
 * element and how many there are. Elements occupy the positions {@code head .. head+length-1}
 * without gaps (see {@link ListElements} for the keys), so element {@code i} of the list is at
 * position {@code head + i}: LINDEX and LSET go straight to one key, LRANGE reads one key
 * range, and a push or pop at either end moves {@code head} or {@code length} by the count.
 *
 * <h2>Encoding</h2>
 * <pre>
 * head[8] length[8]     both big-endian signed; a new list starts at head 0
 * </pre>
 * Positions are signed so that a list pushed only at the head grows downwards from 0 and one
 * pushed only at the tail upwards; 2^63 pushes in one direction are not a practical concern.
 *
 * @param head the position of the first element
 * @param length the number of elements
 */
record ListHeader(long head, long length) {
    static final int SIZE = 16;
    static final ListHeader EMPTY = new ListHeader(0, 0);

    /** The position of element {@code index} (0 = first). */
    long position(long index) {
        return head + index;
    }

    byte[] encode() {
        return ByteBuffer.allocate(SIZE).putLong(head).putLong(length).array();
    }

    static ListHeader decode(byte[] header) {
        if (header.length != SIZE) {
            throw new IllegalStateException("list header of " + header.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(header);
        return new ListHeader(b.getLong(), b.getLong());
    }
}
