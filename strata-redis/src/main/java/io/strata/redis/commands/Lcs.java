package io.strata.redis.commands;

import java.util.ArrayList;
import java.util.List;

/**
 * The longest common subsequence of two byte strings by the classic dynamic programming
 * table, walked back from the end as Redis walks it, so that the string and the matched
 * ranges (LCS ... IDX) are the ones Redis reports.
 */
final class Lcs {
    /** One matched range: positions in a and in b (inclusive), and its length. */
    record Match(int aStart, int aEnd, int bStart, int bEnd) {
        int length() {
            return aEnd - aStart + 1;
        }
    }

    /** The subsequence, its length and the contiguous matches from the last to the first. */
    record Result(byte[] sequence, int length, List<Match> matches) {
    }

    private Lcs() {
    }

    /** Only the length, in two rows of memory. */
    static int length(byte[] a, byte[] b) {
        int[] previous = new int[b.length + 1];
        int[] current = new int[b.length + 1];
        for (int i = 1; i <= a.length; i++) {
            for (int j = 1; j <= b.length; j++) {
                current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length];
    }

    /** The full result; the table takes {@code (a.length + 1) * (b.length + 1)} ints. */
    static Result compute(byte[] a, byte[] b) {
        int alen = a.length;
        int blen = b.length;
        int[] table = new int[(alen + 1) * (blen + 1)];
        int w = blen + 1;
        for (int i = 1; i <= alen; i++) {
            for (int j = 1; j <= blen; j++) {
                table[i * w + j] = a[i - 1] == b[j - 1] ? table[(i - 1) * w + j - 1] + 1
                        : Math.max(table[(i - 1) * w + j], table[i * w + j - 1]);
            }
        }
        int length = table[alen * w + blen];
        byte[] sequence = new byte[length];
        List<Match> matches = new ArrayList<>();
        int idx = length;
        int i = alen;
        int j = blen;
        // The range being grown backwards; aStart == alen means none yet.
        int aStart = alen;
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        while (i > 0 && j > 0) {
            boolean emit = false;
            if (a[i - 1] == b[j - 1]) {
                sequence[--idx] = a[i - 1];
                if (aStart == alen) {
                    aStart = i - 1;
                    aEnd = i - 1;
                    bStart = j - 1;
                    bEnd = j - 1;
                } else if (aStart == i && bStart == j) {
                    aStart--;
                    bStart--;
                } else {
                    emit = true;
                }
                if (aStart == 0 || bStart == 0) {
                    emit = true;
                }
                i--;
                j--;
            } else {
                if (table[(i - 1) * w + j] > table[i * w + j - 1]) {
                    i--;
                } else {
                    j--;
                }
                if (aStart != alen) {
                    emit = true;
                }
            }
            if (emit) {
                matches.add(new Match(aStart, aEnd, bStart, bEnd));
                aStart = alen;
            }
        }
        return new Result(sequence, length, matches);
    }
}
