package io.strata.redis.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * lua-cmsgpack's {@code cmsgpack} library as Redis ships it: {@code pack(...)} (each argument
 * encoded, concatenated), {@code unpack(s)} (every object), {@code unpack_one(s [, offset])}
 * and {@code unpack_limit(s, limit [, offset])} (the next offset, -1 at the end, then the
 * objects). Its choices: an integral number is the smallest integer encoding, another a float
 * when a float holds it exactly, else a double; a table whose keys are exactly 1..n is an
 * array, any other a map; tables nested deeper than 16 are encoded as nil.
 */
final class CMsgPackLib {
    private static final int MAX_NESTING = 16;

    private CMsgPackLib() {
    }

    static LuaTable create() {
        LuaTable lib = new LuaTable();
        lib.rawset("pack", RedisApi.fn(a -> {
            if (a.narg() == 0) {
                throw new LuaError("MessagePack pack needs input.");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 1; i <= a.narg(); i++) {
                encode(a.arg(i), out, 0);
            }
            return LuaString.valueOf(out.toByteArray());
        }));
        lib.rawset("unpack", RedisApi.fn(a -> {
            Reader r = new Reader(LuaReplies.bytes(a.checkstring(1)), 0);
            List<LuaValue> values = new ArrayList<>();
            while (r.pos < r.in.length) {
                values.add(r.value());
            }
            return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
        }));
        lib.rawset("unpack_one", RedisApi.fn(a -> limited(a.checkstring(1), 1, a.isnoneornil(2) ? 0 : a.checkint(2))));
        lib.rawset("unpack_limit", RedisApi.fn(a -> limited(a.checkstring(1), a.checkint(2),
                a.isnoneornil(3) ? 0 : a.checkint(3))));
        return lib;
    }

    private static Varargs limited(LuaString s, int limit, int offset) {
        byte[] in = LuaReplies.bytes(s);
        if (offset < 0 || limit < 0) {
            throw new LuaError("Invalid request to unpack with offset of " + offset + " and limit of " + limit + ".");
        }
        if (offset > in.length) {
            throw new LuaError("Start offset " + offset + " greater than input length " + in.length + ".");
        }
        Reader r = new Reader(in, offset);
        List<LuaValue> values = new ArrayList<>();
        values.add(LuaValue.NIL);
        while (r.pos < in.length && (limit == 0 || values.size() <= limit)) {
            values.add(r.value());
        }
        values.set(0, LuaValue.valueOf(r.pos >= in.length ? -1 : r.pos));
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }

    private static void encode(LuaValue v, ByteArrayOutputStream out, int level) {
        switch (v.type()) {
            case LuaValue.TBOOLEAN -> out.write(v.toboolean() ? 0xc3 : 0xc2);
            case LuaValue.TNUMBER -> number(v.todouble(), out);
            case LuaValue.TSTRING -> string(LuaReplies.bytes(v), out);
            case LuaValue.TTABLE -> {
                if (level >= MAX_NESTING) {
                    out.write(0xc0);
                } else {
                    table((LuaTable) v, out, level + 1);
                }
            }
            default -> out.write(0xc0);
        }
    }

    private static void number(double d, ByteArrayOutputStream out) {
        long l = (long) d;
        if (d == Math.floor(d) && !Double.isInfinite(d) && (double) l == d && Math.abs(d) < 9.2e18) {
            integer(l, out);
        } else if ((double) (float) d == d || Double.isNaN(d)) {
            out.write(0xca);
            be(Float.floatToIntBits((float) d) & 0xffffffffL, 4, out);
        } else {
            out.write(0xcb);
            be(Double.doubleToLongBits(d), 8, out);
        }
    }

    private static void integer(long n, ByteArrayOutputStream out) {
        if (n >= 0) {
            if (n < 128) {
                out.write((int) n);
            } else if (n <= 0xff) {
                out.write(0xcc);
                be(n, 1, out);
            } else if (n <= 0xffff) {
                out.write(0xcd);
                be(n, 2, out);
            } else if (n <= 0xffffffffL) {
                out.write(0xce);
                be(n, 4, out);
            } else {
                out.write(0xcf);
                be(n, 8, out);
            }
        } else if (n >= -32) {
            out.write((int) (n & 0xff));
        } else if (n >= -128) {
            out.write(0xd0);
            be(n, 1, out);
        } else if (n >= -32768) {
            out.write(0xd1);
            be(n, 2, out);
        } else if (n >= Integer.MIN_VALUE) {
            out.write(0xd2);
            be(n, 4, out);
        } else {
            out.write(0xd3);
            be(n, 8, out);
        }
    }

    private static void string(byte[] s, ByteArrayOutputStream out) {
        int n = s.length;
        if (n < 32) {
            out.write(0xa0 | n);
        } else if (n <= 0xff) {
            out.write(0xd9);
            be(n, 1, out);
        } else if (n <= 0xffff) {
            out.write(0xda);
            be(n, 2, out);
        } else {
            out.write(0xdb);
            be(n, 4, out);
        }
        out.writeBytes(s);
    }

    private static void table(LuaTable t, ByteArrayOutputStream out, int level) {
        int count = 0;
        long max = 0;
        boolean array = true;
        for (Varargs n = t.next(LuaValue.NIL); !n.arg1().isnil(); n = t.next(n.arg1())) {
            count++;
            LuaValue k = n.arg1();
            double d = k.type() == LuaValue.TNUMBER ? k.todouble() : -1;
            if (d < 1 || d != Math.floor(d)) {
                array = false;
            } else {
                max = Math.max(max, (long) d);
            }
        }
        if (array && max == count) {
            header(count, 0x90, 0xdc, 0xdd, out);
            for (int i = 1; i <= count; i++) {
                encode(t.rawget(i), out, level);
            }
            return;
        }
        header(count, 0x80, 0xde, 0xdf, out);
        for (Varargs n = t.next(LuaValue.NIL); !n.arg1().isnil(); n = t.next(n.arg1())) {
            encode(n.arg1(), out, level);
            encode(n.arg(2), out, level);
        }
    }

    private static void header(int n, int fix, int sixteen, int thirtyTwo, ByteArrayOutputStream out) {
        if (n < 16) {
            out.write(fix | n);
        } else if (n <= 0xffff) {
            out.write(sixteen);
            be(n, 2, out);
        } else {
            out.write(thirtyTwo);
            be(n, 4, out);
        }
    }

    private static void be(long v, int bytes, ByteArrayOutputStream out) {
        for (int i = bytes - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xff);
        }
    }

    /** Decodes objects from a position. */
    private static final class Reader {
        final byte[] in;
        int pos;

        Reader(byte[] in, int pos) {
            this.in = in;
            this.pos = pos;
        }

        LuaValue value() {
            int c = (int) u(1);
            if (c <= 0x7f) {
                return LuaValue.valueOf(c);
            }
            if (c >= 0xe0) {
                return LuaValue.valueOf(c - 256);
            }
            if ((c & 0xe0) == 0xa0) {
                return str(c & 0x1f);
            }
            if ((c & 0xf0) == 0x90) {
                return array(c & 0x0f);
            }
            if ((c & 0xf0) == 0x80) {
                return map(c & 0x0f);
            }
            return switch (c) {
                case 0xc0 -> LuaValue.NIL;
                case 0xc2 -> LuaValue.FALSE;
                case 0xc3 -> LuaValue.TRUE;
                case 0xca -> LuaValue.valueOf((double) Float.intBitsToFloat((int) u(4)));
                case 0xcb -> LuaValue.valueOf(Double.longBitsToDouble(u(8)));
                case 0xcc -> LuaValue.valueOf(u(1));
                case 0xcd -> LuaValue.valueOf(u(2));
                case 0xce -> LuaValue.valueOf((double) u(4));
                case 0xcf -> LuaValue.valueOf((double) u(8));
                case 0xd0 -> LuaValue.valueOf((byte) u(1));
                case 0xd1 -> LuaValue.valueOf((short) u(2));
                case 0xd2 -> LuaValue.valueOf((int) u(4));
                case 0xd3 -> LuaValue.valueOf((double) u(8));
                case 0xc4, 0xd9 -> str((int) u(1));
                case 0xc5, 0xda -> str((int) u(2));
                case 0xc6, 0xdb -> str((int) u(4));
                case 0xdc -> array((int) u(2));
                case 0xdd -> array((int) u(4));
                case 0xde -> map((int) u(2));
                case 0xdf -> map((int) u(4));
                default -> throw new LuaError("Bad data format in input.");
            };
        }

        private long u(int bytes) {
            if (pos + bytes > in.length) {
                throw new LuaError("Missing bytes in input.");
            }
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v = (v << 8) | (in[pos++] & 0xff);
            }
            return v;
        }

        private LuaValue str(int n) {
            if (n < 0 || pos + n > in.length) {
                throw new LuaError("Missing bytes in input.");
            }
            LuaString s = LuaString.valueOf(java.util.Arrays.copyOfRange(in, pos, pos + n));
            pos += n;
            return s;
        }

        private LuaValue array(int n) {
            LuaTable t = new LuaTable();
            for (int i = 1; i <= n; i++) {
                t.rawset(i, value());
            }
            return t;
        }

        private LuaValue map(int n) {
            LuaTable t = new LuaTable();
            for (int i = 0; i < n; i++) {
                LuaValue k = value();
                LuaValue v = value();
                if (!k.isnil()) {
                    t.rawset(k, v);
                }
            }
            return t;
        }
    }
}
