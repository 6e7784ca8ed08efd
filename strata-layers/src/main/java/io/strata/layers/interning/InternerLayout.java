package io.strata.layers.interning;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

/**
 * The keys of a {@link StringInterner} under its subspace {@code S}: a one-element tuple
 * tag, then raw bytes (not tuple-encoded, so that building a key is one array copy).
 * <pre>
 * S.pack((0)) ++ string          -&gt; ID, 8 bytes big-endian         (forward)
 *                                   or stamp: version 8, batch order 2, index 2 (versionstamp IDs)
 * S.pack((1)) ++ ID (8 bytes BE) -&gt; string                         (reverse)
 * S.pack((2)) ...                -&gt; the allocator's own keys        (counters)
 * S.pack((3)) ++ stamp (12 bytes)-&gt; string                         (reverse, versionstamp IDs)
 * </pre>
 * The tags encode as {@code 14}, {@code 15 01}, {@code 15 02}, {@code 15 03}; no key of one
 * part is a key of another, and all lie in {@code S.range()}.
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

    byte[] reverse(long id) {
        return Bytes.concat(reversePrefix, id);
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
