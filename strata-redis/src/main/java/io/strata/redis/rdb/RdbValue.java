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
}
