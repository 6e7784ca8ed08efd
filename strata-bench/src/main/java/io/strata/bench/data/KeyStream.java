package io.strata.bench.data;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A precomputed, repeating sequence of key indexes drawn from a distribution, so that a
 * benchmark loop pays one array read per key instead of the sampler's cost.
 *
 * <ul>
 *   <li>{@code uniform}: every key equally likely.</li>
 *   <li>{@code zipf}: YCSB's scrambled Zipfian, exponent 0.99 — a few hot keys take most
 *       accesses, and the hot keys are spread over the key space rather than clustered at
 *       its start.</li>
 *   <li>{@code sequential}: 0, 1, 2, … as an append-heavy or bulk-load workload writes.</li>
 * </ul>
 *
 * <p>Not thread-safe: each thread uses its own stream.
 */
public final class KeyStream {
    /** Long enough that the repetition does not make a cache-friendly loop; 4 MB of ints. */
    private static final int LENGTH = 1 << 20;
    /** YCSB's default Zipfian constant. */
    private static final double ZIPF_THETA = 0.99;

    private final int[] indexes;
    private int position;

    private KeyStream(int[] indexes) {
        this.indexes = indexes;
    }

    /** A stream over {@code [0, keyCount)}; {@code distribution} is uniform, zipf or sequential. */
    public static KeyStream of(String distribution, int keyCount, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] out = new int[LENGTH];
        switch (distribution) {
            case "uniform" -> {
                for (int i = 0; i < LENGTH; i++) {
                    out[i] = random.nextInt(keyCount);
                }
            }
            case "zipf" -> {
                double[] cdf = zipfCdf(keyCount);
                int[] scramble = permutation(keyCount, random);
                for (int i = 0; i < LENGTH; i++) {
                    int rank = Arrays.binarySearch(cdf, random.nextDouble());
                    rank = rank >= 0 ? rank : Math.min(-rank - 1, keyCount - 1);
                    out[i] = scramble[rank];
                }
            }
            case "sequential" -> {
                for (int i = 0; i < LENGTH; i++) {
                    out[i] = i % keyCount;
                }
            }
            default -> throw new IllegalArgumentException("unknown distribution: " + distribution
                    + " (uniform, zipf, sequential)");
        }
        return new KeyStream(out);
    }

    public int next() {
        int i = indexes[position];
        position = (position + 1) & (LENGTH - 1);
        return i;
    }

    private static double[] zipfCdf(int n) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int rank = 0; rank < n; rank++) {
            sum += 1.0 / Math.pow(rank + 1, ZIPF_THETA);
            cdf[rank] = sum;
        }
        for (int rank = 0; rank < n; rank++) {
            cdf[rank] /= sum;
        }
        return cdf;
    }

    private static int[] permutation(int n, SplittableRandom random) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
