package io.strata.redis.rdb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the RDB primitive encodings (see {@link RdbInput} for the format): lengths in
 * their shortest form, strings raw or, as Redis writes them, integer-encoded when the string
 * is the canonical decimal form of a 32-bit integer, and binary doubles. Not thread-safe.
 */
final class RdbOutput {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void writeByte(int b) {
        out.write(b);
    }

    void writeLength(long len) {
        if (len < 1 << 6) {
            out.write((int) len);
        } else if (len < 1 << 14) {
            out.write(0x40 | (int) (len >> 8));
            out.write((int) len & 0xff);
        } else if (len <= 0xFFFFFFFFL) {
            out.write(0x80);
            writeBigEndian(len, 4);
        } else {
            out.write(0x81);
            writeBigEndian(len, 8);
        }
    }

    /** A length as an unsigned 64-bit number (a stream ID's parts, a counter of -1). */
    void writeUnsignedLength(long len) {
        if (Long.compareUnsigned(len, 0xFFFFFFFFL) > 0) {
            out.write(0x81);
            writeBigEndian(len, 8);
        } else {
            writeLength(len);
        }
    }

    /** Bytes as they are, no length. */
    void writeRaw(byte[] b) {
        out.writeBytes(b);
    }

    /** Redis's {@code rdbSaveMillisecondTime}: 8 bytes, little-endian. */
    void writeMillisecondTime(long ms) {
        writeLittleEndian(ms, 8);
    }

    void writeString(byte[] s) {
        if (s.length <= 11 && writeAsInteger(s)) {
            return;
        }
        writeLength(s.length);
        out.writeBytes(s);
    }

    /** Redis's {@code rdbTryIntegerEncoding}: only a string that reads back identically, of at most 32 bits. */
    private boolean writeAsInteger(byte[] s) {
        String text = new String(s, StandardCharsets.ISO_8859_1);
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            return false;
        }
        if (!Long.toString(v).equals(text)) {
            return false;
        }
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            out.write(0xC0);
            writeLittleEndian(v, 1);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            out.write(0xC1);
            writeLittleEndian(v, 2);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            out.write(0xC2);
            writeLittleEndian(v, 4);
        } else {
            return false;
        }
        return true;
    }

    void writeBinaryDouble(double d) {
        writeLittleEndian(Double.doubleToRawLongBits(d), 8);
    }

    private void writeBigEndian(long v, int n) {
        for (int i = n - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    private void writeLittleEndian(long v, int n) {
        for (int i = 0; i < n; i++) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
