package io.strata.cli.shell;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Just enough JSON for the status document: a reader into plain Java values and the writer of
 * fdbcli's {@code status json}, which is json_spirit's {@code pretty_print}.
 *
 * <p>Values: {@link Map} (keys in byte order of their UTF-8, as json_spirit's {@code mObject}
 * is a {@code std::map}, so {@code status json} prints keys sorted), {@link List},
 * {@link String}, {@link Boolean}, {@link Long} (or {@link BigInteger} beyond a long) for
 * numbers written without fraction or exponent, {@link Double} for the others, and
 * {@link #NULL}.
 *
 * <p>The writer's layout is json_spirit's: four spaces a level, {@code "key" : value}, an
 * empty object or array still on two lines; doubles as C's {@code %.17g}; a string's bytes
 * beyond printable ASCII (UTF-8 included, byte by byte) as <code>&#92;u00XX</code>.
 */
final class Json {
    /** JSON's null. */
    enum Null { NULL }

    static final Null NULL = Null.NULL;

    /** Byte order of the UTF-8 encodings, as {@code std::string} compares. */
    static final Comparator<String> KEY_ORDER = (a, b) ->
            Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /**
     * Parses one JSON value.
     *
     * @throws IllegalArgumentException naming the offset of the first thing it cannot read
     */
    static Object parse(String text) {
        Json p = new Json(text);
        p.blanks();
        Object value = p.value();
        p.blanks();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the value");
        }
        return value;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new TreeMap<>(KEY_ORDER);
        elements('}', () -> {
            if (peek() != '"') {
                throw error("expected a key");
            }
            String key = string();
            blanks();
            expect(':');
            blanks();
            map.put(key, value());
        });
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        elements(']', () -> list.add(value()));
        return list;
    }

    /**
     * The comma-separated elements of an object or array, from its opening bracket to
     * {@code close}: none, or each read by {@code element} with the blanks around it skipped.
     */
    private void elements(char close, Runnable element) {
        pos++;
        blanks();
        if (peek() == close) {
            pos++;
            return;
        }
        while (true) {
            blanks();
            element.run();
            blanks();
            if (peek() == ',') {
                pos++;
            } else {
                expect(close);
                return;
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("unterminated escape");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("expected " + word);
        }
        pos += word.length();
        return value;
    }

    private Object number() {
        int start = pos;
        boolean real = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '.' || c == 'e' || c == 'E') {
                real = true;
            } else if (!(c == '-' || c == '+' || (c >= '0' && c <= '9'))) {
                break;
            }
            pos++;
        }
        String n = text.substring(start, pos);
        if (n.isEmpty()) {
            throw error("unexpected character '" + text.charAt(start) + "'");
        }
        try {
            if (real) {
                return Double.parseDouble(n);
            }
            BigInteger big = new BigInteger(n);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        } catch (NumberFormatException e) {
            throw error("bad number " + n);
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void blanks() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
    }

    // ---- writing --------------------------------------------------------------------------

    /** {@code value} as json_spirit's {@code write_string(value, pretty_print)} writes it. */
    static String pretty(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object value, int level) {
        if (value instanceof Map<?, ?> map) {
            composite(sb, map.entrySet().iterator(), level, '{', '}');
        } else if (value instanceof List<?> list) {
            composite(sb, list.iterator(), level, '[', ']');
        } else if (value instanceof String s) {
            string(sb, s);
        } else if (value instanceof Double d) {
            sb.append(formatDouble(d));
        } else if (value == NULL) {
            sb.append("null");
        } else {
            sb.append(value); // Boolean, Long, BigInteger
        }
    }

    private static void composite(StringBuilder sb, Iterator<?> items, int level, char open, char close) {
        sb.append(open).append('\n');
        while (items.hasNext()) {
            Object item = items.next();
            indent(sb, level + 1);
            if (item instanceof Map.Entry<?, ?> member) {
                string(sb, (String) member.getKey());
                sb.append(" : ");
                write(sb, member.getValue(), level + 1);
            } else {
                write(sb, item, level + 1);
            }
            if (items.hasNext()) {
                sb.append(',');
            }
            sb.append('\n');
        }
        indent(sb, level);
        sb.append(close);
    }

    private static void indent(StringBuilder sb, int level) {
        sb.append("    ".repeat(level));
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            switch (b) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (b >= 0x20 && b < 0x7f) {
                        sb.append((char) b);
                    } else {
                        sb.append(String.format("\\u%04X", b & 0xff));
                    }
                }
            }
        }
        sb.append('"');
    }

    /** C's {@code printf("%.17g", d)}: 17 significant digits, trailing zeros dropped. */
    static String formatDouble(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(d).round(new MathContext(17, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        BigDecimal stripped = rounded.stripTrailingZeros();
        if (exponent < -4 || exponent >= 17) {
            String digits = stripped.unscaledValue().abs().toString();
            StringBuilder sb = new StringBuilder();
            if (stripped.signum() < 0) {
                sb.append('-');
            }
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            sb.append('e').append(exponent < 0 ? '-' : '+');
            int abs = Math.abs(exponent);
            if (abs < 10) {
                sb.append('0');
            }
            return sb.append(abs).toString();
        }
        return stripped.toPlainString();
    }
}
