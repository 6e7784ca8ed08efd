package io.strata.engine.mutation;

import java.util.Arrays;
import java.util.Objects;

/**
 * The value-combining rules of FoundationDB's atomic operations, as pure functions on bytes.
 *
 * <p>Why this exists: an atomic operation is not evaluated by the client. The client only records
 * {@code (key, opcode, param)}; the new value is computed when the mutation is applied, from
 * whatever value the key holds at that point in the commit order. In Strata that point is the
 * engine's commit pipeline (and its read-your-writes overlay), both of which call {@link #apply}.
 * Keeping the rules here, free of any storage concern, lets them be checked byte for byte
 * against FoundationDB.
 *
 * <p>Ground truth: FoundationDB 7.3, {@code fdbclient/include/fdbclient/Atomic.h} (the
 * {@code doLittleEndianAdd}, {@code doAnd}/{@code doAndV2}, {@code doOr}, {@code doXor},
 * {@code doAppendIfFits}, {@code doMax}, {@code doMin}/{@code doMinV2}, {@code doByteMin},
 * {@code doByteMax} and {@code doCompareAndClear} functions), plus the opcode dispatch in the
 * storage server's {@code expandMutation}. This class is an independent re-implementation of the
 * behaviour, not a translation of that text.
 *
 * <p>API version note: at API version 510 and later, {@code ReadYourWritesTransaction::atomicOp}
 * and {@code Transaction::atomicOp} ({@code fdbclient/ReadYourWrites.actor.cpp},
 * {@code fdbclient/NativeAPI.actor.cpp}) silently rewrite the legacy opcodes {@code And} (6) and
 * {@code Min} (13) to {@code AndV2} (19) and {@code MinV2} (18) before the mutation ever leaves the
 * client. Strata targets API version 730, so here {@link #BIT_AND} and {@link #MIN} always have the
 * V2 semantics (a missing value yields the parameter). The internal codes 18 and 19 are not part of
 * the Java {@code MutationType} enum and are rejected.
 *
 * <p>Inputs are never modified, and the returned array is always a fresh array (never one of the
 * arguments), so callers may keep or mutate it freely.
 */
public final class AtomicOps {

    /** {@code MutationType.ADD}: little-endian integer addition, wrapping. */
    public static final int ADD = 2;
    /** {@code MutationType.BIT_AND} (and the deprecated alias {@code AND}). */
    public static final int BIT_AND = 6;
    /** {@code MutationType.BIT_OR} (and the deprecated alias {@code OR}). */
    public static final int BIT_OR = 7;
    /** {@code MutationType.BIT_XOR} (and the deprecated alias {@code XOR}). */
    public static final int BIT_XOR = 8;
    /** {@code MutationType.APPEND_IF_FITS}. */
    public static final int APPEND_IF_FITS = 9;
    /** {@code MutationType.MAX}: little-endian unsigned integer maximum. */
    public static final int MAX = 12;
    /** {@code MutationType.MIN}: little-endian unsigned integer minimum (V2 semantics). */
    public static final int MIN = 13;
    /** {@code MutationType.SET_VERSIONSTAMPED_KEY}: not a value-combining op, see {@link Versionstamps}. */
    public static final int SET_VERSIONSTAMPED_KEY = 14;
    /** {@code MutationType.SET_VERSIONSTAMPED_VALUE}: not a value-combining op, see {@link Versionstamps}. */
    public static final int SET_VERSIONSTAMPED_VALUE = 15;
    /** {@code MutationType.BYTE_MIN}: lexicographic (unsigned byte string) minimum. */
    public static final int BYTE_MIN = 16;
    /** {@code MutationType.BYTE_MAX}: lexicographic (unsigned byte string) maximum. */
    public static final int BYTE_MAX = 17;
    /** {@code MutationType.COMPARE_AND_CLEAR}. */
    public static final int COMPARE_AND_CLEAR = 20;

    /**
     * FoundationDB's {@code CLIENT_KNOBS->VALUE_SIZE_LIMIT} (initialised to {@code 1e5} in
     * {@code fdbclient/ClientKnobs.cpp}): the largest value, in bytes, that {@link #APPEND_IF_FITS}
     * will produce by appending.
     */
    public static final int VALUE_SIZE_LIMIT = 100_000;

    private AtomicOps() {}

    /**
     * Whether {@code code} is one of the value-combining atomic operations that {@link #apply}
     * accepts: ADD, BIT_AND, BIT_OR, BIT_XOR, APPEND_IF_FITS, MAX, MIN, BYTE_MIN, BYTE_MAX and
     * COMPARE_AND_CLEAR.
     *
     * <p>Unlike FoundationDB's own {@code isAtomicOp}, this excludes the two versionstamp operations
     * (see {@link #isVersionstampOp}), because those do not combine with an existing value.
     *
     * @param code a {@code com.apple.foundationdb.MutationType.code()} value
     * @return true exactly when {@link #apply} accepts {@code code}
     */
    public static boolean isAtomicOp(int code) {
        switch (code) {
            case ADD, BIT_AND, BIT_OR, BIT_XOR, APPEND_IF_FITS, MAX, MIN, BYTE_MIN, BYTE_MAX,
                    COMPARE_AND_CLEAR:
                return true;
            default:
                return false;
        }
    }

    /**
     * Whether {@code code} is SET_VERSIONSTAMPED_KEY (14) or SET_VERSIONSTAMPED_VALUE (15), whose
     * key or value is rewritten at commit time by {@link Versionstamps#substitute}.
     *
     * @param code a {@code com.apple.foundationdb.MutationType.code()} value
     * @return true for codes 14 and 15
     */
    public static boolean isVersionstampOp(int code) {
        return code == SET_VERSIONSTAMPED_KEY || code == SET_VERSIONSTAMPED_VALUE;
    }

    /**
     * Whether an atomic operation with this code can leave the key without a value. Only
     * COMPARE_AND_CLEAR can; every other op always produces a (possibly empty) value.
     *
     * @param code a {@code com.apple.foundationdb.MutationType.code()} value
     * @return true only for {@link #COMPARE_AND_CLEAR}
     */
    public static boolean canClear(int code) {
        return code == COMPARE_AND_CLEAR;
    }

    /**
     * Computes the value a key holds after an atomic operation, exactly as FoundationDB 7.3 does.
     *
     * <p>Summary of the rules ({@code n} = {@code param.length}; "resized existing" means the
     * existing value truncated to, or zero-extended at the high end to, {@code n} bytes; a missing
     * value resizes to {@code n} zero bytes):
     * <ul>
     *   <li>ADD: resized existing + param as little-endian unsigned integers, modulo
     *       2<sup>8n</sup>; result has {@code n} bytes.
     *   <li>BIT_AND: missing existing gives param; otherwise resized existing AND param (so a
     *       present but shorter or empty existing value ANDs as zeros in the high bytes).
     *   <li>BIT_OR, BIT_XOR: resized existing OR/XOR param (missing or empty existing gives param).
     *   <li>APPEND_IF_FITS: missing or empty existing gives param; empty param gives existing;
     *       otherwise existing followed by param if the total is at most {@link #VALUE_SIZE_LIMIT}
     *       bytes, else existing unchanged.
     *   <li>MAX: empty param gives the empty value; missing or empty existing gives param;
     *       otherwise the larger of resized existing and param as little-endian unsigned integers
     *       (param when equal).
     *   <li>MIN: empty param gives the empty value; missing existing gives param; otherwise the
     *       smaller of resized existing and param as little-endian unsigned integers (param when
     *       equal). A present but empty existing value therefore gives {@code n} zero bytes.
     *   <li>BYTE_MIN, BYTE_MAX: missing existing gives param; otherwise the lexicographically
     *       smaller/larger of existing and param (unsigned bytes, a proper prefix is smaller);
     *       param when equal. The result keeps its own length.
     *   <li>COMPARE_AND_CLEAR: clears (returns null) when existing is missing or equal to param;
     *       otherwise existing unchanged.
     * </ul>
     * Lengths are not validated here: FoundationDB rejects params over {@link #VALUE_SIZE_LIMIT}
     * with {@code value_too_large} when the op is issued, which is the caller's job.
     *
     * @param mutationCode one of the codes for which {@link #isAtomicOp} is true
     * @param existing the key's current value, or null when the key has no value
     * @param param the operation's parameter (FoundationDB's "operand"); must not be null
     * @return a new array holding the key's new value, or null when the key ends up cleared
     *     (only possible for {@link #COMPARE_AND_CLEAR})
     * @throws IllegalArgumentException if {@code mutationCode} is not accepted by {@link #isAtomicOp}
     *     (including the versionstamp codes 14 and 15)
     * @throws NullPointerException if {@code param} is null
     */
    public static byte[] apply(int mutationCode, byte[] existing, byte[] param) {
        Objects.requireNonNull(param, "param");
        switch (mutationCode) {
            case ADD:
                return add(existing, param);
            case BIT_AND:
                return bitAnd(existing, param);
            case BIT_OR:
                return bitOr(existing, param);
            case BIT_XOR:
                return bitXor(existing, param);
            case APPEND_IF_FITS:
                return appendIfFits(existing, param);
            case MAX:
                return max(existing, param);
            case MIN:
                return min(existing, param);
            case BYTE_MIN:
                return byteMin(existing, param);
            case BYTE_MAX:
                return byteMax(existing, param);
            case COMPARE_AND_CLEAR:
                return compareAndClear(existing, param);
            case SET_VERSIONSTAMPED_KEY:
            case SET_VERSIONSTAMPED_VALUE:
                throw new IllegalArgumentException(
                        "mutation code " + mutationCode
                                + " is a versionstamp operation; use Versionstamps, not AtomicOps");
            default:
                throw new IllegalArgumentException(
                        "mutation code " + mutationCode + " is not an atomic operation");
        }
    }

    // Atomic.h doLittleEndianAdd: an empty existing value (or a missing one) returns the operand;
    // an empty operand returns the operand; otherwise a byte-wise add with carry over the operand's
    // length, the existing value's extra high bytes ignored and its missing ones read as zero. The
    // final carry is dropped (wrap). Adding to zero-extended bytes covers the empty/missing case.
    private static byte[] add(byte[] existing, byte[] param) {
        byte[] out = resized(existing, param.length);
        int carry = 0;
        for (int i = 0; i < out.length; i++) {
            int sum = Byte.toUnsignedInt(out[i]) + Byte.toUnsignedInt(param[i]) + carry;
            out[i] = (byte) sum;
            carry = sum >>> 8;
        }
        return out;
    }

    // Atomic.h doAndV2 (what opcode 6 becomes at API >= 510): missing existing returns the operand.
    // Otherwise doAnd: empty operand returns it; the result has the operand's length, bytes beyond
    // the existing value's length are 0x00 (so a present empty existing value yields all zeros).
    private static byte[] bitAnd(byte[] existing, byte[] param) {
        if (existing == null) {
            return param.clone();
        }
        byte[] out = resized(existing, param.length);
        for (int i = 0; i < out.length; i++) {
            out[i] &= param[i];
        }
        return out;
    }

    // Atomic.h doOr: empty/missing existing or empty operand returns the operand; otherwise OR over
    // the operand's length, operand bytes copied where the existing value is shorter.
    private static byte[] bitOr(byte[] existing, byte[] param) {
        byte[] out = resized(existing, param.length);
        for (int i = 0; i < out.length; i++) {
            out[i] |= param[i];
        }
        return out;
    }

    // Atomic.h doXor: same shape as doOr with XOR.
    private static byte[] bitXor(byte[] existing, byte[] param) {
        byte[] out = resized(existing, param.length);
        for (int i = 0; i < out.length; i++) {
            out[i] ^= param[i];
        }
        return out;
    }

    // Atomic.h doAppendIfFits: missing/empty existing returns the operand (checked first, so a
    // missing value with an empty operand becomes the empty value); empty operand returns the
    // existing value; a sum of sizes strictly greater than VALUE_SIZE_LIMIT keeps the existing
    // value; otherwise existing followed by operand.
    private static byte[] appendIfFits(byte[] existing, byte[] param) {
        if (existing == null || existing.length == 0) {
            return param.clone();
        }
        if (param.length == 0) {
            return existing.clone();
        }
        if ((long) existing.length + param.length > VALUE_SIZE_LIMIT) {
            return existing.clone();
        }
        byte[] out = Arrays.copyOf(existing, existing.length + param.length);
        System.arraycopy(param, 0, out, existing.length, param.length);
        return out;
    }

    // Atomic.h doMax: empty/missing existing or empty operand returns the operand. Otherwise the
    // operand wins if any of its bytes above the existing value's length is non-zero; then bytes
    // are compared from the most significant common index down, the operand winning ties; when the
    // existing value wins, it is returned truncated / zero-extended to the operand's length.
    private static byte[] max(byte[] existing, byte[] param) {
        if (param.length == 0 || existing == null || existing.length == 0) {
            return param.clone();
        }
        byte[] current = resized(existing, param.length);
        return compareLittleEndian(current, param) > 0 ? current : param.clone();
    }

    // Atomic.h doMinV2 (what opcode 13 becomes at API >= 510): missing existing returns the operand.
    // Otherwise doMin: empty operand returns it; else the existing value (truncated / zero-extended
    // to the operand's length, so a present empty value reads as zero) wins only when strictly
    // smaller as a little-endian unsigned integer, the operand winning ties.
    private static byte[] min(byte[] existing, byte[] param) {
        if (param.length == 0 || existing == null) {
            return param.clone();
        }
        byte[] current = resized(existing, param.length);
        return compareLittleEndian(current, param) < 0 ? current : param.clone();
    }

    // Atomic.h doByteMin: missing existing returns the operand; otherwise the existing value when it
    // is StringRef-less-than the operand (memcmp on the common prefix, then shorter first), else the
    // operand. Lengths are kept as they are.
    private static byte[] byteMin(byte[] existing, byte[] param) {
        if (existing == null) {
            return param.clone();
        }
        return Arrays.compareUnsigned(existing, param) < 0 ? existing.clone() : param.clone();
    }

    // Atomic.h doByteMax: mirror image of doByteMin.
    private static byte[] byteMax(byte[] existing, byte[] param) {
        if (existing == null) {
            return param.clone();
        }
        return Arrays.compareUnsigned(existing, param) > 0 ? existing.clone() : param.clone();
    }

    // Atomic.h doCompareAndClear: a missing value or one equal to the operand becomes cleared (an
    // absent Optional); anything else is left as it is. The storage server's expandMutation turns
    // the equal case into a single-key ClearRange and drops the mutation otherwise.
    private static byte[] compareAndClear(byte[] existing, byte[] param) {
        if (existing == null || Arrays.equals(existing, param)) {
            return null;
        }
        return existing.clone();
    }

    /**
     * Returns a fresh array of {@code length} bytes holding {@code value}'s low-order bytes: the
     * value truncated when longer, zero-extended at the high (end) side when shorter, all zeros
     * when null. This is how every integer-style atomic op aligns the existing value with the
     * parameter.
     */
    private static byte[] resized(byte[] value, int length) {
        return value == null ? new byte[length] : Arrays.copyOf(value, length);
    }

    /**
     * Compares two equal-length byte arrays as little-endian unsigned integers: the last byte is
     * the most significant.
     */
    private static int compareLittleEndian(byte[] a, byte[] b) {
        for (int i = a.length - 1; i >= 0; i--) {
            int cmp = Integer.compare(Byte.toUnsignedInt(a[i]), Byte.toUnsignedInt(b[i]));
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }
}
