package io.strata.redis.rdb;

/**
 * The CRC-64 Redis puts at the end of RDB files and DUMP payloads: the "Jones" polynomial
 * {@code 0xad93d23594c935a9}, reflected input and output, initial value 0, no final xor
 * (the check value of {@code "123456789"} is {@code 0xe9c6d914c4b8d9ca}). Table-driven, one
 * byte at a time; stateless.
 */
public final class Crc64 {
    /** The polynomial with its bits reversed, as a reflected CRC shifts right. */
    private static final long REFLECTED_POLY = Long.reverse(0xad93d23594c935a9L);
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ REFLECTED_POLY : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private Crc64() {
    }

    /** Continues {@code crc} over {@code data[offset .. offset+length)}. */
    public static long update(long crc, byte[] data, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            crc = TABLE[(int) ((crc ^ data[i]) & 0xff)] ^ (crc >>> 8);
        }
        return crc;
    }

    public static long of(byte[] data, int offset, int length) {
        return update(0, data, offset, length);
    }
}
