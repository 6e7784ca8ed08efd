package io.strata.redis.scripting;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.Locale;
import java.util.function.IntBinaryOperator;

/**
 * Lua BitOp's {@code bit} library, which Redis ships: operations on 32-bit integers whose
 * results are signed ({@code bit.bnot(0) == -1}), arguments taken modulo 2^32 after rounding.
 */
final class BitLib {
    private BitLib() {
    }

    static LuaTable create() {
        LuaTable bit = new LuaTable();
        bit.rawset("tobit", RedisApi.fn(a -> result(arg(a, 1))));
        bit.rawset("bnot", RedisApi.fn(a -> result(~arg(a, 1))));
        bit.rawset("band", RedisApi.fn(a -> fold(a, (x, y) -> x & y)));
        bit.rawset("bor", RedisApi.fn(a -> fold(a, (x, y) -> x | y)));
        bit.rawset("bxor", RedisApi.fn(a -> fold(a, (x, y) -> x ^ y)));
        bit.rawset("lshift", RedisApi.fn(a -> result(arg(a, 1) << (arg(a, 2) & 31))));
        bit.rawset("rshift", RedisApi.fn(a -> result(arg(a, 1) >>> (arg(a, 2) & 31))));
        bit.rawset("arshift", RedisApi.fn(a -> result(arg(a, 1) >> (arg(a, 2) & 31))));
        bit.rawset("rol", RedisApi.fn(a -> result(Integer.rotateLeft(arg(a, 1), arg(a, 2) & 31))));
        bit.rawset("ror", RedisApi.fn(a -> result(Integer.rotateRight(arg(a, 1), arg(a, 2) & 31))));
        bit.rawset("bswap", RedisApi.fn(a -> result(Integer.reverseBytes(arg(a, 1)))));
        bit.rawset("tohex", RedisApi.fn(BitLib::tohex));
        return bit;
    }

    /** BitOp's normalization: round to an integer, keep the low 32 bits. */
    static int arg(Varargs a, int i) {
        double d = a.checkdouble(i);
        return (int) (long) Math.rint(d);
    }

    private static LuaValue result(int v) {
        return LuaValue.valueOf(v);
    }

    private static Varargs fold(Varargs a, IntBinaryOperator op) {
        int v = arg(a, 1);
        for (int i = 2; i <= a.narg(); i++) {
            v = op.applyAsInt(v, arg(a, i));
        }
        return result(v);
    }

    private static Varargs tohex(Varargs a) {
        int v = arg(a, 1);
        int n = a.isnoneornil(2) ? 8 : arg(a, 2);
        boolean upper = n < 0;
        n = Math.min(Math.abs(n), 8);
        String hex = String.format("%08x", v);
        hex = hex.substring(8 - n);
        return LuaValue.valueOf(upper ? hex.toUpperCase(Locale.ROOT) : hex);
    }
}
