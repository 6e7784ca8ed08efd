package io.strata.bench.data;

/** Bit mixing for the benchmarks' generated keys and values. */
public final class Mix {
    private Mix() {
    }

    /** MurmurHash3's 64-bit finaliser: a bijection, so distinct inputs give distinct outputs. */
    public static long murmur64(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
