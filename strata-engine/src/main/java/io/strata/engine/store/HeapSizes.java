package io.strata.engine.store;

/**
 * What the store's objects take on the heap, as {@link VersionedStore#bytes} estimates it for
 * a 64-bit JVM with compressed references (the default below 32 GB of heap): 12-byte object
 * headers, 16-byte array headers, 8-byte alignment. Calibrated against the measured heap
 * growth per pair (docs/benchmarks.md, section 1: 239 bytes for a 16-byte key and a 100-byte
 * value; this estimates 232).
 */
final class HeapSizes {
    /**
     * A {@link VersionChain}: the node fields plus key, hash and head (56), and its slots in
     * the two indexes (~32: the hash index's, and the B+tree leaf's key, chain and window).
     */
    static final long CHAIN = 88;
    /** A {@link VersionNode} (40) and its entry in the {@link PruneQueue} (two references). */
    static final long NODE = 48;

    private HeapSizes() {
    }

    /** A {@code byte[]} of {@code length} bytes: header and bytes, rounded up to 8. */
    static long array(int length) {
        return (16L + length + 7) & ~7L;
    }
}
