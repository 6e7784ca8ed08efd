package io.strata.engine.mutation;

import com.apple.foundationdb.FDBException;
import java.util.Arrays;
import java.util.Objects;

/**
 * Byte-level rules for FoundationDB's SET_VERSIONSTAMPED_KEY and SET_VERSIONSTAMPED_VALUE.
 *
 * <p>Why this exists: a versionstamp is the commit version of the transaction (8 bytes) followed by
 * the transaction's position within its commit batch (2 bytes). Neither is known until the commit
 * is sequenced, so the client only ships the key or value with a 10-byte placeholder and a trailing
 * 4-byte little-endian offset saying where the placeholder is. The engine's commit pipeline, never
 * the client, then strips the offset and writes the real versionstamp in place, via
 * {@link #substitute}.
 *
 * <p>Ground truth: FoundationDB 7.3, {@code fdbclient/include/fdbclient/Atomic.h}
 * ({@code parseVersionstampOffset}, {@code placeVersionstamp}, {@code transformVersionstampKey},
 * {@code transformVersionstampMutation}, {@code getVersionstampKeyRange}) and the validation in
 * {@code ReadYourWritesTransaction::atomicOp} ({@code fdbclient/ReadYourWrites.actor.cpp}). The
 * 4-byte offset suffix is the API version 520+ format, which is what API version 730 uses.
 */
public final class Versionstamps {

    /** Length of a transaction versionstamp: 8-byte commit version + 2-byte batch order. */
    public static final int VERSIONSTAMP_LENGTH = 10;

    /** Length of the little-endian offset suffix carried by a versionstamped key or value. */
    public static final int OFFSET_LENGTH = 4;

    /** FoundationDB error code {@code client_invalid_operation}. */
    public static final int CLIENT_INVALID_OPERATION = 2000;

    /**
     * FoundationDB's message for {@code client_invalid_operation}, from
     * {@code flow/include/flow/error_definitions.h}; this is what fdb-java puts in the
     * {@link FDBException} it raises for that code.
     */
    public static final String CLIENT_INVALID_OPERATION_MESSAGE = "Invalid API call";

    private Versionstamps() {}

    /**
     * Reads and validates the versionstamp offset carried by a versionstamped key or value.
     *
     * <p>The last 4 bytes are read as a little-endian signed 32-bit integer {@code pos}. The input
     * is rejected when it is shorter than 4 bytes, when {@code pos < 0}, or when
     * {@code pos + 10 > length - 4} (the 10-byte placeholder must lie entirely before the suffix).
     * This is the check FoundationDB makes when the op is issued: in
     * {@code ReadYourWritesTransaction::atomicOp} for SET_VERSIONSTAMPED_VALUE and in
     * {@code getVersionstampKeyRange} (called from the same method) for SET_VERSIONSTAMPED_KEY; both
     * throw {@code client_invalid_operation} (2000, "Invalid API call"). The sum is computed without
     * overflow here, where the C++ uses 32-bit arithmetic.
     *
     * @param keyOrValueWithOffset the key or value as passed to the versionstamp op, offset suffix
     *     included
     * @return the offset of the 10-byte placeholder, in {@code [0, length - 14]}
     * @throws FDBException with code 2000 and message "Invalid API call" if the array is too short
     *     or the offset is out of bounds
     * @throws NullPointerException if the argument is null
     */
    public static int offsetOf(byte[] keyOrValueWithOffset) {
        Objects.requireNonNull(keyOrValueWithOffset, "keyOrValueWithOffset");
        int length = keyOrValueWithOffset.length;
        if (length < OFFSET_LENGTH) {
            throw invalidOperation();
        }
        int pos = (keyOrValueWithOffset[length - 4] & 0xff)
                | (keyOrValueWithOffset[length - 3] & 0xff) << 8
                | (keyOrValueWithOffset[length - 2] & 0xff) << 16
                | (keyOrValueWithOffset[length - 1] & 0xff) << 24;
        if (pos < 0 || (long) pos + VERSIONSTAMP_LENGTH > length - OFFSET_LENGTH) {
            throw invalidOperation();
        }
        return pos;
    }

    /**
     * Produces the key or value that is actually written: the input without its 4-byte offset
     * suffix, with the 10 bytes at the offset replaced by {@code versionstamp10}. Every other byte is
     * copied unchanged; whatever the client put in the 10 placeholder bytes is overwritten.
     *
     * <p>Mirrors {@code transformVersionstampKey} / {@code transformVersionstampMutation} in
     * {@code Atomic.h}. The commit proxy there silently skips the substitution of a value whose
     * offset is bad, but such a value can never reach it because the client already rejected it;
     * this method validates the same way as {@link #offsetOf} instead.
     *
     * @param keyOrValueWithOffset the key or value with its trailing offset; not modified
     * @param versionstamp10 exactly 10 bytes, normally from {@link #versionstamp(long, int)}
     * @return a new array of length {@code keyOrValueWithOffset.length - 4}
     * @throws FDBException with code 2000 if the offset is invalid (see {@link #offsetOf})
     * @throws IllegalArgumentException if {@code versionstamp10} is not 10 bytes long
     * @throws NullPointerException if either argument is null
     */
    public static byte[] substitute(byte[] keyOrValueWithOffset, byte[] versionstamp10) {
        Objects.requireNonNull(versionstamp10, "versionstamp10");
        if (versionstamp10.length != VERSIONSTAMP_LENGTH) {
            throw new IllegalArgumentException(
                    "a versionstamp is " + VERSIONSTAMP_LENGTH + " bytes, got " + versionstamp10.length);
        }
        int pos = offsetOf(keyOrValueWithOffset);
        byte[] out = Arrays.copyOf(keyOrValueWithOffset, keyOrValueWithOffset.length - OFFSET_LENGTH);
        System.arraycopy(versionstamp10, 0, out, pos, VERSIONSTAMP_LENGTH);
        return out;
    }

    /**
     * Builds a transaction versionstamp: the commit version as 8 bytes big-endian, then the
     * transaction's order within its commit batch as 2 bytes big-endian ({@code placeVersionstamp}
     * in {@code Atomic.h}). Big-endian makes versionstamps sort, as byte strings, in commit order.
     *
     * @param commitVersion the commit version of the batch (FoundationDB {@code Version}, an int64)
     * @param batchOrder the transaction's index within the batch, an unsigned 16-bit number
     * @return a new 10-byte array
     * @throws IllegalArgumentException if {@code batchOrder} is outside {@code [0, 65535]}
     */
    public static byte[] versionstamp(long commitVersion, int batchOrder) {
        if (batchOrder < 0 || batchOrder > 0xFFFF) {
            throw new IllegalArgumentException("batch order must fit in 16 unsigned bits: " + batchOrder);
        }
        byte[] out = new byte[VERSIONSTAMP_LENGTH];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (commitVersion >>> (56 - 8 * i));
        }
        out[8] = (byte) (batchOrder >>> 8);
        out[9] = (byte) batchOrder;
        return out;
    }

    private static FDBException invalidOperation() {
        return new FDBException(CLIENT_INVALID_OPERATION_MESSAGE, CLIENT_INVALID_OPERATION);
    }
}
