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
    private RedisDoubles() {
    }

    /** C's {@code printf("%.17g", d)}. */
    public static String format(double d) {
        return format(d, 17);
    }

    /**
     * C's {@code printf("%.<precision>g", d)} as glibc prints it: {@code precision} significant
     * digits, the exact value rounded half to even, trailing zeros dropped, nan and inf in
     * lower case (Lua's {@code tostring} uses 14, cjson its configured precision).
     */
    public static String format(double d, int precision) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return (1 / d) < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(d).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        // %g: exponent X of the rounded value; plain notation when -4 <= X < precision.
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
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
