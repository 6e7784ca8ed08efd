package io.strata.redis.hll;

import static io.strata.redis.hll.SparseOpcodes.isXzero;
import static io.strata.redis.hll.SparseOpcodes.isZero;
import static io.strata.redis.hll.SparseOpcodes.valLength;
import static io.strata.redis.hll.SparseOpcodes.valValue;
import static io.strata.redis.hll.SparseOpcodes.xzeroLength;
import static io.strata.redis.hll.SparseOpcodes.zeroLength;

/**
 * Read-only walks over a sparse value's opcodes ({@link SparseOpcodes}) in
 * {@code b[from .. end)}: histogram, merge, expansion to dense, PFDEBUG's decoding. A valid
 * run covers exactly {@link HyperLogLog#REGISTERS} registers; each walk reports a run that does
 * not, the same way Redis's walks do (register counts are ints, as Redis's are).
 */
final class SparseRegisters {
    private SparseRegisters() {
    }

    /** Adds each register's value to {@code histogram}; whether the opcodes cover exactly the registers. */
    static boolean histogram(byte[] b, int from, int end, int[] histogram) {
        int index = 0;
        int p = from;
        while (p < end) {
            int op = b[p] & 0xff;
            if (isZero(op)) {
                int run = zeroLength(op);
                index += run;
                histogram[0] += run;
                p++;
            } else if (isXzero(op)) {
                int run = xzeroLength(b, p);
                index += run;
                histogram[0] += run;
                p += 2;
            } else {
                int run = valLength(op);
                index += run;
                histogram[valValue(op)] += run;
                p++;
            }
        }
        return index == HyperLogLog.REGISTERS;
    }

    /**
     * Raises {@code max[i]} to register {@code i} where it is higher; false when the opcodes do
     * not cover exactly the registers ({@code max} may then be partly raised). A VAL run that
     * would pass the last register stops the walk, as in Redis.
     */
    static boolean mergeInto(byte[] b, int from, int end, byte[] max) {
        int index = 0;
        int p = from;
        while (p < end) {
            int op = b[p] & 0xff;
            if (isZero(op)) {
                index += zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                index += xzeroLength(b, p);
                p += 2;
            } else {
                int run = valLength(op);
                int value = valValue(op);
                if (run + index > HyperLogLog.REGISTERS) {
                    break;
                }
                for (; run > 0; run--, index++) {
                    if (value > max[index]) {
                        max[index] = (byte) value;
                    }
                }
                p++;
            }
        }
        return index == HyperLogLog.REGISTERS;
    }

    /**
     * Sets the dense registers at {@code dense[base ..]} (all zero) from the opcodes; false when
     * the opcodes do not cover exactly the registers.
     */
    static boolean expand(byte[] b, int from, int end, byte[] dense, int base) {
        int index = 0;
        int p = from;
        while (p < end) {
            int op = b[p] & 0xff;
            if (isZero(op)) {
                index += zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                index += xzeroLength(b, p);
                p += 2;
            } else {
                int run = valLength(op);
                int value = valValue(op);
                if (run + index > HyperLogLog.REGISTERS) {
                    break;
                }
                for (; run > 0; run--, index++) {
                    DenseRegisters.set(dense, base, index, value);
                }
                p++;
            }
        }
        return index == HyperLogLog.REGISTERS;
    }

    /**
     * PFDEBUG DECODE's text: {@code z:N} for a ZERO run, {@code Z:N} for an XZERO run,
     * {@code v:VALUE,N} for a VAL run, separated by spaces. Whatever the opcodes are, valid or not.
     */
    static String decode(byte[] b, int from, int end) {
        StringBuilder out = new StringBuilder();
        int p = from;
        while (p < end) {
            int op = b[p] & 0xff;
            if (out.length() > 0) {
                out.append(' ');
            }
            if (isZero(op)) {
                out.append("z:").append(zeroLength(op));
                p++;
            } else if (isXzero(op)) {
                out.append("Z:").append(xzeroLength(b, p));
                p += 2;
            } else {
                out.append("v:").append(valValue(op)).append(',').append(valLength(op));
                p++;
            }
        }
        return out.toString();
    }
}
