package io.strata.redis.rdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a ziplist, the compact encoding of Redis before 7.0 (hashes, sorted sets, list nodes
 * in RDB versions up to 9), which Redis 7.0 still loads, into its entries (integers as their
 * decimal text).
 *
 * <h2>Format</h2>
 * <pre>
 * total-bytes[4 LE] tail-offset[4 LE] count[2 LE, 65535 = unknown] entry* 0xFF
 * entry = prevlen encoding data
 * prevlen                  the previous entry's length: 1 byte if &lt; 254, else 0xFE and 4 bytes LE
 * 00xxxxxx                 string of up to 63 bytes
 * 01xxxxxx yyyyyyyy        string of up to 16383 bytes (14 bits big-endian)
 * 10000000 len[4 BE]       string of up to 2^32-1 bytes
 * 11000000 / 11010000 / 11100000   16, 32, 64-bit signed integer, little-endian
 * 11110000                 24-bit signed integer
 * 11111110                 8-bit signed integer
 * 1111xxxx                 xxxx - 1: an integer 0..12 in the encoding itself (xxxx in 1..13)
 * </pre>
 * Bounds, prevlen links, the tail offset, count and terminator are all checked (Redis's deep
 * check).
 */
final class Ziplist {
    private static final int HEADER = 10;

    private Ziplist() {
    }

    static List<byte[]> entries(byte[] zl) {
        if (zl.length < HEADER + 1 || Listpack.le(zl, 0, 4) != zl.length || (zl[zl.length - 1] & 0xff) != 0xFF) {
            throw bad();
        }
        long tail = Listpack.le(zl, 4, 4);
        int declared = (int) Listpack.le(zl, 8, 2);
        int last = zl.length - 1;
        List<byte[]> out = new ArrayList<>();
        int p = HEADER;
        int prevStart = -1;
        int prevLength = 0;
        while (p < last) {
            int start = p;
            long prevlen;
            if ((zl[p] & 0xff) < 254) {
                prevlen = zl[p] & 0xff;
                p += 1;
            } else {
                check(p + 5, last);
                prevlen = Listpack.le(zl, p + 1, 4);
                p += 5;
            }
            if (prevlen != prevLength) {
                throw bad();
            }
            check(p + 1, last);
            int b = zl[p] & 0xff;
            byte[] value;
            switch (b >> 6) {
                case 0: {
                    int len = b & 0x3f;
                    value = slice(zl, p + 1, len, last);
                    p += 1 + len;
                    break;
                }
                case 1: {
                    check(p + 2, last);
                    int len = ((b & 0x3f) << 8) | (zl[p + 1] & 0xff);
                    value = slice(zl, p + 2, len, last);
                    p += 2 + len;
                    break;
                }
                case 2: {
                    if (b != 0x80) {
                        throw bad();
                    }
                    check(p + 5, last);
                    long len = ((long) (zl[p + 1] & 0xff) << 24) | ((zl[p + 2] & 0xff) << 16) | ((zl[p + 3] & 0xff) << 8) | (zl[p + 4] & 0xff);
                    if (len > last) {
                        throw bad();
                    }
                    value = slice(zl, p + 5, (int) len, last);
                    p += 5 + (int) len;
                    break;
                }
                default: {
                    int size = intSize(b);
                    if (size < 0) {
                        value = Listpack.decimal((b & 0x0f) - 1);
                        p += 1;
                    } else {
                        check(p + 1 + size, last);
                        long raw = Listpack.le(zl, p + 1, size);
                        int shift = 64 - 8 * size;
                        value = Listpack.decimal((raw << shift) >> shift);
                        p += 1 + size;
                    }
                }
            }
            prevStart = start;
            prevLength = p - start;
            out.add(value);
        }
        if (p != last || (declared != 65535 && declared != out.size())
                || tail != (prevStart < 0 ? HEADER : prevStart)) {
            throw bad();
        }
        return out;
    }

    /** The byte size of an integer encoding's data, or -1 for the immediate 0..12 forms. */
    private static int intSize(int b) {
        switch (b) {
            case 0xC0: return 2;
            case 0xD0: return 4;
            case 0xE0: return 8;
            case 0xF0: return 3;
            case 0xFE: return 1;
            default:
                if (b >= 0xF1 && b <= 0xFD) {
                    return -1;
                }
                throw bad();
        }
    }

    private static void check(int end, int last) {
        if (end > last) {
            throw bad();
        }
    }

    private static byte[] slice(byte[] zl, int from, int len, int last) {
        check(from + len, last);
        return Arrays.copyOfRange(zl, from, from + len);
    }

    private static RdbFormatException bad() {
        return new RdbFormatException("Ziplist integrity check failed.");
    }
}
