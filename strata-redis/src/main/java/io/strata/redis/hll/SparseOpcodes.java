package io.strata.redis.hll;

/**
 * The three opcodes of the sparse layout, each a run of registers:
 * <ul>
 *   <li>ZERO {@code 00xxxxxx}: {@code xxxxxx + 1} (1..64) registers at 0;</li>
 *   <li>XZERO {@code 01xxxxxx yyyyyyyy}: {@code (xxxxxx << 8 | yyyyyyyy) + 1} (1..16384)
 *       registers at 0;</li>
 *   <li>VAL {@code 1vvvvvxx}: {@code xx + 1} (1..4) registers at {@code vvvvv + 1} (1..32).</li>
 * </ul>
 * An XZERO's second byte is read wherever it lies, even past the value's end (where a value
 * buffer keeps a zero byte, as Redis's strings end in one), so a truncated opcode reads as Redis
 * reads it.
 */
final class SparseOpcodes {
    static final int VAL_MAX_VALUE = 32;
    static final int VAL_MAX_LENGTH = 4;
    static final int ZERO_MAX_LENGTH = 64;
    static final int XZERO_MAX_LENGTH = 16384;

    private SparseOpcodes() {
    }

    static boolean isZero(int op) {
        return (op & 0xc0) == 0;
    }

    static boolean isXzero(int op) {
        return (op & 0xc0) == 0x40;
    }

    static boolean isVal(int op) {
        return (op & 0x80) != 0;
    }

    static int zeroLength(int op) {
        return (op & 0x3f) + 1;
    }

    static int xzeroLength(byte[] b, int at) {
        return (((b[at] & 0x3f) << 8) | (b[at + 1] & 0xff)) + 1;
    }

    static int valValue(int op) {
        return ((op >>> 2) & 0x1f) + 1;
    }

    static int valLength(int op) {
        return (op & 0x3) + 1;
    }

    static byte val(int value, int length) {
        return (byte) (((value - 1) << 2 | (length - 1)) | 0x80);
    }

    static byte zero(int length) {
        return (byte) (length - 1);
    }

    /** Writes an XZERO of {@code length} registers at {@code b[at]}, {@code b[at + 1]}. */
    static void xzero(byte[] b, int at, int length) {
        int l = length - 1;
        b[at] = (byte) ((l >>> 8) | 0x40);
        b[at + 1] = (byte) (l & 0xff);
    }
}
