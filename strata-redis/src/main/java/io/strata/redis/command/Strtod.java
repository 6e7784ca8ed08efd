package io.strata.redis.command;

/**
 * C's {@code strtod} in the C locale (as glibc implements it), over bytes: the number Redis
 * reads from an argument, where the reading stopped, and whether {@code errno} would be
 * {@code ERANGE}.
 *
 * <p>Redis reads doubles two ways, and both are built on this:
 * <ul>
 *   <li>{@link #string2d} is Redis's {@code string2d} (behind {@code getDoubleFromObject}): a
 *       score for ZADD, ZINCRBY and WEIGHTS, GEO coordinates. The whole argument must be the
 *       number: not empty, no leading space, nothing after it (a NUL byte included), no
 *       overflow to infinity or underflow to zero, not NaN.</li>
 *   <li>{@link #rangeBound} is what {@code zslParseRange} does with a score interval's end:
 *       {@code strtod}, then only "stopped at the end or at a NUL byte" and "not NaN". So
 *       {@code ""} is 0, leading white space is skipped, {@code "1e400"} is infinity and
 *       {@code "\0001"} is 0.</li>
 * </ul>
 *
 * <p>The grammar ({@code strtod(3)}): optional white space ({@code isspace}: space, \t, \n,
 * \v, \f, \r); an optional sign; then {@code inf} or {@code infinity} (any case), {@code nan}
 * optionally followed by {@code (chars)}, a hexadecimal number ({@code 0x}, hex digits with an
 * optional point, an optional binary exponent {@code p[sign]digits}), or a decimal number
 * (digits with an optional point, an optional {@code e[sign]digits}). An exponent marker not
 * followed by digits is not read; {@code "0x"} with no hex digit reads as {@code "0"}. When
 * nothing can be read the value is 0 and the end is where the text began (before any white
 * space). Java's {@link Double#parseDouble} differs: it trims, takes {@code 1d}/{@code 1f},
 * needs {@code p} in hex, and refuses {@code inf}.
 *
 * <p>The value is correctly rounded (round half to even), as glibc's is; this class does the
 * scanning and hands a normalised literal to {@link Double#parseDouble} for the rounding.
 * {@link Result#erange} is set only for the two cases Redis looks at: a finite number that
 * rounds to ±infinity, and a number with a nonzero digit that rounds to zero (glibc also
 * sets {@code ERANGE} for inexact subnormal results, which Redis accepts).
 */
public final class Strtod {
    /** Exponents beyond this (decimal or binary) over- or underflow whatever the digits; keeps the literal short. */
    private static final long EXPONENT_CLAMP = 1_000_000_000L;

    private Strtod() {
    }

    /** What {@code strtod} returns: the value, the index it stopped at, and whether {@code errno} is {@code ERANGE}. */
    public record Result(double value, int end, boolean erange) {
    }

    /** {@code strtod} on {@code b} from index {@code from}. */
    public static Result parse(byte[] b, int from) {
        int n = b.length;
        int i = from;
        while (i < n && isSpace(b[i])) {
            i++;
        }
        boolean negative = false;
        if (i < n && (b[i] == '+' || b[i] == '-')) {
            negative = b[i] == '-';
            i++;
        }
        if (matchesIgnoreCase(b, i, "inf")) {
            int end = matchesIgnoreCase(b, i, "infinity") ? i + 8 : i + 3;
            return new Result(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY, end, false);
        }
        if (matchesIgnoreCase(b, i, "nan")) {
            int end = i + 3;
            if (end < n && b[end] == '(') {
                int j = end + 1;
                while (j < n && (isAlnum(b[j]) || b[j] == '_')) {
                    j++;
                }
                if (j < n && b[j] == ')') {
                    end = j + 1;
                }
            }
            return new Result(Double.NaN, end, false);
        }
        if (i + 1 < n && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            Result hex = hex(b, i + 2, negative);
            if (hex != null) {
                return hex;
            }
            // "0x" with no hex digit after it: strtod reads the "0" alone.
        }
        return decimal(b, i, negative, from);
    }

    /**
     * Redis's {@code string2d}: the whole of {@code b} as a double, or null where Redis replies
     * an error (empty, leading space, anything unread, ERANGE to ±infinity or zero, NaN).
     */
    public static Double string2d(byte[] b) {
        if (b.length == 0 || isSpace(b[0])) {
            return null;
        }
        Result r = parse(b, 0);
        if (r.end() != b.length || Double.isNaN(r.value())) {
            return null;
        }
        if (r.erange() && (Double.isInfinite(r.value()) || r.value() == 0)) {
            return null;
        }
        return r.value();
    }

    /**
     * One end of a score interval as {@code zslParseRange} reads it: {@code (} marks it
     * exclusive, then {@code strtod} must stop at the end or at a NUL byte and not read NaN;
     * overflow is ±infinity. Null where Redis replies "min or max is not a float".
     */
    public static Double rangeBound(byte[] b, int from) {
        Result r = parse(b, from);
        if ((r.end() < b.length && b[r.end()] != 0) || Double.isNaN(r.value())) {
            return null;
        }
        return r.value();
    }

    private static Result decimal(byte[] b, int i, boolean negative, int from) {
        int n = b.length;
        StringBuilder digits = new StringBuilder();
        int intStart = i;
        while (i < n && isDigit(b[i])) {
            digits.append((char) b[i++]);
        }
        int intDigits = i - intStart;
        int fracDigits = 0;
        if (i < n && b[i] == '.') {
            int j = i + 1;
            while (j < n && isDigit(b[j])) {
                digits.append((char) b[j++]);
            }
            fracDigits = j - i - 1;
            if (intDigits + fracDigits > 0) {
                i = j;
            }
        }
        if (intDigits + fracDigits == 0) {
            return new Result(0, from, false);
        }
        Exponent e = exponent(b, i, 'e');
        long exponent = e.value();
        i = e.end();
        String literal = (negative ? "-" : "") + (digits.length() == 0 ? "0" : digits) + "e" + (exponent - fracDigits);
        double value = Double.parseDouble(literal);
        return new Result(value, i, outOfRange(value, digits));
    }

    /** The hex number after {@code 0x} at {@code i}, or null if no hex digit follows. */
    private static Result hex(byte[] b, int i, boolean negative) {
        int n = b.length;
        StringBuilder intPart = new StringBuilder();
        StringBuilder fracPart = new StringBuilder();
        while (i < n && isHexDigit(b[i])) {
            intPart.append((char) b[i++]);
        }
        if (i < n && b[i] == '.') {
            int j = i + 1;
            while (j < n && isHexDigit(b[j])) {
                fracPart.append((char) b[j++]);
            }
            if (intPart.length() + fracPart.length() > 0) {
                i = j;
            }
        }
        if (intPart.length() + fracPart.length() == 0) {
            return null;
        }
        Exponent e = exponent(b, i, 'p');
        long exponent = e.value();
        i = e.end();
        String literal = (negative ? "-" : "") + "0x" + (intPart.length() == 0 ? "0" : intPart) + "."
                + (fracPart.length() == 0 ? "0" : fracPart) + "p" + exponent;
        double value = Double.parseDouble(literal);
        return new Result(value, i, outOfRange(value, intPart.append(fracPart)));
    }

    /** An exponent's value and where it ends. */
    private record Exponent(long value, int end) {
    }

    /**
     * The exponent at {@code i}: {@code marker} ({@code e} or {@code p}, either case), an
     * optional sign, digits (clamped to {@link #EXPONENT_CLAMP}). Not there, or a marker with
     * no digit after it: value 0, ending at {@code i} (the marker is not read).
     */
    private static Exponent exponent(byte[] b, int i, char marker) {
        int n = b.length;
        if (i >= n || (b[i] | 0x20) != marker) {
            return new Exponent(0, i);
        }
        int j = i + 1;
        boolean negative = false;
        if (j < n && (b[j] == '+' || b[j] == '-')) {
            negative = b[j] == '-';
            j++;
        }
        if (j >= n || !isDigit(b[j])) {
            return new Exponent(0, i);
        }
        long value = 0;
        while (j < n && isDigit(b[j])) {
            value = Math.min(EXPONENT_CLAMP, value * 10 + (b[j] - '0'));
            j++;
        }
        return new Exponent(negative ? -value : value, j);
    }

    /** ERANGE as Redis sees it: infinite from finite digits, or zero from a nonzero digit. */
    private static boolean outOfRange(double value, CharSequence digits) {
        if (Double.isInfinite(value)) {
            return true;
        }
        if (value != 0) {
            return false;
        }
        for (int k = 0; k < digits.length(); k++) {
            if (digits.charAt(k) != '0') {
                return true;
            }
        }
        return false;
    }

    /** C's {@code isspace} in the C locale. */
    static boolean isSpace(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(byte c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isAlnum(byte c) {
        return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean matchesIgnoreCase(byte[] b, int at, String word) {
        if (at + word.length() > b.length) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            int c = b[at + k];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
