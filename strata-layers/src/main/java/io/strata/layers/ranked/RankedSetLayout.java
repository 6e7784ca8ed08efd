package io.strata.layers.ranked;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;

/**
 * Where a ranked set's keys are and how its values are encoded (the format is in
 * {@link RankedSet}'s class notes): level {@code k}'s keys are {@code subspace.pack((k))}
 * followed by the raw element bytes, and its head is that prefix alone. Level 0's values are
 * empty; the other levels' are counts, 8 bytes little-endian, the operand format of atomic ADD.
 */
final class RankedSetLayout {
    /** FoundationDB's {@code KEY_SIZE_LIMIT} for keys outside the system key space. */
    static final int KEY_SIZE_LIMIT = 10_000;
    static final byte[] EMPTY = new byte[0];
    /** The most levels a ranked set can have: 1 + 64 / fanoutBits with fanoutBits ≥ 1. */
    static final int MAX_LEVELS = 65;

    final Subspace subspace;
    final int levels;
    final int maxElementBytes;
    /**
     * Each level's prefix and end, made on first use: a layout is built for every command that
     * opens a set, and most commands touch two or three of its levels. Filled with release
     * writes and read with acquire reads, so that a layout shared between threads hands out
     * only whole arrays (two threads may both make one; either is right).
     */
    private final byte[][] prefixes;
    private final byte[][] ends;
    private final byte[] raw;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(byte[][].class);

    /**
     * Each level's tuple-encoded number and the key just past it: the level prefixes are the
     * subspace's key followed by these, and a layout is built for every command that opens a
     * set, so the tuple encoding is done once here rather than per level per command. The last
     * byte of an encoded small number is never 0xff, so the prefix's strinc is the subspace key
     * followed by the suffix's.
     */
    private static final byte[][] LEVEL_SUFFIXES = new byte[MAX_LEVELS][];
    private static final byte[][] LEVEL_SUFFIX_ENDS = new byte[MAX_LEVELS][];

    static {
        for (int k = 0; k < MAX_LEVELS; k++) {
            LEVEL_SUFFIXES[k] = Tuple.from(k).pack();
            LEVEL_SUFFIX_ENDS[k] = ByteArrayUtil.strinc(LEVEL_SUFFIXES[k]);
        }
    }

    RankedSetLayout(Subspace subspace, int levels) {
        this.subspace = Objects.requireNonNull(subspace);
        this.levels = levels;
        this.prefixes = new byte[levels][];
        this.ends = new byte[levels][];
        this.raw = subspace.getKey();
        // The longest level prefix, plus one byte so that "element ++ 0x00" (an exclusive range
        // end, a read conflict range end) is still a legal key for the longest element.
        this.maxElementBytes = KEY_SIZE_LIMIT - (raw.length + LEVEL_SUFFIXES[levels - 1].length) - 1;
        if (maxElementBytes < 1) {
            throw new IllegalArgumentException("subspace prefix too long for a ranked set: " + subspace.getKey().length + " bytes");
        }
    }

    /** The key of {@code element} at {@code level}; for the empty element, the level's head. */
    byte[] key(int level, byte[] element) {
        return ByteArrayUtil.join(prefix(level), element);
    }

    /** The first key after {@code element}'s at {@code level}: an exclusive end that includes the element. */
    byte[] keyAfter(int level, byte[] element) {
        byte[] prefix = prefix(level);
        byte[] key = Arrays.copyOf(prefix, prefix.length + element.length + 1);
        System.arraycopy(element, 0, key, prefix.length, element.length);
        return key;
    }

    /** The first key of {@code level}: its head. */
    byte[] levelBegin(int level) {
        return prefix(level);
    }

    /** The end of {@code level}'s keys (exclusive). */
    byte[] levelEnd(int level) {
        byte[] end = (byte[]) SLOT.getAcquire(ends, level);
        if (end == null) {
            end = ByteArrayUtil.join(raw, LEVEL_SUFFIX_ENDS[level]);
            SLOT.setRelease(ends, level, end);
        }
        return end;
    }

    /** Level {@code level}'s prefix: the subspace's key and the level's tuple-encoded number. */
    private byte[] prefix(int level) {
        byte[] prefix = (byte[]) SLOT.getAcquire(prefixes, level);
        if (prefix == null) {
            prefix = ByteArrayUtil.join(raw, LEVEL_SUFFIXES[level]);
            SLOT.setRelease(prefixes, level, prefix);
        }
        return prefix;
    }

    /** The element a key of {@code level} names. */
    byte[] element(int level, byte[] key) {
        return Arrays.copyOfRange(key, raw.length + LEVEL_SUFFIXES[level].length, key.length);
    }

    /** Rejects what cannot be an element (see {@link RankedSet#maxElementBytes()}). */
    byte[] checkElement(byte[] element) {
        Objects.requireNonNull(element, "element");
        if (element.length > maxElementBytes) {
            throw new IllegalArgumentException("element of " + element.length + " bytes exceeds this set's limit of "
                    + maxElementBytes + " bytes");
        }
        return element;
    }

    /** Rejects what cannot bound a range of elements: one byte more than an element is allowed ({@code element ++ 0x00}). */
    byte[] checkBound(byte[] bound) {
        Objects.requireNonNull(bound, "bound");
        if (bound.length > maxElementBytes + 1) {
            throw new IllegalArgumentException("key of " + bound.length + " bytes exceeds this set's limit of "
                    + (maxElementBytes + 1) + " bytes for range bounds");
        }
        return bound;
    }

    static byte[] encodeCount(long count) {
        byte[] bytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (count >>> (8 * i));
        }
        return bytes;
    }

    static long decodeCount(byte[] bytes) {
        long value = 0;
        for (int i = Math.min(bytes.length, Long.BYTES) - 1; i >= 0; i--) {
            value = value << 8 | (bytes[i] & 0xFF);
        }
        return value;
    }
}
