package io.strata.redis.rdb;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over RDB bytes with the RDB primitive encodings:
 * <ul>
 *   <li>lengths: the first byte's top two bits say 6 bits ({@code 00}), 14 bits big-endian
 *       ({@code 01}), a 32-bit ({@code 0x80}) or 64-bit ({@code 0x81}) big-endian length, or
 *       ({@code 11}) a special string encoding in the low 6 bits;</li>
 *   <li>strings: a length and the bytes, or an integer of 1, 2 or 4 bytes little-endian
 *       (loaded as its decimal text), or LZF: compressed length, length, compressed bytes;</li>
 *   <li>doubles: binary (8 bytes little-endian IEEE 754, ZSET_2) or the old text form (a
 *       length byte, 253/254/255 for NaN/+inf/-inf, then {@code %.17g} text).</li>
 * </ul>
 * Every read past the end is a {@link RdbFormatException}. Not thread-safe (one per decode).
 */
final class RdbInput {
    private static final int ENC_INT8 = 0;
    private static final int ENC_INT16 = 1;
    private static final int ENC_INT32 = 2;
    private static final int ENC_LZF = 3;

    private final byte[] data;
    private final int end;
    private int pos;

    RdbInput(byte[] data, int end) {
        this.data = data;
        this.end = end;
    }

    /** Where the next read starts. */
    int position() {
        return pos;
    }

    int readByte() {
        need(1);
        return data[pos++] & 0xff;
    }

    byte[] readBytes(long n) {
        need(n);
        byte[] b = Arrays.copyOfRange(data, pos, pos + (int) n);
        pos += (int) n;
        return b;
    }

    private void need(long n) {
        if (n < 0 || n > end - pos) {
            throw new RdbFormatException("payload ends early");
        }
    }

    /** Redis's {@code rdbLoadMillisecondTime} at RDB version 9 and later: 8 bytes, little-endian. */
    long readMillisecondTime() {
        return readLittleEndianSigned(8);
    }

    /** A length; a special string encoding here is an error. */
    long readLength() {
        long len = readUnsignedLength();
        if (len < 0) {
            throw new RdbFormatException("length out of range");
        }
        return len;
    }

    /** A length as an unsigned 64-bit number (a stream ID's parts): the bits, which may read as negative. */
    long readUnsignedLength() {
        long[] encoded = new long[1];
        long len = readLengthOrEncoding(encoded);
        if (encoded[0] != 0) {
            throw new RdbFormatException("unexpected string encoding where a length belongs");
        }
        return len;
    }

    /** A length, or the special encoding (then {@code encoded[0]} is 1). */
    private long readLengthOrEncoding(long[] encoded) {
        int first = readByte();
        switch (first >> 6) {
            case 0:
                return first & 0x3f;
            case 1:
                return ((first & 0x3f) << 8) | readByte();
            case 2:
                if (first == 0x80) {
                    return readBigEndian(4);
                }
                if (first == 0x81) {
                    return readBigEndian(8);
                }
                throw new RdbFormatException("unknown length encoding " + first);
            default:
                encoded[0] = 1;
                return first & 0x3f;
        }
    }

    private long readBigEndian(int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | readByte();
        }
        return v;
    }

    private long readLittleEndianSigned(int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) readByte() << (8 * i);
        }
        int shift = 64 - 8 * n;
        return (v << shift) >> shift;
    }

    /** A string in any of its encodings, as its bytes. */
    byte[] readString() {
        long[] encoded = new long[1];
        long len = readLengthOrEncoding(encoded);
        if (encoded[0] == 0) {
            return readBytes(len);
        }
        switch ((int) len) {
            case ENC_INT8:
                return decimal(readLittleEndianSigned(1));
            case ENC_INT16:
                return decimal(readLittleEndianSigned(2));
            case ENC_INT32:
                return decimal(readLittleEndianSigned(4));
            case ENC_LZF:
                long compressed = readLength();
                long plain = readLength();
                // One LZF back reference (3 bytes at most) yields at most 264 bytes: a claimed
                // length beyond that ratio is corrupt, and must not size an allocation.
                if (plain > Integer.MAX_VALUE - 8 || plain > 88 * compressed + 1) {
                    throw new RdbFormatException("LZF string too long");
                }
                return Lzf.decompress(readBytes(compressed), (int) plain);
            default:
                throw new RdbFormatException("unknown string encoding " + len);
        }
    }

    /** ZSET_2's binary score. */
    double readBinaryDouble() {
        return Double.longBitsToDouble(readLittleEndianSigned(8));
    }

    /** The old ZSET's text score. */
    double readTextDouble() {
        int len = readByte();
        switch (len) {
            case 255: return Double.NEGATIVE_INFINITY;
            case 254: return Double.POSITIVE_INFINITY;
            case 253: return Double.NaN;
            default:
                return ScoreText.parse(readBytes(len));
        }
    }

    private static byte[] decimal(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
