package io.strata.engine.durability;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The byte format of the write-ahead log. Documented with a worked example in
 * {@code docs/format.md}; change {@link #FORMAT_VERSION} with any change here.
 *
 * <h2>Segment file</h2>
 * Named {@code <first version, 20 digits>.log}. A 16-byte header, then records:
 * <pre>
 * header:  magic "STRATAWL" (8 bytes) | format version (u32) | reserved, zero (u32)
 * record:  payload length n (u32) | CRC-32C of the payload (u32) | payload (n bytes)
 * payload: commit version (u64) | entry count (u32) | entries
 * entry:   type (u8: 0 = set, 1 = clear range) | a length (u32) | a | b length (u32) | b
 *          set: a = key, b = value;  clear range: a = begin, b = end (exclusive)
 * </pre>
 * All integers are big-endian. One record is one commit batch: every effect of every
 * transaction committed at that version, atomic operations and versionstamps already
 * evaluated, so replay needs no evaluation and gives exactly the state that was visible.
 */
public final class LogFormat {
    public static final byte[] MAGIC = "STRATAWL".getBytes(StandardCharsets.US_ASCII);
    public static final int FORMAT_VERSION = 1;
    public static final int HEADER_BYTES = 16;
    /** Length and CRC before each payload. */
    public static final int RECORD_HEADER_BYTES = 8;
    public static final byte SET = 0;
    public static final byte CLEAR_RANGE = 1;
    /** A payload larger than this is corruption, not data: a batch is bounded well below it. */
    public static final int MAX_PAYLOAD_BYTES = 1 << 30;

    private LogFormat() {}

    static String segmentName(long firstVersion) {
        return String.format("%020d.log", firstVersion);
    }

    static ByteBuffer header() {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
        b.put(MAGIC).putInt(FORMAT_VERSION).putInt(0).flip();
        return b;
    }

    static int crc(ByteBuffer payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        return (int) crc.getValue();
    }
}
