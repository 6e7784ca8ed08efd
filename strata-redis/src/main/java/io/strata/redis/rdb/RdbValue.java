package io.strata.redis.rdb;

import java.util.List;

/**
 * A decoded value, independent of the encoding it came in (or goes out in): what RESTORE
 * writes and DUMP reads. Collections are never empty (the decoder refuses an empty one, as
 * Redis does); set, hash and sorted-set members are distinct (the decoder refuses
 * duplicates).
 */
public sealed interface RdbValue {
    /** A string's bytes. */
    record StringValue(byte[] value) implements RdbValue {
    }

    /** A list's elements, head to tail. */
    record ListValue(List<byte[]> elements) implements RdbValue {
    }

    /** A set's members, in no particular order. */
    record SetValue(List<byte[]> members) implements RdbValue {
    }

    /** A hash's fields and values, in no particular order. */
    record HashValue(List<byte[]> fields, List<byte[]> values) implements RdbValue {
    }

    /** A sorted set's members and scores (never NaN), in no particular order. */
    record ZSetValue(List<byte[]> members, List<Double> scores) implements RdbValue {
    }

    /** A stream ID: milliseconds and sequence number, both unsigned 64-bit. */
    record StreamId(long ms, long seq) {
    }

    /**
     * A stream entry, and the radix-tree node (numbered from 0 in the payload's order) it sat in.
     *
     * @param fieldsAndValues field, value, field, value...
     */
    record StreamEntry(StreamId id, List<byte[]> fieldsAndValues, int node) {
    }

    /** A pending entry of a consumer group: delivered to {@code consumer} at {@code deliveryTime}, {@code deliveryCount} times. */
    record StreamPending(StreamId id, long deliveryTime, long deliveryCount, byte[] consumer) {
    }

    /** A consumer of a group and when it was last seen (Unix ms). */
    record StreamConsumer(byte[] name, long seenTime) {
    }

    /**
     * A consumer group.
     *
     * @param entriesRead its entries-read counter, or null when the payload (RDB_TYPE_STREAM_LISTPACKS,
     *                    Redis before 7.0) has none: it is then estimated as Redis estimates it on load
     */
    record StreamGroup(byte[] name, StreamId lastId, Long entriesRead, List<StreamPending> pending,
                       List<StreamConsumer> consumers) {
    }

    /**
     * A stream: its live entries in ID order, and its metadata.
     *
     * @param nodes        how many radix-tree nodes the payload had
     * @param tailFill     how many entries (deleted ones included) the last node held
     * @param maxDeletedId 0-0 for a payload older than Redis 7.0, as Redis loads it
     * @param entriesAdded the entries ever added; the length for a payload older than 7.0
     */
    record StreamData(List<StreamEntry> entries, int nodes, long tailFill, StreamId lastId, StreamId maxDeletedId,
                      long entriesAdded, List<StreamGroup> groups) implements RdbValue {
    }
}
