package io.strata.redis.command;

import io.strata.redis.protocol.RedisException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The arguments of SCAN and its siblings: {@code cursor [MATCH pattern] [COUNT n] [TYPE t]}
 * (TYPE for SCAN only), parsed with Redis's errors.
 *
 * @param cursor the cursor (0 to start)
 * @param pattern the MATCH pattern, or null for all
 * @param count how many elements to look at (a hint, default 10)
 * @param type the TYPE filter (lower case), or null
 */
public record ScanArgs(long cursor, byte[] pattern, long count, String type) {

    /** Parses from argument {@code cursorIndex} on; {@code allowType} for SCAN. */
    public static ScanArgs parse(Invocation inv, int cursorIndex, boolean allowType) {
        long cursor = parseCursor(inv.arg(cursorIndex));
        byte[] pattern = null;
        long count = 10;
        String type = null;
        for (int i = cursorIndex + 1; i < inv.argc(); i += 2) {
            byte[] opt = inv.arg(i);
            if (i + 1 >= inv.argc()) {
                throw RedisException.syntax();
            }
            if (OptionWords.is(opt, "COUNT")) {
                count = inv.longArg(i + 1);
                if (count < 1) {
                    throw RedisException.syntax();
                }
            } else if (OptionWords.is(opt, "MATCH")) {
                pattern = GlobPattern.matchesAll(inv.arg(i + 1)) ? null : inv.arg(i + 1);
            } else if (OptionWords.is(opt, "TYPE") && allowType) {
                // Redis compares the type name with strcasecmp: up to a NUL, ASCII letters folded.
                type = new String(OptionWords.cString(inv.arg(i + 1)), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            } else {
                throw RedisException.syntax();
            }
        }
        return new ScanArgs(cursor, pattern, count, type);
    }

    /**
     * Reads a cursor as Redis's {@code parseScanCursorOrReply} does, with C's {@code strtoul}
     * in base 10 on the argument up to its first NUL: an optional sign, then digits, with
     * nothing after them; a minus sign negates modulo 2<sup>64</sup> ({@code -1} is
     * 18446744073709551615); no digits at all reads as 0 when nothing else is there either
     * ({@code ""}, {@code "\0x"}). A leading space, any other character, or a magnitude over
     * 2<sup>64</sup> - 1 is {@code ERR invalid cursor}. The result is the unsigned 64-bit
     * value in a {@code long}.
     */
    static long parseCursor(byte[] arg) {
        byte[] b = OptionWords.cString(arg);
        if (b.length == 0) {
            return 0;
        }
        int c0 = b[0];
        if (c0 == ' ' || (c0 >= '\t' && c0 <= '\r')) {
            throw invalidCursor();
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '+' || b[0] == '-') {
            negative = b[0] == '-';
            i++;
        }
        if (i == b.length || b[i] < '0' || b[i] > '9') {
            throw invalidCursor(); // no digits: strtoul stops at the first byte, which is not the end
        }
        long value = 0;
        for (; i < b.length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw invalidCursor();
            }
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0) {
                throw invalidCursor();
            }
            long next = value * 10 + d;
            if (Long.compareUnsigned(next, value * 10) < 0) {
                throw invalidCursor();
            }
            value = next;
        }
        return negative ? -value : value;
    }

    private static RedisException invalidCursor() {
        return new RedisException("ERR invalid cursor");
    }

    /** Whether an element passes MATCH. */
    public boolean matches(byte[] element) {
        return pattern == null || GlobPattern.matches(pattern, element);
    }
}
