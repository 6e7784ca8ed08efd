package io.strata.redis.commands;

import io.strata.redis.command.Strtod;
import io.strata.redis.protocol.RedisException;

import java.util.Arrays;

/**
 * Score and lexicographic interval arguments of the sorted-set commands, and the element
 * bounds (in the ranked set's byte order) they select.
 */
final class ZRangeSpec {
    private ZRangeSpec() {
    }

    /** A score interval: {@code min}/{@code max} with {@code (} for exclusive, {@code -inf}/{@code +inf}. */
    record Scores(double min, boolean minExclusive, double max, boolean maxExclusive) {
        /** The first element at or after the interval's start. */
        byte[] begin() {
            byte[] p = ZSetObject.scorePrefix(min);
            return minExclusive ? after(p) : p;
        }

        /** The first element past the interval's end (null: no end). */
        byte[] end() {
            if (max == Double.POSITIVE_INFINITY && !maxExclusive) {
                return null;
            }
            byte[] p = ZSetObject.scorePrefix(max);
            return maxExclusive ? p : after(p);
        }

        /** Whether no score can satisfy it (Redis answers empty without looking). */
        boolean empty() {
            return min > max || (min == max && (minExclusive || maxExclusive));
        }

        boolean contains(double s) {
            return (minExclusive ? s > min : s >= min) && (maxExclusive ? s < max : s <= max);
        }
    }

    static Scores scores(byte[] min, byte[] max) {
        return new Scores(score(min), exclusive(min), score(max), exclusive(max));
    }

    private static boolean exclusive(byte[] b) {
        return b.length > 0 && b[0] == '(';
    }

    /** One end as {@code zslParseRange} reads it (see {@link Strtod#rangeBound}): "" is 0, "(" is exclusive 0. */
    private static double score(byte[] b) {
        Double d = Strtod.rangeBound(b, exclusive(b) ? 1 : 0);
        if (d == null) {
            throw new RedisException("ERR min or max is not a float");
        }
        return d;
    }

    /** A lexicographic interval: {@code [x} inclusive, {@code (x} exclusive, {@code -} and {@code +} the ends. */
    record Lex(byte[] min, boolean minExclusive, boolean minInfinite, byte[] max, boolean maxExclusive, boolean maxInfinite,
               boolean maxIsMinusInfinity, boolean minIsPlusInfinity) {
        boolean empty() {
            if (minIsPlusInfinity || maxIsMinusInfinity) {
                return true;
            }
            if (minInfinite || maxInfinite) {
                return false;
            }
            int c = Arrays.compareUnsigned(min, max);
            return c > 0 || (c == 0 && (minExclusive || maxExclusive));
        }

        boolean contains(byte[] member) {
            if (empty()) {
                return false;
            }
            if (!minInfinite) {
                int c = Arrays.compareUnsigned(member, min);
                if (c < 0 || (c == 0 && minExclusive)) {
                    return false;
                }
            }
            if (!maxInfinite) {
                int c = Arrays.compareUnsigned(member, max);
                return c < 0 || (c == 0 && !maxExclusive);
            }
            return true;
        }

        /** Element bounds within the members of score {@code score}. */
        byte[] begin(double score) {
            byte[] p = ZSetObject.scorePrefix(score);
            if (minInfinite) {
                return p;
            }
            byte[] e = ZSetObject.element(score, min);
            // Just past this one member, not past the members it is a prefix of.
            return minExclusive ? Arrays.copyOf(e, e.length + 1) : e;
        }

        /** The end bound within the members of score {@code score} (exclusive). */
        byte[] end(double score) {
            byte[] p = ZSetObject.scorePrefix(score);
            if (maxInfinite) {
                return after(p);
            }
            byte[] e = ZSetObject.element(score, max);
            return maxExclusive ? e : Arrays.copyOf(e, e.length + 1);
        }
    }

    static Lex lex(byte[] min, byte[] max) {
        LexItem a = lexItem(min);
        LexItem b = lexItem(max);
        return new Lex(a.value, a.exclusive, a.infinite, b.value, b.exclusive, b.infinite, b.minusInfinity, a.plusInfinity);
    }

    private record LexItem(byte[] value, boolean exclusive, boolean infinite, boolean minusInfinity, boolean plusInfinity) {
    }

    private static LexItem lexItem(byte[] b) {
        if (b.length == 1 && b[0] == '-') {
            return new LexItem(null, false, true, true, false);
        }
        if (b.length == 1 && b[0] == '+') {
            return new LexItem(null, false, true, false, true);
        }
        if (b.length > 0 && (b[0] == '(' || b[0] == '[')) {
            return new LexItem(Arrays.copyOfRange(b, 1, b.length), b[0] == '(', false, false, false);
        }
        throw new RedisException("ERR min or max not valid string range item");
    }

    /** The first byte string after {@code prefix} and every string that starts with it. */
    static byte[] after(byte[] prefix) {
        int n = prefix.length;
        byte[] r = Arrays.copyOf(prefix, n);
        while (n > 0 && r[n - 1] == (byte) 0xff) {
            n--;
        }
        if (n == 0) {
            // Every byte 0xff: nothing orders after all its extensions but the end.
            return Arrays.copyOf(prefix, prefix.length + 1);
        }
        r = Arrays.copyOf(r, n);
        r[n - 1]++;
        return r;
    }
}
