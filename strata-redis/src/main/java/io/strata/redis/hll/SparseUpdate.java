package io.strata.redis.hll;

import static io.strata.redis.hll.SparseOpcodes.isVal;
import static io.strata.redis.hll.SparseOpcodes.isXzero;
import static io.strata.redis.hll.SparseOpcodes.isZero;
import static io.strata.redis.hll.SparseOpcodes.val;
import static io.strata.redis.hll.SparseOpcodes.valLength;
import static io.strata.redis.hll.SparseOpcodes.valValue;
import static io.strata.redis.hll.SparseOpcodes.xzeroLength;
import static io.strata.redis.hll.SparseOpcodes.zeroLength;

/**
 * Raising one register of a sparse value in place, step for step as Redis does, so that the
 * value's bytes after any sequence of updates are Redis's: find the opcode that covers the
 * register; rewrite it (a VAL of one register or a ZERO of one in place, otherwise split into
 * up to three opcodes of at most five bytes); then fold adjacent VALs of equal value, scanning
 * up to five opcodes from the one before the change. The cached cardinality is marked stale
 * when a register changes.
 */
final class SparseUpdate {
    /** The register was raised. */
    static final int UPDATED = 1;
    /** The register already held as much. */
    static final int UNCHANGED = 0;
    /** The opcodes do not reach the register: the value is corrupt. */
    static final int INVALID = -1;
    /**
     * Nothing was changed, and the value must become dense for this update: the count does not
     * fit a VAL opcode, or the split would grow the value past {@code hll-sparse-max-bytes}.
     */
    static final int PROMOTE = 2;

    private SparseUpdate() {
    }

    /** Raises register {@code index} of {@code v} to {@code count}; one of the constants above. */
    static int raise(ValueBuffer v, int index, int count, long sparseMaxBytes) {
        if (count > SparseOpcodes.VAL_MAX_VALUE) {
            return PROMOTE;
        }
        // A split grows the opcodes by at most three bytes (XZERO into XZERO VAL XZERO).
        v.makeRoom(3);
        byte[] b = v.bytes;
        int sparse = HyperLogLog.HEADER_SIZE;
        int end = v.length;

        // Find the opcode covering the register: p, its first register, its run, the one before.
        int p = sparse;
        long first = 0;
        int prev = -1;
        long span = 0;
        while (p < end) {
            int op = b[p] & 0xff;
            int opLength = 1;
            if (isZero(op)) {
                span = zeroLength(op);
            } else if (isVal(op)) {
                span = valLength(op);
            } else {
                span = xzeroLength(b, p);
                opLength = 2;
            }
            if (index <= first + span - 1) {
                break;
            }
            prev = p;
            p += opLength;
            first += span;
        }
        if (span == 0 || p >= end) {
            return INVALID;
        }
        int op = b[p] & 0xff;
        int next = isXzero(op) ? p + 2 : p + 1;
        if (next >= end) {
            next = -1;
        }
        boolean zero = isZero(op);
        boolean xzero = isXzero(op);
        int run = zero ? zeroLength(op) : xzero ? xzeroLength(b, p) : valLength(op);

        if (!zero && !xzero) {
            if (valValue(op) >= count) {
                return UNCHANGED;
            }
            if (run == 1) {
                b[p] = val(count, 1);
                return folded(v, prev, end);
            }
        }
        if (zero && run == 1) {
            b[p] = val(count, 1);
            return folded(v, prev, end);
        }

        // Split the opcode into what lies before the register, the register, what lies after.
        byte[] seq = new byte[5];
        int n = 0;
        int last = (int) (first + span - 1);
        if (zero || xzero) {
            if (index != first) {
                n = zeros(seq, n, (int) (index - first));
            }
            seq[n++] = val(count, 1);
            if (index != last) {
                n = zeros(seq, n, last - index);
            }
        } else {
            int current = valValue(op);
            if (index != first) {
                seq[n++] = val(current, (int) (index - first));
            }
            seq[n++] = val(count, 1);
            if (index != last) {
                seq[n++] = val(current, last - index);
            }
        }
        int oldLength = xzero ? 2 : 1;
        int delta = n - oldLength;
        if (delta > 0 && (long) v.length + delta > sparseMaxBytes) {
            return PROMOTE;
        }
        if (delta != 0 && next >= 0) {
            v.move(next + delta, next, end - next);
        }
        v.grow(delta);
        System.arraycopy(seq, 0, b, p, n);
        end += delta;
        return folded(v, prev, end);
    }

    /** A run of {@code length} zero registers as a ZERO or, past 64, an XZERO; the new fill. */
    private static int zeros(byte[] seq, int n, int length) {
        if (length > SparseOpcodes.ZERO_MAX_LENGTH) {
            SparseOpcodes.xzero(seq, n, length);
            return n + 2;
        }
        seq[n] = SparseOpcodes.zero(length);
        return n + 1;
    }

    /**
     * After a change: folds adjacent VALs of one value whose runs fit one VAL, looking at five
     * opcodes from {@code prev} (the value's first opcode when none), and marks the cached
     * cardinality stale. Always {@link #UPDATED}.
     */
    private static int folded(ValueBuffer v, int prev, int end) {
        byte[] b = v.bytes;
        int p = prev >= 0 ? prev : HyperLogLog.HEADER_SIZE;
        int scans = 5;
        while (p < end && scans-- != 0) {
            int op = b[p] & 0xff;
            if (isXzero(op)) {
                p += 2;
                continue;
            }
            if (isZero(op)) {
                p++;
                continue;
            }
            if (p + 1 < end && isVal(b[p + 1] & 0xff)) {
                int value = valValue(op);
                int nextOp = b[p + 1] & 0xff;
                if (value == valValue(nextOp)) {
                    int length = valLength(op) + valLength(nextOp);
                    if (length <= SparseOpcodes.VAL_MAX_LENGTH) {
                        b[p + 1] = val(value, length);
                        v.move(p, p + 1, end - p);
                        v.grow(-1);
                        end--;
                        // Look again at p: the folded VAL may fold with the next one too.
                        continue;
                    }
                }
            }
            p++;
        }
        HyperLogLog.invalidateCache(b);
        return UPDATED;
    }
}
