package io.strata.redis.commands;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * SORT's numeric reading of a value, as Redis reads it with C's {@code strtod}: leading white
 * space skipped, the whole rest a number (decimal, hexadecimal, {@code inf} or
 * {@code infinity}); the empty string reads as 0; NaN and numbers out of the double range
 * ({@code ERANGE}) are refused.
 */
final class SortScore {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern HEX = Pattern.compile("[+-]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][+-]?\\d+)?");
    private static final Pattern INFINITE = Pattern.compile("[+-]?(?i:inf|infinity)");

    private SortScore() {
    }

    /** The value as a double, or null when Redis would answer "One or more scores can't be converted into double". */
    static Double parse(byte[] value) {
        if (value.length == 0) {
            return 0.0;
        }
        String s = new String(value, StandardCharsets.ISO_8859_1);
        int i = 0;
        while (i < s.length() && isCSpace(s.charAt(i))) {
            i++;
        }
        String n = s.substring(i);
        if (INFINITE.matcher(n).matches()) {
            return n.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        double d;
        if (DECIMAL.matcher(n).matches()) {
            d = Double.parseDouble(n);
        } else if (HEX.matcher(n).matches()) {
            boolean hasExponent = n.indexOf('p') >= 0 || n.indexOf('P') >= 0;
            d = Double.parseDouble(hasExponent ? n : n + "p0");
        } else {
            return null;
        }
        if (Double.isInfinite(d)) {
            return null;
        }
        if (d == 0.0 && hasNonZeroDigit(n)) {
            return null;
        }
        return d;
    }

    /** Whether the mantissa has a non-zero digit: a zero result then means underflow. */
    private static boolean hasNonZeroDigit(String n) {
        boolean hex = n.indexOf('x') >= 0 || n.indexOf('X') >= 0;
        int from = hex ? Math.max(n.indexOf('x'), n.indexOf('X')) + 1 : 0;
        for (int k = from; k < n.length(); k++) {
            char c = n.charAt(k);
            if ((!hex && (c == 'e' || c == 'E')) || (hex && (c == 'p' || c == 'P'))) {
                return false;
            }
            if ((c >= '1' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))) {
                return true;
            }
        }
        return false;
    }

    /** C's {@code isspace} in the C locale. */
    private static boolean isCSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }
}
