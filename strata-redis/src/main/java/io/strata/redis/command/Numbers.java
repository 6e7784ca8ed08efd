package io.strata.redis.command;

import io.strata.redis.protocol.RedisException;

import java.nio.charset.StandardCharsets;

/** Numbers in arguments and values, parsed with Redis's strictness ({@code string2ll}, {@code string2ld}). */
public final class Numbers {
    private Numbers() {
    }

    /** A canonical decimal {@code long}: no spaces, no plus sign, no leading zeros; else throws {@code error}. */
    public static long parseLong(byte[] b, String error) {
        long v = parseLongOrMin(b);
        if (v == Long.MIN_VALUE && !(b.length == 20 && new String(b, StandardCharsets.US_ASCII).equals("-9223372036854775808"))) {
            throw new RedisException(error);
        }
        return v;
    }

    /** Whether {@code b} is a canonical decimal {@code long}, as Redis's {@code string2ll}. */
    public static boolean isLong(byte[] b) {
        return parseLongOrMin(b) != Long.MIN_VALUE || (b.length == 20 && new String(b, StandardCharsets.US_ASCII).equals("-9223372036854775808"));
    }

    private static long parseLongOrMin(byte[] b) {
        int n = b.length;
        if (n == 0 || n > 20) {
            return Long.MIN_VALUE;
        }
        if (n == 1 && b[0] == '0') {
            return 0;
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '-') {
            negative = true;
            i = 1;
            if (n == 1) {
                return Long.MIN_VALUE;
            }
        }
        if (b[i] < '1' || b[i] > '9') {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            if (v > (Long.MAX_VALUE - d) / 10) {
                return Long.MIN_VALUE;
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /**
     * A double as Redis's {@code getDoubleFromObject}: {@code strtod} syntax with
     * {@code inf}/{@code -inf}/{@code +inf} (any case) and no leading or trailing space; NaN is
     * refused.
     */
    public static double parseDouble(byte[] b, String error) {
        String s = new String(b, StandardCharsets.US_ASCII);
        if (s.isEmpty() || Character.isWhitespace(s.charAt(0)) || Character.isWhitespace(s.charAt(s.length() - 1))) {
            throw new RedisException(error);
        }
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        switch (lower) {
            case "inf": case "+inf": case "infinity": case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf": case "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        // Java's parser also takes type suffixes (1d, 1f) that strtod does not.
        if (lower.contains("nan") || lower.endsWith("d") || lower.endsWith("f")) {
            throw new RedisException(error);
        }
        try {
            double d = Double.parseDouble(s);
            if (Double.isNaN(d)) {
                throw new RedisException(error);
            }
            return d;
        } catch (NumberFormatException e) {
            throw new RedisException(error);
        }
    }
}
