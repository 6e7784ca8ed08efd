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
     * A double as Redis's {@code getDoubleFromObject} ({@code string2d}): the whole argument
     * read by {@code strtod}, hexadecimal and {@code inf}/{@code infinity} (any case) included;
     * refused when empty, with a leading space, with anything unread (a NUL byte included), on
     * overflow to infinity or underflow to zero, and for NaN. See {@link Strtod}.
     */
    public static double parseDouble(byte[] b, String error) {
        Double d = Strtod.string2d(b);
        if (d == null) {
            throw new RedisException(error);
        }
        return d;
    }
}
