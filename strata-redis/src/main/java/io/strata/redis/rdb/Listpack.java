package io.strata.redis.rdb;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a listpack, Redis 7.0's compact encoding of small hashes, sorted sets and list
 * nodes, into its entries (integers as their decimal text).
 *
 * <h2>Format</h2>
 * <pre>
 * total-bytes[4 LE] count[2 LE, 65535 = unknown] entry* 0xFF
 * entry = encoding data backlen
 * 0xxxxxxx                 7-bit unsigned integer
 * 10xxxxxx                 string of up to 63 bytes
 * 110xxxxx yyyyyyyy        13-bit signed integer
 * 1110xxxx yyyyyyyy        string of up to 4095 bytes (length big-endian in the 12 bits)
 * 11110000 len[4 LE]       string of up to 2^32-1 bytes
 * 11110001..11110100       16, 24, 32, 64-bit signed integer, little-endian
 * backlen                  the entry's encoding+data length in 1..5 bytes, 7 bits each,
 *                          read backwards (so it is checked here, not used)
 * </pre>
 * Every entry is checked to lie inside the blob, the header's size and count must match,
 * and the blob must end with the terminator: this is Redis's deep integrity check, done
 * always because the entries are copied out anyway.
 */
final class Listpack {
    private static final int HEADER = 6;
    private static final int UNKNOWN_COUNT = 65535;

    private Listpack() {
    }

    static List<byte[]> entries(byte[] lp) {
        if (lp.length < HEADER + 1 || le(lp, 0, 4) != lp.length || (lp[lp.length - 1] & 0xff) != 0xFF) {
            throw new RdbFormatException("Listpack integrity check failed.");
        }
        int declared = (int) le(lp, 4, 2);
        List<byte[]> out = new ArrayList<>();
        int p = HEADER;
        int last = lp.length - 1;
        while (p < last) {
            int start = p;
            int b = lp[p] & 0xff;
            byte[] value;
            if ((b & 0x80) == 0) {
                value = decimal(b);
                p += 1;
            } else if ((b & 0xC0) == 0x80) {
                int len = b & 0x3f;
                value = slice(lp, p + 1, len, last);
                p += 1 + len;
            } else if ((b & 0xE0) == 0xC0) {
                check(p + 2, last);
                int v = ((b & 0x1f) << 8) | (lp[p + 1] & 0xff);
                value = decimal(v >= 1 << 12 ? v - (1 << 13) : v);
                p += 2;
            } else if ((b & 0xF0) == 0xE0) {
                check(p + 2, last);
                int len = ((b & 0x0f) << 8) | (lp[p + 1] & 0xff);
                value = slice(lp, p + 2, len, last);
                p += 2 + len;
            } else if (b == 0xF0) {
                check(p + 5, last);
                long len = le(lp, p + 1, 4);
                if (len > last) {
                    throw new RdbFormatException("Listpack integrity check failed.");
                }
                value = slice(lp, p + 5, (int) len, last);
                p += 5 + (int) len;
            } else if (b >= 0xF1 && b <= 0xF4) {
                int size = b == 0xF1 ? 2 : b == 0xF2 ? 3 : b == 0xF3 ? 4 : 8;
                check(p + 1 + size, last);
                long raw = le(lp, p + 1, size);
                int shift = 64 - 8 * size;
                value = decimal((raw << shift) >> shift);
                p += 1 + size;
            } else {
                throw new RdbFormatException("Listpack integrity check failed.");
            }
            p = checkBacklen(lp, p, p - start, last);
            out.add(value);
        }
        if (p != last || (declared != UNKNOWN_COUNT && declared != out.size())) {
            throw new RdbFormatException("Listpack integrity check failed.");
        }
        return out;
    }

    /** Checks the backlen after an entry of {@code entryLength} bytes ending at {@code p}; returns the next entry's start. */
    private static int checkBacklen(byte[] lp, int p, int entryLength, int last) {
        int size = entryLength <= 127 ? 1 : entryLength < 16383 ? 2 : entryLength < 2097151 ? 3 : entryLength < 268435455 ? 4 : 5;
        check(p + size, last);
        // The backlen is written from the entry towards its start: the last byte holds the low 7 bits.
        long v = 0;
        for (int i = 0; i < size; i++) {
            int byteValue = lp[p + size - 1 - i] & 0x7f;
            v |= (long) byteValue << (7 * i);
        }
        if (v != entryLength) {
            throw new RdbFormatException("Listpack integrity check failed.");
        }
        return p + size;
    }

    private static void check(int end, int last) {
        if (end > last) {
            throw new RdbFormatException("Listpack integrity check failed.");
        }
    }

    private static byte[] slice(byte[] lp, int from, int len, int last) {
        check(from + len, last);
        return Arrays.copyOfRange(lp, from, from + len);
    }

    static long le(byte[] b, int from, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) (b[from + i] & 0xff) << (8 * i);
        }
        return v;
    }

    static byte[] decimal(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
