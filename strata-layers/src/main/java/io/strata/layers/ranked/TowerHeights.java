package io.strata.layers.ranked;

/**
 * The height of an element's tower in the skip list: the highest level that holds it. A pure
 * function of the element's bytes, so every transaction computes it without reading, and it is
 * part of the stored format: changing it would leave existing sets inconsistent.
 *
 * <p>{@code height(e) = min(levels - 1, numberOfLeadingZeros(mix(fnv1a64(e))) / fanoutBits)}, so
 * {@code P(height >= k) = 2^(-k * fanoutBits)} for {@code k < levels}. {@code fnv1a64} is 64-bit
 * FNV-1a (offset basis {@code 0xcbf29ce484222325}, prime {@code 0x100000001b3}, one byte at a
 * time, XOR then multiply); {@code mix} is MurmurHash3's 64-bit finalizer, which spreads FNV's
 * weak high bits (keys that differ only in their last byte would otherwise share their height).
 * The empty element is the head of every level and is never asked for its height.
 */
final class TowerHeights {
    private final int fanoutBits;
    private final int maxHeight;

    TowerHeights(int fanoutBits, int levels) {
        this.fanoutBits = fanoutBits;
        this.maxHeight = levels - 1;
    }

    int of(byte[] element) {
        return Math.min(maxHeight, Long.numberOfLeadingZeros(hash(element)) / fanoutBits);
    }

    static long hash(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
