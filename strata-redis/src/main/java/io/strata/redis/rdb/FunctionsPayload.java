package io.strata.redis.rdb;

import java.util.ArrayList;
import java.util.List;

/**
 * The payload of FUNCTION DUMP and FUNCTION RESTORE, as Redis 7.0 writes and reads it: for each
 * library the opcode {@value #FUNCTION2} and its code as an RDB string, then the footer of
 * every DUMP payload ({@link DumpPayload}: RDB version and CRC-64).
 */
public final class FunctionsPayload {
    /** {@code RDB_OPCODE_FUNCTION2}: a function library's code follows. */
    static final int FUNCTION2 = 245;
    /** {@code RDB_OPCODE_FUNCTION_PRE_GA}: the format of Redis 7.0's release candidates. */
    static final int FUNCTION_PRE_GA = 246;

    private FunctionsPayload() {
    }

    /** A payload holding the libraries whose code is {@code codes}. */
    public static byte[] encode(List<byte[]> codes) {
        RdbOutput out = new RdbOutput();
        for (byte[] code : codes) {
            out.writeByte(FUNCTION2);
            out.writeString(code);
        }
        return DumpPayload.seal(out.toByteArray());
    }

    /**
     * The libraries' code in {@code payload}, in order.
     *
     * @throws RdbFormatException with the text Redis's FUNCTION RESTORE answers (after
     *         {@code ERR }): a payload whose version or checksum is wrong, or that holds
     *         something else than libraries
     */
    public static List<byte[]> decode(byte[] payload) {
        if (!DumpPayload.verify(payload)) {
            throw new RdbFormatException("payload version or checksum are wrong");
        }
        int end = payload.length - DumpPayload.FOOTER;
        RdbInput in = new RdbInput(payload, end);
        List<byte[]> codes = new ArrayList<>();
        while (in.position() < end) {
            int type = in.readByte();
            if (type == FUNCTION_PRE_GA) {
                throw new RdbFormatException("Pre-GA function format not supported");
            }
            if (type != FUNCTION2) {
                throw new RdbFormatException("given type is not a function");
            }
            try {
                codes.add(in.readString());
            } catch (RdbFormatException e) {
                throw new RdbFormatException("Failed loading library");
            }
        }
        return codes;
    }
}
