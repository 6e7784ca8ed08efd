package io.strata.redis.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Lua CJSON's {@code cjson} library as Redis ships it: {@code encode}, {@code decode} and
 * {@code null}, with its choices: numbers as {@code %.14g}, {@code /} escaped, an empty table
 * is {@code {}}, a table is an array when its keys are 1..n (holes allowed unless excessively
 * sparse), strings are bytes (UTF-8 passes through). The configuration functions are accepted
 * and change nothing.
 */
final class CJsonLib {
    /** {@code cjson.null}: JSON null inside tables, where nil cannot be stored. */
    static final LuaValue NULL = new LuaUserdata(new Object());

    /** The settings a script may change through the configuration functions; per run, as the library is. */
    private static final class Config {
        int encodeMaxDepth = 1000;
        int decodeMaxDepth = 1000;
        int precision = 14;
        LuaValue encodeInvalidNumbers = LuaValue.FALSE;
        LuaValue decodeInvalidNumbers = LuaValue.TRUE;
        LuaValue keepBuffer = LuaValue.TRUE;
        LuaValue sparseConvert = LuaValue.FALSE;
        int sparseRatio = 2;
        int sparseSafe = 10;
    }

    private CJsonLib() {
    }

    static LuaTable create() {
        Config config = new Config();
        LuaTable cjson = new LuaTable();
        cjson.rawset("encode", RedisApi.fn(a -> {
            if (a.narg() != 1) {
                throw new LuaError("bad argument #1 to 'encode' (expected 1 argument)");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            encode(a.arg1(), out, 0, config);
            return LuaString.valueOf(out.toByteArray());
        }));
        cjson.rawset("decode", RedisApi.fn(a -> {
            if (a.narg() != 1) {
                throw new LuaError("bad argument #1 to 'decode' (expected 1 argument)");
            }
            return new Decoder(LuaReplies.bytes(a.checkstring(1)), config.decodeMaxDepth).document();
        }));
        cjson.rawset("null", NULL);
        cjson.rawset("encode_max_depth", RedisApi.fn(a -> {
            config.encodeMaxDepth = a.isnoneornil(1) ? config.encodeMaxDepth : a.checkint(1);
            return LuaValue.valueOf(config.encodeMaxDepth);
        }));
        cjson.rawset("decode_max_depth", RedisApi.fn(a -> {
            config.decodeMaxDepth = a.isnoneornil(1) ? config.decodeMaxDepth : a.checkint(1);
            return LuaValue.valueOf(config.decodeMaxDepth);
        }));
        cjson.rawset("encode_number_precision", RedisApi.fn(a -> {
            if (!a.isnoneornil(1)) {
                int p = a.checkint(1);
                if (p < 1 || p > 14) {
                    throw new LuaError("bad argument #1 to '?' (expected integer between 1 and 14)");
                }
                config.precision = p;
            }
            return LuaValue.valueOf(config.precision);
        }));
        cjson.rawset("encode_invalid_numbers", RedisApi.fn(a -> {
            config.encodeInvalidNumbers = a.isnoneornil(1) ? config.encodeInvalidNumbers : a.arg1();
            return config.encodeInvalidNumbers;
        }));
        cjson.rawset("decode_invalid_numbers", RedisApi.fn(a -> {
            config.decodeInvalidNumbers = a.isnoneornil(1) ? config.decodeInvalidNumbers : a.arg1();
            return config.decodeInvalidNumbers;
        }));
        cjson.rawset("encode_keep_buffer", RedisApi.fn(a -> {
            config.keepBuffer = a.isnoneornil(1) ? config.keepBuffer : a.arg1();
            return config.keepBuffer;
        }));
        cjson.rawset("encode_sparse_array", RedisApi.fn(a -> {
            config.sparseConvert = a.isnoneornil(1) ? config.sparseConvert : a.arg1();
            config.sparseRatio = a.isnoneornil(2) ? config.sparseRatio : a.checkint(2);
            config.sparseSafe = a.isnoneornil(3) ? config.sparseSafe : a.checkint(3);
            return LuaValue.varargsOf(new LuaValue[] {config.sparseConvert, LuaValue.valueOf(config.sparseRatio),
                LuaValue.valueOf(config.sparseSafe)});
        }));
        return cjson;
    }

    private static void encode(LuaValue v, ByteArrayOutputStream out, int depth, Config config) {
        switch (v.type()) {
            case LuaValue.TNIL -> write(out, "null");
            case LuaValue.TBOOLEAN -> write(out, v.toboolean() ? "true" : "false");
            case LuaValue.TNUMBER -> write(out, number(v.todouble(), config));
            case LuaValue.TSTRING -> string(LuaReplies.bytes(v), out);
            case LuaValue.TTABLE -> table((LuaTable) v, out, depth + 1, config);
            default -> {
                if (v == NULL) {
                    write(out, "null");
                } else {
                    throw new LuaError("Cannot serialise " + v.typename() + ": type not supported");
                }
            }
        }
    }

    private static void table(LuaTable t, ByteArrayOutputStream out, int depth, Config config) {
        if (depth > config.encodeMaxDepth) {
            throw new LuaError("Cannot serialise, excessive nesting (" + depth + ")");
        }
        int length = arrayLength(t, config);
        if (length > 0) {
            out.write('[');
            for (int i = 1; i <= length; i++) {
                if (i > 1) {
                    out.write(',');
                }
                encode(t.rawget(i), out, depth, config);
            }
            out.write(']');
            return;
        }
        out.write('{');
        boolean first = true;
        for (Varargs n = t.next(LuaValue.NIL); !n.arg1().isnil(); n = t.next(n.arg1())) {
            LuaValue key = n.arg1();
            if (!first) {
                out.write(',');
            }
            first = false;
            if (key.type() == LuaValue.TSTRING) {
                string(LuaReplies.bytes(key), out);
            } else if (key.type() == LuaValue.TNUMBER) {
                string(number(key.todouble(), config).getBytes(StandardCharsets.US_ASCII), out);
            } else {
                throw new LuaError("Cannot serialise " + key.typename() + ": table key must be a number or string");
            }
            out.write(':');
            encode(n.arg(2), out, depth, config);
        }
        out.write('}');
    }

    /** CJSON's rule: the array length when every key is a positive integer, -1 otherwise (or when too sparse). */
    private static int arrayLength(LuaTable t, Config config) {
        int max = 0;
        int items = 0;
        for (Varargs n = t.next(LuaValue.NIL); !n.arg1().isnil(); n = t.next(n.arg1())) {
            LuaValue k = n.arg1();
            if (k.type() != LuaValue.TNUMBER) {
                return -1;
            }
            double d = k.todouble();
            if (d < 1 || d != Math.floor(d) || d > Integer.MAX_VALUE) {
                return -1;
            }
            max = Math.max(max, (int) d);
            items++;
        }
        if (config.sparseRatio > 0 && max > config.sparseSafe && max > items * config.sparseRatio) {
            if (config.sparseConvert.toboolean()) {
                return -1;
            }
            throw new LuaError("Cannot serialise table: excessively sparse array");
        }
        return items == 0 ? -1 : max;
    }

    private static void string(byte[] s, ByteArrayOutputStream out) {
        out.write('"');
        for (byte b : s) {
            int c = b & 0xff;
            switch (c) {
                case '"' -> write(out, "\\\"");
                case '\\' -> write(out, "\\\\");
                case '/' -> write(out, "\\/");
                case '\b' -> write(out, "\\b");
                case '\f' -> write(out, "\\f");
                case '\n' -> write(out, "\\n");
                case '\r' -> write(out, "\\r");
                case '\t' -> write(out, "\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        write(out, String.format("\\u%04x", c));
                    } else {
                        out.write(c);
                    }
                }
            }
        }
        out.write('"');
    }

    private static String number(double d, Config config) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            LuaValue allowed = config.encodeInvalidNumbers;
            if (allowed.type() == LuaValue.TSTRING && allowed.tojstring().equals("null")) {
                return "null";
            }
            if (!allowed.toboolean()) {
                throw new LuaError("Cannot serialise number: must not be NaN or Inf");
            }
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e14) {
            return Long.toString((long) d);
        }
        return LuaNumbers.format(d, config.precision);
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** A recursive-descent JSON reader with CJSON's error wording. */
    private static final class Decoder {
        private final byte[] in;
        private int pos;
        private final int maxDepth;
        private int depth;

        Decoder(byte[] in, int maxDepth) {
            this.in = in;
            this.maxDepth = maxDepth;
        }

        LuaValue document() {
            LuaValue v = value();
            skipSpace();
            if (pos < in.length) {
                throw error("T_END", "invalid token");
            }
            return v;
        }

        private LuaValue value() {
            skipSpace();
            if (pos >= in.length) {
                throw error("value", "T_END");
            }
            byte c = in[pos];
            if (c == '{') {
                return object();
            }
            if (c == '[') {
                return array();
            }
            if (c == '"') {
                return LuaString.valueOf(string());
            }
            if (c == '-' || (c >= '0' && c <= '9')) {
                return number();
            }
            if (literal("true")) {
                return LuaValue.TRUE;
            }
            if (literal("false")) {
                return LuaValue.FALSE;
            }
            if (literal("null")) {
                return NULL;
            }
            throw error("value", "invalid token");
        }

        private LuaValue object() {
            enter();
            pos++;
            LuaTable t = new LuaTable();
            skipSpace();
            if (pos < in.length && in[pos] == '}') {
                pos++;
                depth--;
                return t;
            }
            while (true) {
                skipSpace();
                if (pos >= in.length || in[pos] != '"') {
                    throw error("object key string", pos >= in.length ? "T_END" : "invalid token");
                }
                LuaString key = LuaString.valueOf(string());
                skipSpace();
                if (pos >= in.length || in[pos] != ':') {
                    throw error("colon", pos >= in.length ? "T_END" : "invalid token");
                }
                pos++;
                t.rawset(key, value());
                skipSpace();
                if (pos < in.length && in[pos] == ',') {
                    pos++;
                } else if (pos < in.length && in[pos] == '}') {
                    pos++;
                    depth--;
                    return t;
                } else {
                    throw error("comma or object end", pos >= in.length ? "T_END" : "invalid token");
                }
            }
        }

        private LuaValue array() {
            enter();
            pos++;
            LuaTable t = new LuaTable();
            skipSpace();
            if (pos < in.length && in[pos] == ']') {
                pos++;
                depth--;
                return t;
            }
            for (int i = 1; ; i++) {
                t.rawset(i, value());
                skipSpace();
                if (pos < in.length && in[pos] == ',') {
                    pos++;
                } else if (pos < in.length && in[pos] == ']') {
                    pos++;
                    depth--;
                    return t;
                } else {
                    throw error("comma or array end", pos >= in.length ? "T_END" : "invalid token");
                }
            }
        }

        private void enter() {
            if (++depth > maxDepth) {
                throw new LuaError("Found too many nested data structures (" + depth + ") at character " + (pos + 1));
            }
        }

        private byte[] string() {
            int start = pos;
            pos++;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (pos < in.length && in[pos] != '"') {
                byte c = in[pos++];
                if (c != '\\') {
                    out.write(c);
                    continue;
                }
                if (pos >= in.length) {
                    break;
                }
                byte e = in[pos++];
                switch (e) {
                    case '"', '\\', '/' -> out.write(e);
                    case 'b' -> out.write('\b');
                    case 'f' -> out.write('\f');
                    case 'n' -> out.write('\n');
                    case 'r' -> out.write('\r');
                    case 't' -> out.write('\t');
                    case 'u' -> unicode(out, start);
                    default -> throw new LuaError("Expected value but found invalid escape code at character " + (start + 1));
                }
            }
            if (pos >= in.length) {
                throw new LuaError("Expected value but found unexpected end of string at character " + (start + 1));
            }
            pos++;
            return out.toByteArray();
        }

        private void unicode(ByteArrayOutputStream out, int start) {
            int cp = hex4(start);
            if (cp >= 0xD800 && cp <= 0xDBFF && pos + 1 < in.length && in[pos] == '\\' && in[pos + 1] == 'u') {
                pos += 2;
                int low = hex4(start);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        }

        private int hex4(int start) {
            if (pos + 4 > in.length) {
                throw new LuaError("Expected value but found invalid unicode escape code at character " + (start + 1));
            }
            try {
                int v = Integer.parseInt(new String(in, pos, 4, StandardCharsets.US_ASCII), 16);
                pos += 4;
                return v;
            } catch (NumberFormatException e) {
                throw new LuaError("Expected value but found invalid unicode escape code at character " + (start + 1));
            }
        }

        private LuaValue number() {
            int start = pos;
            while (pos < in.length && "+-0123456789.eE".indexOf(in[pos]) >= 0) {
                pos++;
            }
            try {
                return LuaValue.valueOf(Double.parseDouble(new String(in, start, pos - start, StandardCharsets.US_ASCII)));
            } catch (NumberFormatException e) {
                pos = start;
                throw error("value", "invalid number");
            }
        }

        private boolean literal(String word) {
            byte[] w = word.getBytes(StandardCharsets.US_ASCII);
            if (pos + w.length > in.length) {
                return false;
            }
            for (int i = 0; i < w.length; i++) {
                if (in[pos + i] != w[i]) {
                    return false;
                }
            }
            pos += w.length;
            return true;
        }

        private void skipSpace() {
            while (pos < in.length && (in[pos] == ' ' || in[pos] == '\t' || in[pos] == '\n' || in[pos] == '\r')) {
                pos++;
            }
        }

        private LuaError error(String expected, String found) {
            return new LuaError("Expected " + expected + " but found " + found + " at character " + (pos + 1));
        }
    }
}
