package io.strata.redis.rdb;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads an intset, the encoding of small all-integer sets: {@code encoding[4 LE]} (the
 * width of every element: 2, 4 or 8 bytes), {@code length[4 LE]}, then the elements,
 * signed little-endian, strictly ascending. Members come out as their decimal text. The
 * size, width and strict order (no duplicates) are checked: Redis's deep check.
 */
final class Intset {
    private Intset() {
    }

    static List<byte[]> members(byte[] is) {
        if (is.length < 8) {
            throw bad();
        }
        long width = Listpack.le(is, 0, 4);
        long count = Listpack.le(is, 4, 4);
        if ((width != 2 && width != 4 && width != 8) || 8 + count * width != is.length) {
            throw bad();
        }
        int w = (int) width;
        List<byte[]> out = new ArrayList<>((int) count);
        long previous = 0;
        for (int i = 0; i < count; i++) {
            long raw = Listpack.le(is, 8 + i * w, w);
            int shift = 64 - 8 * w;
            long v = (raw << shift) >> shift;
            if (i > 0 && v <= previous) {
                throw bad();
            }
            previous = v;
            out.add(Listpack.decimal(v));
        }
        return out;
    }

    private static RdbFormatException bad() {
        return new RdbFormatException("Intset integrity check failed.");
    }
}
