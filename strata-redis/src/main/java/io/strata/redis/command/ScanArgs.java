package io.strata.redis.command;

import io.strata.redis.protocol.RedisException;

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
            String opt = inv.option(i);
            if (i + 1 >= inv.argc()) {
                throw RedisException.syntax();
            }
            if (opt.equals("COUNT")) {
                count = inv.longArg(i + 1);
                if (count < 1) {
                    throw RedisException.syntax();
                }
            } else if (opt.equals("MATCH")) {
                pattern = GlobPattern.matchesAll(inv.arg(i + 1)) ? null : inv.arg(i + 1);
            } else if (opt.equals("TYPE") && allowType) {
                type = inv.argString(i + 1).toLowerCase(java.util.Locale.ROOT);
            } else {
                throw RedisException.syntax();
            }
        }
        return new ScanArgs(cursor, pattern, count, type);
    }

    /** Redis reads a cursor as an unsigned 64-bit decimal; anything else is {@code ERR invalid cursor}. */
    static long parseCursor(byte[] b) {
        String s = new String(b, java.nio.charset.StandardCharsets.US_ASCII);
        try {
            if (s.isEmpty() || s.charAt(0) == '+' || s.charAt(0) == '-' || s.trim().length() != s.length()) {
                throw new NumberFormatException();
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new RedisException("ERR invalid cursor");
        }
    }

    /** Whether an element passes MATCH. */
    public boolean matches(byte[] element) {
        return pattern == null || GlobPattern.matches(pattern, element);
    }
}
