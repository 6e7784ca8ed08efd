package io.strata.redis.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An entry of a group's PEL: delivered to {@code consumer} at {@code deliveryTime} (Unix ms),
 * {@code deliveryCount} times. Stored as {@code delivery-time[8] delivery-count[8] consumer}.
 */
record PendingEntry(StreamId id, long deliveryTime, long deliveryCount, byte[] consumer) {
    byte[] encode() {
        return ByteBuffer.allocate(16 + consumer.length).putLong(deliveryTime).putLong(deliveryCount).put(consumer).array();
    }

    static PendingEntry decode(StreamId id, byte[] v) {
        ByteBuffer b = ByteBuffer.wrap(v);
        return new PendingEntry(id, b.getLong(), b.getLong(), Arrays.copyOfRange(v, 16, v.length));
    }

    PendingEntry deliveredTo(byte[] to, long time, long count) {
        return new PendingEntry(id, time, count, to);
    }
}
