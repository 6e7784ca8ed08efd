package io.strata.redis.hll;

import static io.strata.redis.hll.SparseOpcodes.isXzero;
import static io.strata.redis.hll.SparseOpcodes.isZero;
import static io.strata.redis.hll.SparseOpcodes.valLength;
import static io.strata.redis.hll.SparseOpcodes.valValue;
import static io.strata.redis.hll.SparseOpcodes.xzeroLength;
import static io.strata.redis.hll.SparseOpcodes.zeroLength;

/**
 * Read-only walks over a sparse value's opcodes ({@link SparseOpcodes}) in
 * {@code b[from .. end)}: histogram, merge, expansion to dense, PFDEBUG's decoding.
 *
 * <p>Opcodes are valid when their runs cover exactly {@link HyperLogLog#REGISTERS} registers.
 * A run that would pass the last register makes them invalid at once, whatever follows: the
 * bound Redis 7.0.15 as Debian ships it applies (the fix for CVE-2025-32023, where unbounded
 * runs let a forged string overflow Redis's register count), and the one later Redis releases
 * apply.
 */
final class SparseRegisters {
    private SparseRegisters() {
    }

    /** What a walk does with each run of registers. */
    @FunctionalInterface
    private interface Runs {
        /** Registers {@code first .. first + length - 1} hold {@code value} (0 for a ZERO or XZERO run). */
        void run(int first, int length, int value);
    }

    /** Visits the runs in order; whether the opcodes are valid (the visits stop at an invalid run). */
    private static boolean walk(byte[] b, int from, int end, Runs runs) {
        int index = 0;
        int p = from;
        while (p < end) {
            int op = b[p] & 0xff;
            int length;
            int value = 0;
            if (isZero(op)) {
                length = zeroLength(op);
                p++;
            } else if (isXzero(op)) {
                length = xzeroLength(b, p);
                p += 2;
            } else {
                length = valLength(op);
                value = valValue(op);
                p++;
            }
            if (length + index > HyperLogLog.REGISTERS) {
                return false;
            }
            runs.run(index, length, value);
            index += length;
        }
        return index == HyperLogLog.REGISTERS;
    }

    /** Adds each register's value to {@code histogram}; whether the opcodes are valid. */
    static boolean histogram(byte[] b, int from, int end, int[] histogram) {
        return walk(b, from, end, (first, length, value) -> histogram[value] += length);
    }

    /**
     * Raises {@code max[i]} to register {@code i} where it is higher; whether the opcodes are
     * valid ({@code max} may be partly raised when not).
     */
    static boolean mergeInto(byte[] b, int from, int end, byte[] max) {
        return walk(b, from, end, (first, length, value) -> {
            for (int i = first; i < first + length; i++) {
                if (value > max[i]) {
                    max[i] = (byte) value;
                }
            }
        });
    }

    /** Sets the dense registers at {@code dense[base ..]} (all zero) from the opcodes; whether they are valid. */
    static boolean expand(byte[] b, int from, int end, byte[] dense, int base) {
        return walk(b, from, end, (first, length, value) -> {
            if (value != 0) {
                for (int i = first; i < first + length; i++) {
                    DenseRegisters.set(dense, base, i, value);
                }
            }
        });
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
