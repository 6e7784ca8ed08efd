package io.strata.redis.rdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a zipmap, the small-hash encoding of Redis 2.4 (RDB type 9), into alternating fields
 * and values.
 *
 * <h2>Format</h2>
 * <pre>
 * count[1, 254+ = unknown] (len field len free value free-bytes)* 0xFF
 * len                      1 byte if &lt; 254, else 254 and 4 bytes little-endian
 * free                     1 byte: unused bytes after the value
 * </pre>
 */
final class Zipmap {
    private Zipmap() {
    }

    static List<byte[]> entries(byte[] zm) {
        if (zm.length < 2 || (zm[zm.length - 1] & 0xff) != 0xFF) {
            throw bad();
        }
        int declared = zm[0] & 0xff;
        int last = zm.length - 1;
        List<byte[]> out = new ArrayList<>();
        int p = 1;
        while (p < last) {
            long[] len = new long[1];
            p = readLength(zm, p, last, len);
            byte[] field = slice(zm, p, len[0], last);
            p += field.length;
            p = readLength(zm, p, last, len);
            if (p >= last) {
                throw bad();
            }
            int free = zm[p] & 0xff;
            p += 1;
            byte[] value = slice(zm, p, len[0], last);
            p += value.length + free;
            out.add(field);
            out.add(value);
        }
        if (p != last || (declared < 254 && declared * 2 != out.size())) {
            throw bad();
        }
        return out;
    }

    private static int readLength(byte[] zm, int p, int last, long[] len) {
        if (p >= last) {
            throw bad();
        }
        int b = zm[p] & 0xff;
        if (b < 254) {
            len[0] = b;
            return p + 1;
        }
        if (b == 255 || p + 5 > last) {
            throw bad();
        }
        len[0] = Listpack.le(zm, p + 1, 4);
        return p + 5;
    }

    private static byte[] slice(byte[] zm, int from, long len, int last) {
        if (len > last - from) {
            throw bad();
        }
        return Arrays.copyOfRange(zm, from, from + (int) len);
    }

    private static RdbFormatException bad() {
        return new RdbFormatException("Zipmap integrity check failed.");
    }
}
