package io.strata.layers.interning;

/** Big- and little-endian integers and concatenation, without Tuple encoding in hot paths. */
final class Bytes {
    private Bytes() {}

    static byte[] bigEndian(long v) {
        byte[] b = new byte[8];
        putBigEndian(b, 0, v);
        return b;
    }

    static void putBigEndian(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** The first 8 bytes as an unsigned big-endian integer. */
    static long bigEndian(byte[] b) {
        return bigEndian(b, 0);
    }

    static long bigEndian(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** {@code a ++ v} (8 bytes big-endian). */
    static byte[] concat(byte[] a, long v) {
        byte[] out = new byte[a.length + 8];
        System.arraycopy(a, 0, out, 0, a.length);
        putBigEndian(out, a.length, v);
        return out;
    }
}
