package io.strata.redis.rdb;

import java.io.ByteArrayOutputStream;

/**
 * Builds a listpack (the format {@link Listpack} reads) as Redis's {@code lpAppend} and
 * {@code lpAppendInteger} write one: integers in their smallest integer encoding, strings
 * with a 6-, 12- or 32-bit length, each entry followed by its back-length. For the stream
 * nodes DUMP writes. Not thread-safe.
 */
final class ListpackWriter {
    private final ByteArrayOutputStream entries = new ByteArrayOutputStream();
    private int count;

    ListpackWriter add(long v) {
        byte[] e;
        if (v >= 0 && v <= 127) {
            e = new byte[] {(byte) v};
        } else if (v >= -4096 && v <= 4095) {
            e = new byte[] {(byte) (0xC0 | ((v >> 8) & 0x1f)), (byte) v};
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            e = le(0xF1, v, 2);
        } else if (v >= -(1 << 23) && v < (1 << 23)) {
            e = le(0xF2, v, 3);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            e = le(0xF3, v, 4);
        } else {
            e = le(0xF4, v, 8);
        }
        return entry(e);
    }

    ListpackWriter add(byte[] s) {
        int n = s.length;
        byte[] e;
        int header;
        if (n < 64) {
            header = 1;
            e = new byte[1 + n];
            e[0] = (byte) (0x80 | n);
        } else if (n < 4096) {
            header = 2;
            e = new byte[2 + n];
            e[0] = (byte) (0xE0 | (n >> 8));
            e[1] = (byte) n;
        } else {
            header = 5;
            e = new byte[5 + n];
            e[0] = (byte) 0xF0;
            for (int i = 0; i < 4; i++) {
                e[1 + i] = (byte) (n >>> (8 * i));
            }
        }
        System.arraycopy(s, 0, e, header, n);
        return entry(e);
    }

    private ListpackWriter entry(byte[] e) {
        entries.writeBytes(e);
        entries.writeBytes(backlen(e.length));
        count++;
        return this;
    }

    /** Redis's {@code lpEncodeBacklen}: the entry's length, 7 bits a byte, most significant first. */
    private static byte[] backlen(int l) {
        int bytes = l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            int shift = 7 * (bytes - 1 - i);
            b[i] = (byte) (i == 0 ? (l >>> shift) & 0x7f : ((l >>> shift) & 127) | 128);
        }
        return b;
    }

    private static byte[] le(int encoding, long v, int n) {
        byte[] e = new byte[1 + n];
        e[0] = (byte) encoding;
        for (int i = 0; i < n; i++) {
            e[1 + i] = (byte) (v >>> (8 * i));
        }
        return e;
    }

    byte[] toByteArray() {
        byte[] body = entries.toByteArray();
        int total = 6 + body.length + 1;
        byte[] lp = new byte[total];
        for (int i = 0; i < 4; i++) {
            lp[i] = (byte) (total >>> (8 * i));
        }
        int c = Math.min(count, 65535);
        lp[4] = (byte) c;
        lp[5] = (byte) (c >>> 8);
        System.arraycopy(body, 0, lp, 6, body.length);
        lp[total - 1] = (byte) 0xFF;
        return lp;
    }
}
