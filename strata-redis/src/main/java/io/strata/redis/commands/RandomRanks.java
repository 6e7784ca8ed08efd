package io.strata.redis.commands;

import java.util.HashSet;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Random ranks for picks from a set ({@code RoaringSet.select} turns them into ids): a rank
 * drawn uniformly from {@code [0, size)} names each member with probability exactly {@code 1/size}, so picks are
 * uniform however the ids cluster in containers (unlike Redis, whose picks from a hash table
 * are only close to uniform). Stateless.
 */
final class RandomRanks {
    private RandomRanks() {
    }

    /** {@code count} ranks of {@code [0, size)}, with repetition, in random order. */
    static long[] withRepetition(RandomGenerator random, long size, int count) {
        long[] ranks = new long[count];
        for (int i = 0; i < count; i++) {
            ranks[i] = random.nextLong(size);
        }
        return ranks;
    }

    /**
     * {@code count} distinct ranks of {@code [0, size)}, {@code count < size}, every subset of
     * that size equally likely, in random order. Floyd's sampling draws {@code count} ranks;
     * for more than half the set it draws the ranks left out instead, so that it never
     * draws more than half.
     */
    static long[] distinct(RandomGenerator random, long size, int count) {
        long[] ranks;
        if (count <= size / 2) {
            ranks = toArray(floyd(random, size, count));
        } else {
            Set<Long> left = floyd(random, size, (int) (size - count));
            ranks = new long[count];
            int n = 0;
            for (long r = 0; r < size; r++) {
                if (!left.contains(r)) {
                    ranks[n++] = r;
                }
            }
        }
        shuffle(random, ranks);
        return ranks;
    }

    /** A uniformly random subset of {@code count} elements of {@code [0, size)} (Robert Floyd's algorithm). */
    private static Set<Long> floyd(RandomGenerator random, long size, int count) {
        Set<Long> chosen = new HashSet<>(count * 2);
        for (long j = size - count; j < size; j++) {
            long t = random.nextLong(j + 1);
            chosen.add(chosen.contains(t) ? j : t);
        }
        return chosen;
    }

    private static long[] toArray(Set<Long> values) {
        long[] out = new long[values.size()];
        int n = 0;
        for (long v : values) {
            out[n++] = v;
        }
        return out;
    }

    private static void shuffle(RandomGenerator random, long[] a) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
