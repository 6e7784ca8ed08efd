package io.strata.redis.scripting;

import io.strata.redis.protocol.RedisDoubles;

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
        return RedisDoubles.format(d, precision);
    }
}
