package io.strata.redis.rdb;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A sorted-set score written as text (old ZSET payloads, and the scores inside zset
 * listpacks and ziplists, which Redis writes with {@code %.17g}: {@code "1.5"}, {@code "inf"},
 * {@code "-inf"}). Redis reads them with {@code strtod}; text that is no number at all is a
 * {@link RdbFormatException} here rather than a silent 0.
 */
final class ScoreText {
    private ScoreText() {
    }

    static double parse(byte[] text) {
        String s = new String(text, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "inf": case "+inf": case "infinity": case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf": case "-infinity":
                return Double.NEGATIVE_INFINITY;
            case "nan": case "-nan": case "+nan":
                return Double.NaN;
            default:
                break;
        }
        // Java's parser also takes type suffixes (1d, 1f) and hex floats that strtod spells otherwise.
        if (s.isEmpty() || s.endsWith("d") || s.endsWith("f") || s.contains("n")) {
            throw new RdbFormatException("bad score text");
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new RdbFormatException("bad score text");
        }
    }
}
