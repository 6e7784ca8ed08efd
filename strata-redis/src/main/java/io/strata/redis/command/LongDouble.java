package io.strata.redis.command;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * A number with the precision of Redis's {@code long double} on x86-64: the x87 80-bit
 * extended format, a 64-bit significand and exponents down to 2<sup>-16445</sup> (subnormal)
 * and up to just below 2<sup>16384</sup>. INCRBYFLOAT and HINCRBYFLOAT parse, add and print in
 * that format, and their replies show it: {@code 1000.1} prints as
 * {@code 1000.09999999999999998}, so a decimal or a {@code double} computation would answer
 * differently from Redis.
 *
 * <p>A finite value is kept as its exact decimal expansion (every binary fraction has one), so
 * rounding to the format and printing with {@code "%.17Lf"} are both exact, with
 * round-half-to-even as glibc does in the default rounding mode. Immutable.
 */
public final class LongDouble {
    /** Redis's {@code MAX_LONG_DOUBLE_CHARS}: longer text is not a number to {@code string2ld}. */
    static final int MAX_CHARS = 5 * 1024;
    private static final int SIGNIFICAND_BITS = 64;
    /** The exponent of the smallest normal number. */
    private static final int MIN_NORMAL_EXPONENT = -16382;
    /** Every finite value is below 2^this. */
    private static final int OVERFLOW_EXPONENT = 16384;
    private static final int PRINTED_DECIMALS = 17;
    private static final BigInteger FIVE = BigInteger.valueOf(5);
    private static final double LOG2_10 = Math.log(10) / Math.log(2);

    public static final LongDouble ZERO = new LongDouble(BigDecimal.ZERO, 0);

    /** The exact value when finite; null for an infinity. */
    private final BigDecimal exact;
    /** +1 or -1 for an infinity, 0 when finite. */
    private final int infinity;

    private LongDouble(BigDecimal exact, int infinity) {
        this.exact = exact;
        this.infinity = infinity;
    }

    /**
     * The text as Redis's {@code string2ld} reads it ({@code strtold} in the C locale, the
     * whole text, no leading space): decimal or hexadecimal, {@code inf}/{@code infinity} with
     * a sign; null for anything else, NaN, a value too large for the format, or a non-zero
     * value so small it rounds to zero.
     */
    public static LongDouble parse(byte[] text) {
        if (text.length == 0 || text.length >= MAX_CHARS) {
            return null;
        }
        String s = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        String body = s.substring(i);
        String lower = body.toLowerCase(java.util.Locale.ROOT);
        if (lower.equals("inf") || lower.equals("infinity")) {
            return new LongDouble(null, negative ? -1 : 1);
        }
        BigDecimal magnitude = lower.startsWith("0x") ? parseHex(lower.substring(2)) : parseDecimal(lower);
        if (magnitude == null) {
            return null;
        }
        LongDouble v = round(negative ? magnitude.negate() : magnitude);
        boolean underflowed = v.isZero() && magnitude.signum() != 0;
        return v.isInfinite() || underflowed ? null : v;
    }

    public static LongDouble of(long value) {
        return round(BigDecimal.valueOf(value));
    }

    public boolean isInfinite() {
        return infinity != 0;
    }

    private boolean isZero() {
        return infinity == 0 && exact.signum() == 0;
    }

    /**
     * The sum rounded to the format, as the x87 unit adds; may overflow to an infinity. Null
     * for NaN (infinities of both signs).
     */
    public LongDouble plus(LongDouble other) {
        if (isInfinite() || other.isInfinite()) {
            if (isInfinite() && other.isInfinite() && infinity != other.infinity) {
                return null;
            }
            return new LongDouble(null, isInfinite() ? infinity : other.infinity);
        }
        return round(exact.add(other.exact));
    }

    /** The product with {@code k} rounded to the format, as the x87 unit multiplies; may overflow to an infinity. */
    public LongDouble times(long k) {
        if (isInfinite()) {
            return k == 0 ? null : new LongDouble(null, k > 0 ? infinity : -infinity);
        }
        return round(exact.multiply(BigDecimal.valueOf(k)));
    }

    /**
     * C's {@code (long long) ceill(x)} on x86-64: the ceiling when it fits in a {@code long},
     * else {@code Long.MIN_VALUE} (the "integer indefinite" value the conversion gives for an
     * infinity or a value out of range).
     */
    public long ceilToLong() {
        if (isInfinite()) {
            return Long.MIN_VALUE;
        }
        BigInteger c = exact.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
        return c.bitLength() < 64 ? c.longValue() : Long.MIN_VALUE;
    }

    /**
     * Redis's {@code ld2string(..., LD_STR_HUMAN)}: {@code "%.17Lf"} with the trailing zeros
     * and a bare point removed, {@code "-0"} written {@code "0"}; infinities as {@code inf}.
     */
    public String toHumanString() {
        if (isInfinite()) {
            return infinity > 0 ? "inf" : "-inf";
        }
        String s = exact.setScale(PRINTED_DECIMALS, RoundingMode.HALF_EVEN).toPlainString();
        if (exact.signum() < 0 && !s.startsWith("-")) {
            s = "-" + s; // BigDecimal has no -0; printf writes "-0.000..." for a small negative
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        String out = s.substring(0, end);
        return out.equals("-0") ? "0" : out;
    }

    @Override
    public String toString() {
        return toHumanString();
    }

    /** Rounds an exact value to the nearest value of the format, ties to even. */
    static LongDouble round(BigDecimal x) {
        if (x.signum() == 0) {
            return ZERO;
        }
        BigDecimal a = x.abs();
        int e = floorLog2(a);
        if (e >= OVERFLOW_EXPONENT) {
            return new LongDouble(null, x.signum());
        }
        int quantum = Math.max(e - (SIGNIFICAND_BITS - 1), MIN_NORMAL_EXPONENT - (SIGNIFICAND_BITS - 1));
        BigInteger significand = timesPowerOfTwo(a, -quantum).setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
        if (significand.signum() == 0) {
            return ZERO;
        }
        if (significand.bitLength() - 1 + quantum >= OVERFLOW_EXPONENT) {
            return new LongDouble(null, x.signum());
        }
        BigDecimal r = timesPowerOfTwo(new BigDecimal(significand), quantum);
        return new LongDouble(x.signum() < 0 ? r.negate() : r, 0);
    }

    /** The e with 2^e &lt;= a &lt; 2^(e+1), for a &gt; 0. */
    private static int floorLog2(BigDecimal a) {
        BigInteger unscaled = a.unscaledValue();
        int e = (int) Math.floor(unscaled.bitLength() - 1 - a.scale() * LOG2_10);
        while (powerOfTwo(e).compareTo(a) > 0) {
            e--;
        }
        while (powerOfTwo(e + 1).compareTo(a) <= 0) {
            e++;
        }
        return e;
    }

    private static BigDecimal powerOfTwo(int e) {
        return timesPowerOfTwo(BigDecimal.ONE, e);
    }

    /** a * 2^k, exactly (2^-n = 5^n / 10^n). */
    private static BigDecimal timesPowerOfTwo(BigDecimal a, int k) {
        if (k >= 0) {
            return a.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(k)));
        }
        return a.multiply(new BigDecimal(FIVE.pow(-k))).movePointLeft(-k);
    }

    /** {@code digits [. digits] [e [sign] digits]} with at least one digit; the exact value or null. */
    private static BigDecimal parseDecimal(String s) {
        StringBuilder digits = new StringBuilder();
        int i = 0;
        int fractionDigits = 0;
        boolean point = false;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digits.append(c);
                fractionDigits += point ? 1 : 0;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (digits.length() == 0) {
            return null;
        }
        long exponent = 0;
        if (i < s.length()) {
            if (s.charAt(i) != 'e') {
                return null;
            }
            Long parsed = exponent(s.substring(i + 1));
            if (parsed == null) {
                return null;
            }
            exponent = parsed;
        }
        BigInteger unscaled = new BigInteger(digits.toString());
        if (unscaled.signum() == 0) {
            return BigDecimal.ZERO;
        }
        long power = exponent - fractionDigits;
        long adjusted = power + unscaled.toString().length() - 1;
        if (adjusted > 5000) {
            return infiniteMarker();
        }
        if (adjusted < -5000) {
            return tinyMarker();
        }
        return new BigDecimal(unscaled, (int) -power);
    }

    /** {@code hexdigits [. hexdigits] [p [sign] digits]} after {@code 0x}; the exact value or null. */
    private static BigDecimal parseHex(String s) {
        BigInteger mantissa = BigInteger.ZERO;
        int i = 0;
        int fractionDigits = 0;
        int count = 0;
        boolean point = false;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            int d = Character.digit(c, 16);
            if (d >= 0) {
                mantissa = mantissa.shiftLeft(4).add(BigInteger.valueOf(d));
                count++;
                fractionDigits += point ? 1 : 0;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        if (count == 0) {
            return null; // strtold would read just the "0" and stop at the x
        }
        long exponent = 0;
        if (i < s.length()) {
            if (s.charAt(i) != 'p') {
                return null;
            }
            Long parsed = exponent(s.substring(i + 1));
            if (parsed == null) {
                return null;
            }
            exponent = parsed;
        }
        if (mantissa.signum() == 0) {
            return BigDecimal.ZERO;
        }
        long binary = exponent - 4L * fractionDigits;
        long top = binary + mantissa.bitLength() - 1;
        if (top > OVERFLOW_EXPONENT + 1) {
            return infiniteMarker();
        }
        if (top < MIN_NORMAL_EXPONENT - SIGNIFICAND_BITS - 2) {
            return tinyMarker();
        }
        return timesPowerOfTwo(new BigDecimal(mantissa), (int) binary);
    }

    /** {@code [sign] digits}, saturated far beyond any exponent that matters; null if malformed. */
    private static Long exponent(String s) {
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (i == s.length()) {
            return null;
        }
        long v = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            v = Math.min(v * 10 + (c - '0'), 1_000_000_000L);
        }
        return negative ? -v : v;
    }

    /** A value certain to overflow the format (rounds to an infinity). */
    private static BigDecimal infiniteMarker() {
        return BigDecimal.ONE.scaleByPowerOfTen(5000);
    }

    /** A non-zero value certain to round to zero. */
    private static BigDecimal tinyMarker() {
        return BigDecimal.ONE.scaleByPowerOfTen(-5000);
    }
}
