package io.strata.redis.commands;

import io.strata.redis.protocol.RedisException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * SORT's ordering and LIMIT, with no database in sight: given the elements and, with BY,
 * each element's weight, it answers the elements of the result in order. Follows Redis's
 * {@code sortCommandGeneric} and {@code sortCompare}: numbers compare as doubles with the
 * element's bytes breaking ties; ALPHA compares bytes (Redis uses {@code strcoll}, which is
 * byte order in the C locale Redis runs in); a missing BY weight counts as 0, or as smaller
 * than any string with ALPHA; DESC reverses the comparison.
 */
final class SortEngine {
    private SortEngine() {
    }

    /** LIMIT clamped to the elements as Redis clamps it: inclusive {@code [start, end]}, empty when end &lt; start. */
    record Window(int start, int end) {
        static Window of(long offset, long count, int size) {
            long start = Math.min(Math.max(offset, 0), size);
            long n = Math.min(Math.max(count, -1), size);
            long end = n < 0 ? size - 1 : start + n - 1;
            if (start >= size) {
                start = size - 1;
                end = size - 2;
            }
            if (end >= size) {
                end = size - 1;
            }
            return new Window((int) start, (int) end);
        }

        int length() {
            return Math.max(0, end - start + 1);
        }
    }

    /**
     * The result's elements in order.
     *
     * @param elements the elements, in the source's order
     * @param keepsOrder whether the source is ordered (list, sorted set), so that an unsorted
     *     DESC walks it backwards; a set has no order to reverse
     * @param weights each element's BY weight (null entries for missing keys), or null when
     *     the elements are their own weights
     */
    static List<byte[]> order(List<byte[]> elements, boolean keepsOrder, SortOptions options, List<byte[]> weights) {
        Window w = Window.of(options.limitOffset(), options.limitCount(), elements.size());
        if (options.dontSort()) {
            List<byte[]> base = elements;
            if (keepsOrder && options.desc()) {
                base = new ArrayList<>(elements);
                Collections.reverse(base);
            }
            return slice(base, w);
        }
        int n = elements.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Comparator<Integer> cmp;
        if (options.alpha()) {
            cmp = weights == null
                    ? (a, b) -> Arrays.compareUnsigned(elements.get(a), elements.get(b))
                    : (a, b) -> compareNullsFirst(weights.get(a), weights.get(b));
        } else {
            double[] scores = new double[n];
            for (int i = 0; i < n; i++) {
                byte[] weight = weights == null ? elements.get(i) : weights.get(i);
                if (weight == null) {
                    continue;
                }
                Double d = SortScore.parse(weight);
                if (d == null) {
                    throw new RedisException("ERR One or more scores can't be converted into double");
                }
                scores[i] = d;
            }
            cmp = (a, b) -> {
                double x = scores[a];
                double y = scores[b];
                if (x > y) {
                    return 1;
                }
                if (x < y) {
                    return -1;
                }
                return Arrays.compareUnsigned(elements.get(a), elements.get(b));
            };
        }
        Arrays.sort(order, options.desc() ? cmp.reversed() : cmp);
        List<byte[]> sorted = new ArrayList<>(n);
        for (Integer i : order) {
            sorted.add(elements.get(i));
        }
        return slice(sorted, w);
    }

    private static int compareNullsFirst(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == b ? 0 : a == null ? -1 : 1;
        }
        return Arrays.compareUnsigned(a, b);
    }

    private static List<byte[]> slice(List<byte[]> list, Window w) {
        return w.length() == 0 ? List.of() : list.subList(w.start(), w.end() + 1);
    }
}
