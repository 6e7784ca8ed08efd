package io.strata.layers.blob;

/**
 * Chunk arithmetic. Chunk {@code i} of a value with chunk size {@code C} spans bytes
 * {@code [i*C, min((i+1)*C, length))}. A chunk key may be absent, or hold fewer bytes than
 * its span: the bytes not stored are zeros. No chunk ever stores a byte at or past the
 * value's length, so growing a value (padding, truncating upwards) exposes zeros without
 * writing them.
 */
final class Chunks {
    private Chunks() {}

    /** How many chunks a value of {@code length} spans. */
    static long count(long length, int chunkSize) {
        return length == 0 ? 0 : (length - 1) / chunkSize + 1;
    }

    /**
     * Copies the part of chunk {@code index} (its stored bytes {@code stored}) that falls in
     * {@code out}, which holds the value's bytes from offset {@code outOffset}; bytes of
     * {@code out} that no stored byte covers are left as they are (zeros in a fresh array).
     */
    static void copyInto(byte[] out, long outOffset, long index, byte[] stored, int chunkSize) {
        long chunkStart = index * chunkSize;
        long from = Math.max(chunkStart, outOffset);
        long to = Math.min(chunkStart + stored.length, outOffset + out.length);
        if (from < to) {
            System.arraycopy(stored, (int) (from - chunkStart), out, (int) (from - outOffset), (int) (to - from));
        }
    }

    /**
     * A chunk's new stored bytes: {@code old} (null: nothing stored) with {@code n} bytes of
     * {@code src} from {@code srcFrom} written at {@code at} within the chunk; zeros fill any
     * gap between the old end and {@code at}.
     */
    static byte[] overlay(byte[] old, int at, byte[] src, int srcFrom, int n) {
        int oldLength = old == null ? 0 : old.length;
        byte[] out = new byte[Math.max(oldLength, at + n)];
        if (old != null) {
            System.arraycopy(old, 0, out, 0, oldLength);
        }
        System.arraycopy(src, srcFrom, out, at, n);
        return out;
    }
}
