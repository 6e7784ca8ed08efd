package io.strata.bench.sets;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * How a benchmark set's members are spread over the 64-bit range, which decides how many
 * containers (keys) it has and of which kind.
 */
public enum SetShape {
    /**
     * {@code n} distinct members drawn at random below {@code 4n}: a quarter of each 2^16
     * block, so about {@code n / 16384} bitmap containers of 8 KiB (62 for a million). What
     * interned ids allocated from one sequence look like.
     */
    DENSE("dense"),
    /**
     * {@code n} distinct members drawn at random from all of 2^64: almost surely one member
     * per container, so {@code n} keys of 3-byte values. What ids hashed or allocated from
     * many random sequences look like, and the worst case for a roaring layout.
     */
    SPARSE("sparse");

    private final String label;

    SetShape(String label) {
        this.label = label;
    }

    /** The name used in operation names ({@code and-dense}) and on the command line. */
    public String label() {
        return label;
    }

    /** The shape called {@code label}. */
    public static SetShape of(String label) {
        for (SetShape s : values()) {
            if (s.label.equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown shape: " + label + " " + Arrays.toString(labels()));
    }

    public static String[] labels() {
        return Arrays.stream(values()).map(SetShape::label).toArray(String[]::new);
    }

    /** {@code n} distinct members of this shape, in random order, a pure function of {@code seed}. */
    public long[] members(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Set<Long> seen = new HashSet<>(n * 2);
        long[] members = new long[n];
        int count = 0;
        while (count < n) {
            long m = this == DENSE ? random.nextLong(4L * n) : random.nextLong();
            if (seen.add(m)) {
                members[count++] = m;
            }
        }
        return members;
    }
}
