package io.strata.redis.scripting;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Numbers as Lua 5.1 writes them ({@code %.14g}: {@code 0.0003}, {@code 1e+20}), where luaj
 * writes Java's float text ({@code 3.0E-4}); used by {@code tostring}, {@code table.concat}
 * and cjson.
 */
final class LuaNumbers {
    private LuaNumbers() {
    }

    static String format(double d) {
        return format(d, 14);
    }

    /** C's {@code %.<precision>g}; nan and inf as glibc prints them. */
    static String format(double d, int precision) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal b = new BigDecimal(d).round(new MathContext(precision)).stripTrailingZeros();
        int exponent = b.precision() - b.scale() - 1;
        if (exponent < -4 || exponent >= precision) {
            String digits = b.unscaledValue().abs().toString();
            String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
            return (b.signum() < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return b.toPlainString();
    }
}
