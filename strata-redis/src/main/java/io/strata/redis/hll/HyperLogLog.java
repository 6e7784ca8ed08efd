package io.strata.redis.hll;

import io.strata.redis.protocol.RedisException;

import java.nio.charset.StandardCharsets;

/**
 * A HyperLogLog as Redis 7.0 stores it in a string value, read and edited as Redis edits it so
 * that every operation leaves the bytes Redis would leave.
 *
 * <h2>Layout</h2>
 * <pre>
 * "HYLL" | encoding (0 dense, 1 sparse) | 3 unused bytes | cached cardinality (8 bytes, little-endian) | registers
 * </pre>
 * {@link #REGISTERS} registers of six bits, indexed by the low {@link #P} bits of an element's
 * MurmurHash64A; a register keeps the longest run of zeros (plus one) seen in the remaining bits.
 * Dense: the registers packed ({@link #DENSE_SIZE} bytes in all). Sparse: run-length opcodes
 * ({@code SparseOpcodes}); a new HLL is sparse and becomes dense when a register exceeds 32 or an
 * update would make it longer than {@code hll-sparse-max-bytes}. The top bit of the cardinality's
 * last byte marks the cache stale.
 *
 * <p>Errors are Redis's: {@link #NOT_AN_HLL} for a string that is not one (wrong magic, unknown
 * encoding, dense of the wrong length, shorter than the header), {@link #CORRUPTED} when sparse
 * opcodes do not cover the registers exactly (a run past the last register counts as not
 * covering them, as in Redis since the fix for CVE-2025-32023: {@code SparseRegisters}). An
 * operation that fails leaves the value as it was before that operation (PFADD keeps the
 * registers earlier elements raised, as Redis does).
 *
 * <p>Not thread-safe: one instance per command.
 */
public final class HyperLogLog {
    /** Index bits: 2^14 registers. */
    public static final int P = 14;
    public static final int REGISTERS = 1 << P;
    /** Bits per register. */
    public static final int BITS = 6;
    public static final int REGISTER_MAX = (1 << BITS) - 1;
    public static final int HEADER_SIZE = 16;
    /** A dense value's exact length: 12,304 bytes. */
    public static final int DENSE_SIZE = HEADER_SIZE + (REGISTERS * BITS + 7) / 8;
    /** Redis's default {@code hll-sparse-max-bytes}. */
    public static final long DEFAULT_SPARSE_MAX_BYTES = 3000;
    public static final String NOT_AN_HLL = "WRONGTYPE Key is not a valid HyperLogLog string value.";
    public static final String CORRUPTED = "INVALIDOBJ Corrupted HLL object detected";

    static final int DENSE = 0;
    static final int SPARSE = 1;
    private static final int ENCODING_AT = 4;
    private static final int CARDINALITY_AT = 8;
    private static final byte[] MAGIC = "HYLL".getBytes(StandardCharsets.US_ASCII);

    private ValueBuffer value;

    private HyperLogLog(ValueBuffer value) {
        this.value = value;
    }

    /**
     * A new, empty HLL as PFADD and PFMERGE create it: sparse, XZERO opcodes covering every
     * register (one, for 2^14 registers), cached cardinality 0 and valid.
     */
    public static HyperLogLog create() {
        int opcodes = (REGISTERS + SparseOpcodes.XZERO_MAX_LENGTH - 1) / SparseOpcodes.XZERO_MAX_LENGTH;
        ValueBuffer v = new ValueBuffer(HEADER_SIZE + opcodes * 2);
        System.arraycopy(MAGIC, 0, v.bytes, 0, MAGIC.length);
        v.bytes[ENCODING_AT] = SPARSE;
        int at = HEADER_SIZE;
        for (int left = REGISTERS; left > 0; at += 2) {
            int run = Math.min(left, SparseOpcodes.XZERO_MAX_LENGTH);
            SparseOpcodes.xzero(v.bytes, at, run);
            left -= run;
        }
        return new HyperLogLog(v);
    }

    /**
     * The HLL a string value holds (copied: the array is not changed). Fails with
     * {@link #NOT_AN_HLL} unless it has the header, a known encoding and, if dense, the dense
     * length; sparse opcodes are only checked as they are used, as in Redis.
     */
    public static HyperLogLog of(byte[] string) {
        if (string.length < HEADER_SIZE || string[0] != 'H' || string[1] != 'Y' || string[2] != 'L' || string[3] != 'L'
                || (string[ENCODING_AT] & 0xff) > SPARSE
                || (string[ENCODING_AT] == DENSE && string.length != DENSE_SIZE)) {
            throw new RedisException(NOT_AN_HLL);
        }
        return new HyperLogLog(new ValueBuffer(string));
    }

    /** The value's bytes as they now are: the string to store. */
    public byte[] toBytes() {
        return value.toArray();
    }

    public boolean isDense() {
        return value.bytes[ENCODING_AT] == DENSE;
    }

    /**
     * Adds an element: raises the register its hash picks to the hash's zero-run length if that
     * is higher (which may turn a sparse value dense). Whether a register changed; fails with
     * {@link #CORRUPTED} on sparse opcodes that do not reach the register.
     *
     * @param sparseMaxBytes {@code hll-sparse-max-bytes}: the longest sparse value an update may make
     */
    public boolean add(byte[] element, long sparseMaxBytes) {
        long hash = MurmurHash64A.hash(element, MurmurHash64A.REDIS_SEED);
        return raise(registerOf(hash), runLengthOf(hash), sparseMaxBytes);
    }

    /** The register an element with this hash updates: the hash's low {@link #P} bits. */
    static int registerOf(long hash) {
        return (int) (hash & (REGISTERS - 1));
    }

    /**
     * The value an element with this hash offers its register: the position of the lowest 1 bit
     * among the remaining 50 bits, counting from 1; 51 when all are zero.
     */
    static int runLengthOf(long hash) {
        return Long.numberOfTrailingZeros((hash >>> P) | (1L << (64 - P))) + 1;
    }

    /**
     * Raises register {@code index} to {@code count} (1..63) if it is lower; whether it changed.
     * A sparse value is edited in place, or made dense first when the count does not fit its
     * opcodes or the edit would pass {@code sparseMaxBytes}. Fails with {@link #CORRUPTED} as
     * {@link #add} does. The cached cardinality is marked stale only by a sparse edit; callers
     * that change registers call {@link #invalidateCache} (PFADD and PFMERGE do, as in Redis).
     */
    public boolean raise(int index, int count, long sparseMaxBytes) {
        if (isDense()) {
            return DenseRegisters.raise(value.bytes, HEADER_SIZE, index, count);
        }
        int result = SparseUpdate.raise(value, index, count, sparseMaxBytes);
        if (result == SparseUpdate.INVALID) {
            throw new RedisException(CORRUPTED);
        }
        if (result == SparseUpdate.PROMOTE) {
            toDense();
            return DenseRegisters.raise(value.bytes, HEADER_SIZE, index, count);
        }
        return result == SparseUpdate.UPDATED;
    }

    /**
     * Raises every register to the matching entry of {@code union} ({@link #REGISTERS}
     * entries, as {@link #mergeInto} fills them), register by register from the first, as
     * PFMERGE writes its destination; the cache is left to the caller.
     */
    public void raiseAll(byte[] union, long sparseMaxBytes) {
        for (int i = 0; i < REGISTERS; i++) {
            if (union[i] != 0) {
                raise(i, union[i], sparseMaxBytes);
            }
        }
    }

    /**
     * Makes a sparse value dense (header and cached cardinality kept); whether it was sparse.
     * Fails with {@link #CORRUPTED}, changing nothing, when the opcodes do not cover the registers.
     */
    public boolean toDense() {
        if (isDense()) {
            return false;
        }
        ValueBuffer dense = new ValueBuffer(DENSE_SIZE);
        System.arraycopy(value.bytes, 0, dense.bytes, 0, HEADER_SIZE);
        dense.bytes[ENCODING_AT] = DENSE;
        if (!SparseRegisters.expand(value.bytes, HEADER_SIZE, value.length, dense.bytes, HEADER_SIZE)) {
            throw new RedisException(CORRUPTED);
        }
        value = dense;
        return true;
    }

    /** Marks the cached cardinality stale. */
    public void invalidateCache() {
        invalidateCache(value.bytes);
    }

    static void invalidateCache(byte[] b) {
        b[CARDINALITY_AT + 7] |= (byte) 0x80;
    }

    /**
     * The cardinality, as PFCOUNT of one key answers it: the cached one while valid, else
     * estimated from the registers and cached (so the value changes: {@link #toBytes} then
     * gives the string to store). Fails with {@link #CORRUPTED} for sparse opcodes that do not
     * cover the registers exactly.
     *
     * @return the count, and whether the cache was rewritten
     */
    public Cardinality cardinality() {
        byte[] b = value.bytes;
        if ((b[CARDINALITY_AT + 7] & 0x80) == 0) {
            long cached = 0;
            for (int i = 7; i >= 0; i--) {
                cached = (cached << 8) | (b[CARDINALITY_AT + i] & 0xff);
            }
            return new Cardinality(cached, false);
        }
        long count = estimate();
        for (int i = 0; i < 8; i++) {
            b[CARDINALITY_AT + i] = (byte) (count >>> (8 * i));
        }
        return new Cardinality(count, true);
    }

    /** A cardinality and whether finding it rewrote the value's cache. */
    public record Cardinality(long count, boolean cacheUpdated) {
    }

    /** The estimate from the registers, ignoring the cache. Fails as {@link #cardinality} does. */
    public long estimate() {
        int[] histogram = new int[64];
        if (isDense()) {
            DenseRegisters.histogram(value.bytes, HEADER_SIZE, histogram);
        } else if (!SparseRegisters.histogram(value.bytes, HEADER_SIZE, value.length, histogram)) {
            throw new RedisException(CORRUPTED);
        }
        return HllEstimator.estimate(histogram);
    }

    /**
     * Raises each {@code max[i]} ({@link #REGISTERS} entries) to this HLL's register {@code i}
     * where that is higher: the union PFCOUNT and PFMERGE compute. Fails with {@link #CORRUPTED}
     * for sparse opcodes that do not cover the registers exactly.
     */
    public void mergeInto(byte[] max) {
        if (isDense()) {
            DenseRegisters.mergeInto(value.bytes, HEADER_SIZE, max);
        } else if (!SparseRegisters.mergeInto(value.bytes, HEADER_SIZE, value.length, max)) {
            throw new RedisException(CORRUPTED);
        }
    }

    /** The estimate for registers given one a byte (a union from {@link #mergeInto}). */
    public static long estimate(byte[] registers) {
        int[] histogram = new int[64];
        for (byte r : registers) {
            histogram[r]++;
        }
        return HllEstimator.estimate(histogram);
    }

    /** The registers of a dense value (PFDEBUG GETREG makes it dense first). */
    public int[] denseRegisters() {
        if (!isDense()) {
            throw new IllegalStateException("not dense");
        }
        int[] registers = new int[REGISTERS];
        for (int i = 0; i < REGISTERS; i++) {
            registers[i] = DenseRegisters.get(value.bytes, HEADER_SIZE, i);
        }
        return registers;
    }

    /** PFDEBUG DECODE's listing of a sparse value's opcodes, e.g. {@code Z:8436 v:1,1 Z:7947}. */
    public String decodeSparse() {
        if (isDense()) {
            throw new IllegalStateException("not sparse");
        }
        return SparseRegisters.decode(value.bytes, HEADER_SIZE, value.length);
    }
}
