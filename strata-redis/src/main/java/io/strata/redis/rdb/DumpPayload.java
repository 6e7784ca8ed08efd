package io.strata.redis.rdb;

/**
 * The footer of a DUMP payload: after the serialized value come the RDB version (2 bytes,
 * little-endian) and the CRC-64 ({@link Crc64}, 8 bytes little-endian) of everything before
 * the CRC. Redis 7.0 writes version {@value #RDB_VERSION} and refuses a newer one.
 */
public final class DumpPayload {
    /** Redis 7.0's RDB version. */
    public static final int RDB_VERSION = 10;
    static final int FOOTER = 10;

    private DumpPayload() {
    }

    /** As Redis's {@code verifyDumpPayload}: long enough, a version this server knows, the right CRC. */
    public static boolean verify(byte[] payload) {
        if (payload.length < FOOTER) {
            return false;
        }
        int footer = payload.length - FOOTER;
        int version = (payload[footer] & 0xff) | (payload[footer + 1] & 0xff) << 8;
        if (version > RDB_VERSION) {
            return false;
        }
        long crc = Crc64.of(payload, 0, payload.length - 8);
        return crc == Listpack.le(payload, payload.length - 8, 8);
    }

    /** {@code body} (a type byte and a value) with the version and CRC appended. */
    static byte[] seal(byte[] body) {
        byte[] out = java.util.Arrays.copyOf(body, body.length + FOOTER);
        out[body.length] = (byte) RDB_VERSION;
        out[body.length + 1] = (byte) (RDB_VERSION >> 8);
        long crc = Crc64.of(out, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            out[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return out;
    }
}
