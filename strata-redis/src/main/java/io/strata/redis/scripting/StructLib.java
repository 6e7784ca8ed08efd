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
 * Roberto Ierusalimschy's {@code struct} library as Redis ships it: {@code pack(fmt, ...)},
 * {@code unpack(fmt, s [, pos])} (the values, then the position after them) and
 * {@code size(fmt)}. Formats: {@code > < =} byte order (native is little-endian), {@code !n}
 * alignment, {@code x} a zero byte, {@code b B h H l L T i I} integers (1, 2, 8, 8 and, for
 * {@code i}/{@code In}, n bytes, 4 by default; upper case unsigned), {@code f d} floats,
 * {@code s} a zero-terminated string, {@code cn} n characters ({@code c0}: the whole string
 * to pack, or as many as the previous value unpacked says).
 */
final class StructLib {
    private static final int MAX_INTEGER_SIZE = 8;

    private StructLib() {
    }

    static LuaTable create() {
        LuaTable lib = new LuaTable();
        lib.rawset("pack", RedisApi.fn(StructLib::pack));
        lib.rawset("unpack", RedisApi.fn(StructLib::unpack));
        lib.rawset("size", RedisApi.fn(StructLib::size));
        return lib;
    }

    /** Walks a format string: byte order and alignment as they change, one option at a time. */
    private static final class Format {
        final String fmt;
        final String function;
        int pos;
        boolean little = true;
        int align = 1;

        Format(String fmt, String function) {
            this.fmt = fmt;
            this.function = function;
        }

        /** The next data option (control options applied on the way), or -1 at the end. */
        int next() {
            while (pos < fmt.length()) {
                char c = fmt.charAt(pos++);
                switch (c) {
                    case ' ' -> { }
                    case '>' -> little = false;
                    case '<', '=' -> little = true;
                    case '!' -> align = number(8);
                    default -> {
                        return c;
                    }
                }
            }
            return -1;
        }

        /** The digits after an option, or {@code absent} when there are none. */
        int number(int absent) {
            if (pos >= fmt.length() || !Character.isDigit(fmt.charAt(pos))) {
                return absent;
            }
            int n = 0;
            while (pos < fmt.length() && Character.isDigit(fmt.charAt(pos))) {
                n = n * 10 + (fmt.charAt(pos++) - '0');
            }
            return n;
        }

        /** Bytes of option {@code c}; 0 for s and c0 (sizes known only from the data). */
        int size(int c) {
            return switch (c) {
                case 'b', 'B', 'x' -> 1;
                case 'h', 'H' -> 2;
                case 'l', 'L', 'T', 'd' -> 8;
                case 'f' -> 4;
                case 'i', 'I' -> {
                    int n = number(4);
                    if (n > MAX_INTEGER_SIZE) {
                        throw new LuaError("integral size " + n + " is larger than limit of " + MAX_INTEGER_SIZE);
                    }
                    yield n;
                }
                case 'c' -> number(1);
                case 's' -> 0;
                default -> throw new LuaError("bad argument #1 to '" + function + "' (invalid format option '" + (char) c + "')");
            };
        }

        /** Padding before a field of {@code size} bytes at {@code offset}. */
        int padding(int size, int offset, int c) {
            if (c == 'c' || c == 's' || c == 'x' || align <= 1 || size <= 1) {
                return 0;
            }
            int a = Math.min(size, align);
            return (a - (offset % a)) % a;
        }
    }

    private static Varargs pack(Varargs a) {
        Format f = new Format(a.checkjstring(1), "pack");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int arg = 2;
        for (int c = f.next(); c >= 0; c = f.next()) {
            int size = f.size(c);
            for (int p = f.padding(size, out.size(), c); p > 0; p--) {
                out.write(0);
            }
            switch (c) {
                case 'x' -> out.write(0);
                case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I' -> {
                    double d = a.checkdouble(arg++);
                    long v = d < 0 ? (long) d : unsigned(d);
                    integer(v, size, f.little, out);
                }
                case 'f' -> integer(Float.floatToIntBits((float) a.checkdouble(arg++)) & 0xffffffffL, 4, f.little, out);
                case 'd' -> integer(Double.doubleToLongBits(a.checkdouble(arg++)), 8, f.little, out);
                case 'c', 's' -> {
                    byte[] s = LuaReplies.bytes(a.checkstring(arg));
                    if (c == 's') {
                        out.writeBytes(s);
                        out.write(0);
                    } else {
                        int n = size == 0 ? s.length : size;
                        if (s.length < n) {
                            throw new LuaError("bad argument #" + arg + " to 'pack' (string too short)");
                        }
                        out.write(s, 0, n);
                    }
                    arg++;
                }
                default -> throw new LuaError("invalid format option '" + (char) c + "'");
            }
        }
        return LuaString.valueOf(out.toByteArray());
    }

    private static long unsigned(double d) {
        return d >= 9.223372036854775807E18 ? (long) (d - 18446744073709551616.0) : (long) d;
    }

    private static void integer(long v, int size, boolean little, ByteArrayOutputStream out) {
        for (int i = 0; i < size; i++) {
            int shift = 8 * (little ? i : size - 1 - i);
            out.write(shift >= 64 ? (v < 0 ? 0xff : 0) : (int) (v >>> shift) & 0xff);
        }
    }

    private static Varargs unpack(Varargs a) {
        Format f = new Format(a.checkjstring(1), "unpack");
        byte[] data = LuaReplies.bytes(a.checkstring(2));
        int pos = a.isnoneornil(3) ? 0 : a.checkint(3) - 1;
        if (pos < 0 || pos > data.length) {
            throw new LuaError("bad argument #3 to 'unpack' (offset must be 1 or greater)");
        }
        List<LuaValue> values = new ArrayList<>();
        for (int c = f.next(); c >= 0; c = f.next()) {
            int size = f.size(c);
            pos += f.padding(size, pos, c);
            if (c != 's' && !(c == 'c' && size == 0) && pos + size > data.length) {
                throw new LuaError("bad argument #2 to 'unpack' (data string too short)");
            }
            switch (c) {
                case 'x' -> { }
                case 'b', 'h', 'l', 'i' -> values.add(LuaValue.valueOf((double) read(data, pos, size, f.little, true)));
                case 'B', 'H', 'L', 'T', 'I' -> {
                    long v = read(data, pos, size, f.little, false);
                    values.add(LuaValue.valueOf(v < 0 ? v + 18446744073709551616.0 : (double) v));
                }
                case 'f' -> values.add(LuaValue.valueOf((double) Float.intBitsToFloat((int) read(data, pos, 4, f.little, false))));
                case 'd' -> values.add(LuaValue.valueOf(Double.longBitsToDouble(read(data, pos, 8, f.little, false))));
                case 'c' -> {
                    if (size == 0) {
                        if (values.isEmpty() || values.get(values.size() - 1).type() != LuaValue.TNUMBER) {
                            throw new LuaError("format 'c0' needs a previous size");
                        }
                        size = values.remove(values.size() - 1).toint();
                        if (pos + size > data.length) {
                            throw new LuaError("bad argument #2 to 'unpack' (data string too short)");
                        }
                    }
                    values.add(LuaString.valueOf(java.util.Arrays.copyOfRange(data, pos, pos + size)));
                }
                case 's' -> {
                    int end = pos;
                    while (end < data.length && data[end] != 0) {
                        end++;
                    }
                    if (end >= data.length) {
                        throw new LuaError("unfinished string in data");
                    }
                    values.add(LuaString.valueOf(java.util.Arrays.copyOfRange(data, pos, end)));
                    size = end - pos + 1;
                }
                default -> throw new LuaError("invalid format option '" + (char) c + "'");
            }
            pos += size;
        }
        values.add(LuaValue.valueOf(pos + 1));
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }

    private static long read(byte[] data, int pos, int size, boolean little, boolean signed) {
        long v = 0;
        for (int i = 0; i < size; i++) {
            int b = data[pos + (little ? size - 1 - i : i)] & 0xff;
            v = (v << 8) | b;
        }
        if (signed && size < 8 && (v & (1L << (8 * size - 1))) != 0) {
            v -= 1L << (8 * size);
        }
        return v;
    }

    private static Varargs size(Varargs a) {
        Format f = new Format(a.checkjstring(1), "size");
        int total = 0;
        for (int c = f.next(); c >= 0; c = f.next()) {
            int size = f.size(c);
            if (c == 's' || (c == 'c' && size == 0)) {
                throw new LuaError("options 'c0' - 's' have undefined sizes");
            }
            total += f.padding(size, total, c) + size;
        }
        return LuaValue.valueOf(total);
    }
}
