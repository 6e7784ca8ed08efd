package io.strata.redis.commands;

import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Random picks from a set held as a bitmap of ids, by rank: a rank drawn uniformly from
 * {@code [0, size)} names each member with probability exactly {@code 1/size}, so picks are
 * uniform however the ids cluster in containers (unlike Redis, whose picks from a hash table
 * are only close to uniform). Stateless.
 */
final class RandomRanks {
    /** Below this many picks, each is found with {@code select}; above, one walk of the bitmap finds all. */
    private static final int SELECT_AT_MOST = 32;

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

    /** The ids at {@code ranks} (in the bitmap's unsigned order), in the order of {@code ranks}. */
    static long[] idsAt(Roaring64Bitmap bitmap, long[] ranks) {
        long[] ids = new long[ranks.length];
        if (ranks.length <= SELECT_AT_MOST) {
            for (int i = 0; i < ranks.length; i++) {
                ids[i] = bitmap.select(ranks[i]);
            }
            return ids;
        }
        // Sort (rank, position) pairs by rank, then walk the bitmap once.
        Integer[] order = new Integer[ranks.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(ranks[a], ranks[b]));
        LongIterator it = bitmap.getLongIterator();
        long rank = -1;
        long id = 0;
        for (int i : order) {
            while (rank < ranks[i]) {
                id = it.next();
                rank++;
            }
            ids[i] = id;
        }
        return ids;
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
