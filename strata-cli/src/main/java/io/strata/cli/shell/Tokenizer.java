package io.strata.cli.shell;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line typed at the shell into commands and their words, by fdbcli's rules
 * ({@code parseLine} in {@code fdbcli/fdbcli.actor.cpp}), so that scripts written for fdbcli
 * mean the same bytes here.
 *
 * <ul>
 *   <li>{@code ;} outside quotes ends a command; blanks ({@code ' '}, tab, CR, LF) outside
 *       quotes end a word.</li>
 *   <li>{@code "} toggles quoting and is dropped; a pair of quotes makes a word even when empty
 *       ({@code get ""} reads the empty key), and quotes may sit inside a word
 *       ({@code a"b c"d} is {@code ab cd}).</li>
 *   <li>{@code \} escapes: {@code \" \\ \  \;} stand for that character, {@code \xNN} for one
 *       byte, <code>&#92;u00NN</code> for one byte (0–255 only). The escaped byte is literal: an escaped
 *       quote or {@code ;} neither quotes nor separates. Any other escape, an escape cut short by
 *       the end of the line, or a <code>&#92;u</code> above 255 makes the line <em>malformed</em>.</li>
 *   <li>A quote still open at the end makes the line <em>partial</em>.</li>
 * </ul>
 * The hex digits are read as C's {@code strtoul} in base 16 reads the two (or four)
 * characters, quirks included: leading blanks, a sign and a {@code 0x} are accepted.
 *
 * <p>The line is tokenized as its UTF-8 bytes, so a word is a byte string: what a terminal
 * sends for {@code é} is the two bytes fdbcli would see.
 */
public final class Tokenizer {
    /** fdbcli's {@code std::string::npos}: "no further position". */
    private static final int NPOS = Integer.MAX_VALUE;

    /**
     * A tokenized line.
     *
     * @param commands  the commands in order, each a list of words (possibly empty); on a
     *                  malformed line, the commands up to and including the one cut short
     * @param malformed whether a bad escape stopped the tokenizer
     * @param partial   whether a quote was left open
     */
    public record Line(List<List<byte[]>> commands, boolean malformed, boolean partial) {}

    private Tokenizer() {}

    /** Tokenizes {@code line}. */
    public static Line parse(String line) {
        // One char per byte (ISO-8859-1 is the identity on 0-255), so that escapes can be
        // replaced by the byte they stand for in place, as fdbcli edits its std::string.
        StringBuilder s = new StringBuilder(new String(line.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
        List<List<byte[]>> commands = new ArrayList<>();
        List<byte[]> words = new ArrayList<>();
        boolean quoted = false;
        boolean forceWord = false;
        int i = firstNotOf(s, " ", 0);
        int offset = i;
        while (i <= s.length()) {
            int c = i < s.length() ? s.charAt(i) : -1;
            switch (c) {
                case ';' -> {
                    if (quoted) {
                        i++;
                        break;
                    }
                    addWord(words, s, offset, i, forceWord);
                    commands.add(words);
                    words = new ArrayList<>();
                    offset = i = firstNotOf(s, " ", i + 1);
                    forceWord = false;
                }
                case '"' -> {
                    quoted = !quoted;
                    s.deleteCharAt(i);
                    forceWord = true;
                }
                case ' ', '\n', '\t', '\r' -> {
                    if (quoted) {
                        i++;
                        break;
                    }
                    addWord(words, s, offset, i, forceWord);
                    offset = i = firstNotOf(s, " \n\t\r", i);
                    forceWord = false;
                }
                case '\\' -> {
                    if (!unescape(s, i)) {
                        commands.add(words);
                        return new Line(commands, true, false);
                    }
                    i++; // past the byte the escape became: it is literal
                }
                default -> i++;
            }
        }
        // The loop ends one past the end of the line (or at "no position" after a final
        // separator, where offset is "no position" too and no word is added).
        addWord(words, s, offset, i - 1, forceWord);
        commands.add(words);
        return new Line(commands, false, quoted);
    }

    /** The word {@code [offset, end)}, if it has bytes or was quoted. */
    private static void addWord(List<byte[]> words, StringBuilder s, int offset, int end, boolean forceWord) {
        if (end > offset || (forceWord && end == offset)) {
            words.add(s.substring(offset, end).getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** Replaces the escape at {@code i} by the byte it stands for; false when it is malformed. */
    private static boolean unescape(StringBuilder s, int i) {
        if (i + 2 > s.length()) {
            return false;
        }
        switch (s.charAt(i + 1)) {
            case '"', '\\', ' ', ';' -> {
                s.deleteCharAt(i);
                return true;
            }
            case 'u' -> {
                if (i + 6 > s.length()) {
                    return false;
                }
                Long value = strtoul16(s.substring(i + 2, i + 6));
                if (value == null || Long.compareUnsigned(value, 255) > 0) {
                    return false;
                }
                s.replace(i, i + 6, String.valueOf((char) value.longValue()));
                return true;
            }
            case 'x' -> {
                if (i + 4 > s.length()) {
                    return false;
                }
                Long value = strtoul16(s.substring(i + 2, i + 4));
                if (value == null) {
                    return false;
                }
                // fdbcli keeps the low byte of whatever strtoul answered (so "\x-1" is 0xff).
                s.replace(i, i + 4, String.valueOf((char) (value & 0xff)));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * C's {@code strtoul(text, &end, 16)}, or null unless it reads all of {@code text}: blanks,
     * then an optional sign, then an optional {@code 0x} before a hex digit, then hex digits.
     * A minus sign negates modulo 2^64, as strtoul does.
     */
    static Long strtoul16(String text) {
        int p = 0;
        int n = text.length();
        while (p < n && " \t\n\u000b\f\r".indexOf(text.charAt(p)) >= 0) {
            p++;
        }
        boolean negative = false;
        if (p < n && (text.charAt(p) == '+' || text.charAt(p) == '-')) {
            negative = text.charAt(p) == '-';
            p++;
        }
        if (p + 2 < n && text.charAt(p) == '0' && (text.charAt(p + 1) == 'x' || text.charAt(p + 1) == 'X')
                && hexDigit(text.charAt(p + 2)) >= 0) {
            p += 2;
        }
        int digits = p;
        long value = 0;
        while (p < n && hexDigit(text.charAt(p)) >= 0) {
            value = value * 16 + hexDigit(text.charAt(p));
            p++;
        }
        if (p == digits || p != n) {
            return null;
        }
        return negative ? -value : value;
    }

    /** The value of an ASCII hex digit, else -1. */
    private static int hexDigit(char c) {
        return c < 128 ? Character.digit(c, 16) : -1;
    }

    /** The first position at or after {@code from} whose char is not one of {@code chars}, else {@link #NPOS}. */
    private static int firstNotOf(StringBuilder s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) < 0) {
                return i;
            }
        }
        return NPOS;
    }
}
