package io.strata.layers.interning;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

/**
 * The keys of a {@link StringInterner} under its subspace {@code S}: a one-element tuple
 * tag, then raw bytes (not tuple-encoded, so that building a key is one array copy).
 * <pre>
 * S.pack((0)) ++ string               -&gt; ID, 8 bytes big-endian    (forward)
 *                                        or stamp: version 8, batch order 2, index 2 (versionstamp IDs)
 * S.pack((1)) ++ firstId (8 bytes BE) -&gt; reverse block             (reverse)
 * S.pack((2)) ...                     -&gt; the allocator's own keys   (counters)
 * S.pack((3)) ++ stamp (12 bytes)     -&gt; string                    (reverse, versionstamp IDs)
 * </pre>
 * The tags encode as {@code 14}, {@code 15 01}, {@code 15 02}, {@code 15 03}; no key of one
 * part is a key of another, and all lie in {@code S.range()}. IDs are appended big-endian,
 * so reverse keys sort in the unsigned order of their IDs.
 *
 * <h2>Reverse blocks</h2>
 * A reverse key names the first ID of a run of consecutive IDs allocated in one transaction,
 * {@code firstId, firstId + 1, ..., firstId + n - 1}; its value holds their strings in that
 * order, each entry:
 * <pre>
 * byte 0 ..  : the string's length in bytes, an unsigned LEB128 varint: 7 bits a byte,
 *              least significant group first, the high bit (0x80) set on every byte but the
 *              last (0 -&gt; 00; 127 -&gt; 7F; 128 -&gt; 80 01; 9999 -&gt; 8F 4E); 1 to 3 bytes here,
 *              since a string has fewer than 10,000 bytes
 * then       : the string's bytes, as many as the length says (none for the empty string)
 * </pre>
 * Entries follow one another with nothing between them and nothing after the last: the
 * entry count {@code n} is implied by the value's end. Example: IDs 7, 8, 9 naming
 * {@code "ab"}, {@code ""}, {@code "c"} are the key {@code S.pack((1)) ++ 00 00 00 00 00 00 00 07}
 * and the value {@code 02 61 62 00 01 63}.
 *
 * <p>A block value never exceeds FoundationDB's 100,000-byte limit
 * ({@link ReverseBlocks#VALUE_SIZE_LIMIT}): a longer run is cut into several blocks, each
 * keyed by its own first ID. One entry always fits (a string is shorter than 10,000 bytes).
 * The ID of index {@code i} in a block is {@code firstId + i}; a run never wraps past
 * {@code 0xFFFF_FFFF_FFFF_FFFF}. To find ID {@code id}, read the block with the greatest
 * first ID {@code <= id} (a reverse range read of limit 1 ending just after
 * {@code reverse(id)}); {@code id} is named there if {@code id - firstId} is below the
 * block's entry count, and by no string otherwise.
 *
 * <p>This is a format change: subspaces written with the earlier layout of one reverse key
 * per ID ({@code S.pack((1)) ++ ID -> string}) cannot be read with it; Strata is pre-1.0 and
 * does not migrate them.
 */
final class InternerLayout {
    /** FoundationDB's largest key. */
    static final int KEY_SIZE_LIMIT = 10_000;
    static final int STAMP_LENGTH = 12;

    final Subspace subspace;
    final byte[] forwardPrefix;
    final byte[] reversePrefix;
    final Subspace counters;
    final byte[] stampedPrefix;

    InternerLayout(Subspace subspace) {
        this.subspace = subspace;
        this.forwardPrefix = subspace.pack(Tuple.from(0));
        this.reversePrefix = subspace.pack(Tuple.from(1));
        this.counters = subspace.get(2);
        this.stampedPrefix = subspace.pack(Tuple.from(3));
    }

    int maxStringBytes() {
        return KEY_SIZE_LIMIT - forwardPrefix.length;
    }

    byte[] forward(byte[] string) {
        return Bytes.concat(forwardPrefix, string);
    }

    /** The key of the reverse block whose first ID is {@code id}. */
    byte[] reverse(long id) {
        return Bytes.concat(reversePrefix, id);
    }

    /** {@code reverse(id) ++ 0x00}: the first key after {@code reverse(id)}, the end of a read that includes it. */
    byte[] afterReverse(long id) {
        byte[] k = new byte[reversePrefix.length + 9];
        System.arraycopy(reversePrefix, 0, k, 0, reversePrefix.length);
        Bytes.putBigEndian(k, reversePrefix.length, id);
        return k;
    }

    /** The first ID of a reverse block key. */
    long firstIdOf(byte[] reverseKey) {
        if (reverseKey.length != reversePrefix.length + 8) {
            throw new IllegalStateException("reverse key of " + reverseKey.length + " bytes, not the prefix and an 8-byte ID");
        }
        return Bytes.bigEndian(reverseKey, reversePrefix.length);
    }

    /** The reverse key of a stamp: version (8), batch order (2), index (2). */
    byte[] stampedReverse(long version, int order, int index) {
        byte[] k = new byte[stampedPrefix.length + STAMP_LENGTH];
        System.arraycopy(stampedPrefix, 0, k, 0, stampedPrefix.length);
        int at = stampedPrefix.length;
        Bytes.putBigEndian(k, at, version);
        k[at + 8] = (byte) (order >>> 8);
        k[at + 9] = (byte) order;
        k[at + 10] = (byte) (index >>> 8);
        k[at + 11] = (byte) index;
        return k;
    }

    /**
     * The SET_VERSIONSTAMPED_KEY parameter for the reverse key of index {@code index}: the key
     * with a 10-byte placeholder, then the 4-byte little-endian offset of the placeholder (API
     * 520 and later).
     */
    byte[] stampedReverseTemplate(int index) {
        byte[] key = stampedReverse(0, 0, index);
        return withOffset(key, stampedPrefix.length);
    }

    /** The SET_VERSIONSTAMPED_VALUE parameter of a forward value: placeholder, index, offset 0. */
    static byte[] stampedValueTemplate(int index) {
        byte[] v = new byte[STAMP_LENGTH];
        v[10] = (byte) (index >>> 8);
        v[11] = (byte) index;
        return withOffset(v, 0);
    }

    private static byte[] withOffset(byte[] bytes, int offset) {
        byte[] out = new byte[bytes.length + 4];
        System.arraycopy(bytes, 0, out, 0, bytes.length);
        out[bytes.length] = (byte) offset;
        out[bytes.length + 1] = (byte) (offset >>> 8);
        out[bytes.length + 2] = (byte) (offset >>> 16);
        out[bytes.length + 3] = (byte) (offset >>> 24);
        return out;
    }
}
