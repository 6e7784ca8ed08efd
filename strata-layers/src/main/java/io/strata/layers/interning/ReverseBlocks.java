package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * Reverse blocks: the strings of a run of consecutive IDs, stored as one value keyed by the
 * run's first ID. The byte format is written in {@link InternerLayout}'s Javadoc; this class
 * cuts a transaction's fresh IDs into blocks, encodes them and finds one entry in a block.
 *
 * <p>Why blocks: the interner's throughput is bound by keys written per string, and a batch
 * from a sequence allocator is one run of consecutive IDs, so a batch of {@code n} new
 * strings writes {@code n + 1} keys (plus the counter) instead of {@code 2n}.
 */
final class ReverseBlocks {
    /** FoundationDB's largest value: no block may exceed it. */
    static final int VALUE_SIZE_LIMIT = 100_000;

    private ReverseBlocks() {}

    /**
     * Writes the reverse blocks of {@code strings[k]} named by {@code ids[k]} (the
     * allocator's order): one block per maximal run of consecutive IDs, split so that no
     * value exceeds {@link #VALUE_SIZE_LIMIT}. The ID after {@code 0xFFFF_FFFF_FFFF_FFFF}
     * wraps to 0, which is not its successor, so a run never wraps.
     */
    static void write(Transaction tr, InternerLayout layout, long[] ids, List<byte[]> strings) {
        int start = 0;
        int size = 0;
        for (int k = 0; k < ids.length; k++) {
            int entry = entrySize(strings.get(k).length);
            boolean continues = k > start && ids[k - 1] != -1L && ids[k] == ids[k - 1] + 1
                    && size + entry <= VALUE_SIZE_LIMIT;
            if (k > start && !continues) {
                tr.set(layout.reverse(ids[start]), encode(strings, start, k, size));
                start = k;
                size = 0;
            }
            size += entry;
        }
        if (ids.length > 0) {
            tr.set(layout.reverse(ids[start]), encode(strings, start, ids.length, size));
        }
    }

    /** The encoded size of one entry: its length as a varint, then its bytes. */
    static int entrySize(int length) {
        return varintSize(length) + length;
    }

    /** The block of {@code strings[from, to)}, whose encoding takes {@code size} bytes. */
    static byte[] encode(List<byte[]> strings, int from, int to, int size) {
        byte[] out = new byte[size];
        int at = 0;
        for (int k = from; k < to; k++) {
            byte[] s = strings.get(k);
            at = putVarint(out, at, s.length);
            System.arraycopy(s, 0, out, at, s.length);
            at += s.length;
        }
        return out;
    }

    /**
     * Entry {@code index} (unsigned) of {@code block}, or null when the block has no more than
     * {@code index} entries (the ID lies in a gap after the block).
     *
     * @throws IllegalStateException when the block is malformed
     */
    static byte[] entry(byte[] block, long index) {
        int at = 0;
        long k = 0;
        while (at < block.length) {
            long header = readVarint(block, at);
            int length = (int) header;
            at = (int) (header >>> 32);
            if (length > block.length - at) {
                throw malformed(block);
            }
            if (k == index) {
                byte[] out = new byte[length];
                System.arraycopy(block, at, out, 0, length);
                return out;
            }
            at += length;
            k++;
        }
        return null;
    }

    /** All entries of {@code block}, in ID order. */
    static List<byte[]> entries(byte[] block) {
        List<byte[]> out = new ArrayList<>();
        int at = 0;
        while (at < block.length) {
            long header = readVarint(block, at);
            int length = (int) header;
            at = (int) (header >>> 32);
            if (length > block.length - at) {
                throw malformed(block);
            }
            byte[] e = new byte[length];
            System.arraycopy(block, at, e, 0, length);
            out.add(e);
            at += length;
        }
        return out;
    }

    static int varintSize(int value) {
        int n = 1;
        while ((value >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    private static int putVarint(byte[] out, int at, int value) {
        while ((value & ~0x7F) != 0) {
            out[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out[at++] = (byte) value;
        return at;
    }

    /**
     * The unsigned LEB128 varint at {@code at}: the value in the low 32 bits, the offset after
     * it in the high 32. A length needs at most 3 bytes here (below 2^21); more is malformed.
     */
    private static long readVarint(byte[] b, int at) {
        int value = 0;
        for (int shift = 0; shift < 21; shift += 7) {
            if (at >= b.length) {
                throw malformed(b);
            }
            int x = b[at++] & 0xFF;
            value |= (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return ((long) at << 32) | value;
            }
        }
        throw malformed(b);
    }

    private static IllegalStateException malformed(byte[] block) {
        return new IllegalStateException("malformed reverse block of " + block.length
                + " bytes: was this subspace written by another interner layout?");
    }
}
