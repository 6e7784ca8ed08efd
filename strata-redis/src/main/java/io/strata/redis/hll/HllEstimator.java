package io.strata.redis.hll;

/**
 * The cardinality estimate Redis 7.0 derives from a register histogram: Otmar Ertl's
 * improved raw estimator ("New cardinality estimation algorithms for HyperLogLog sketches",
 * arXiv:1702.01284), which needs no bias tables or range corrections. Evaluated in the same
 * order of double operations as Redis, so equal histograms give equal answers. Stateless.
 */
public final class HllEstimator {
    /** 0.5 / ln 2: the limit of HyperLogLog's alpha constant for many registers. */
    private static final double ALPHA_INF = 0.721347520444481703680;

    private HllEstimator() {
    }

    /**
     * The estimate for {@code histogram}, where {@code histogram[v]} is how many of the
     * {@link HyperLogLog#REGISTERS} registers hold {@code v} (64 entries; values above
     * {@code Q + 1} = 51, which no hash can produce, are ignored as Redis ignores them). The
     * result is Redis's unsigned 64-bit answer as a long; where Redis's rounding overflows
     * (an all-high histogram only a forged dense string can have) it is
     * {@link Long#MIN_VALUE}, the value x86's {@code llroundl} gives there.
     */
    public static long estimate(int[] histogram) {
        double m = HyperLogLog.REGISTERS;
        int q = 64 - HyperLogLog.P;
        double z = m * tau((m - histogram[q + 1]) / m);
        for (int j = q; j >= 1; --j) {
            z += histogram[j];
            z *= 0.5;
        }
        z += m * sigma(histogram[0] / m);
        double e = ALPHA_INF * m * m / z;
        // Math.round is floor(e + 0.5), which for the non-negative e here is llroundl's rounding.
        return e < 0x1p63 ? Math.round(e) : Long.MIN_VALUE;
    }

    /** Ertl's sigma(x) = x + sum over k >= 1 of x^(2^k) * 2^(k-1), summed until it stops changing. */
    static double sigma(double x) {
        if (x == 1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double y = 1;
        double z = x;
        double previous;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (previous != z);
        return z;
    }

    /** Ertl's tau(x), summed until it stops changing. */
    static double tau(double x) {
        if (x == 0.0 || x == 1.0) {
            return 0.0;
        }
        double y = 1.0;
        double z = 1 - x;
        double previous;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            // (1 - x) squared by one multiplication: what a C compiler makes of pow(1 - x, 2).
            double d = 1 - x;
            z -= d * d * y;
        } while (previous != z);
        return z / 3;
    }
}
