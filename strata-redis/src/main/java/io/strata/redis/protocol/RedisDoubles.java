package io.strata.redis.protocol;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Doubles written as Redis 7.0 writes them in replies ({@code addReplyDouble}: C's
 * {@code "%.17g"}), so that a score or a float reads back bit for bit: {@code 1.5} is
 * {@code "1.5"}, {@code 0.1} is {@code "0.10000000000000001"}, {@code 1e20} is
 * {@code "1e+20"}, infinities are {@code "inf"} and {@code "-inf"}.
 */
public final class RedisDoubles {
    private static final MathContext SEVENTEEN_DIGITS = new MathContext(17, RoundingMode.HALF_EVEN);

    private RedisDoubles() {
    }

    /** C's {@code printf("%.17g", d)}. */
    public static String format(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d) < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(d).round(SEVENTEEN_DIGITS);
        // %g: exponent X of the rounded value; plain notation when -4 <= X < precision.
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 17) {
            BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
            String m = mantissa.toPlainString();
            String sign = exponent < 0 ? "-" : "+";
            int abs = Math.abs(exponent);
            return m + "e" + sign + (abs < 10 ? "0" : "") + abs;
        }
        String plain = rounded.stripTrailingZeros().toPlainString();
        return plain;
    }
}
