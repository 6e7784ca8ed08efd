package io.strata.redis.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What makes luaj (Lua 5.2) look like the Lua 5.1 Redis scripts are written for: the 5.1
 * functions ({@code unpack}, {@code gcinfo}, {@code table.getn}), numbers written as 5.1
 * writes them ({@code tostring}, {@code table.concat}), Redis's {@code pcall}, {@code error()}
 * without a value, and error messages in Lua's form ({@code user_script:1: attempt to call a
 * nil value} where luaj says {@code @user_script:1 attempt to call nil}). Stateless.
 */
final class LuaCompat {
    private static final Pattern LUAJ_POSITION = Pattern.compile("^@([^:\\s]+):(\\d+|\\?) (.*)$", Pattern.DOTALL);

    private LuaCompat() {
    }

    /** Installs the 5.1 functions and replacements in {@code g}, and Lua's error text for runtime errors. */
    static void install(Globals g) {
        LuaValue table = g.rawget("table");
        g.rawset("unpack", table.get("unpack"));
        table.set("getn", RedisApi.fn(a -> LuaValue.valueOf(a.checktable(1).length())));
        LuaValue collect = g.rawget("collectgarbage");
        g.rawset("gcinfo", RedisApi.fn(a -> LuaValue.valueOf((int) collect.call(LuaValue.valueOf("count")).todouble())));
        g.rawset("pcall", RedisApi.fn(LuaCompat::pcall));
        // Lua 5.1 writes numbers as %.14g; luaj as Java floats (3.0E-4).
        g.rawset("tostring", RedisApi.fn(a -> tostring(g, a.arg1())));
        table.set("concat", RedisApi.fn(LuaCompat::concat));
        // error() without a value: luaj's own cannot report it (its error handler gets no text); Redis says "nil".
        LuaValue error = g.rawget("error");
        g.rawset("error", RedisApi.fn(a -> {
            if (a.arg1().isnil()) {
                throw new LuaError(LuaValue.NIL);
            }
            return error.invoke(a);
        }));
        installErrorText(g);
    }

    /** Runtime errors of {@code g}'s code worded as Lua words them. */
    static void installErrorText(Globals g) {
        // luaj writes a runtime error's position as "@user_script:1 message"; Lua (and Redis) as "user_script:1: message".
        g.running.errorfunc = RedisApi.fn(a -> LuaValue.valueOf(luaPosition(a.arg1().tojstring(),
                call -> g.debuglib instanceof ScriptHook ? ((ScriptHook) g.debuglib).nameOfFailedOperand(call) : null)));
    }

    private static LuaValue tostring(Globals g, LuaValue v) {
        if (v.type() == LuaValue.TNUMBER) {
            return LuaValue.valueOf(v.isint() ? Integer.toString(v.toint()) : LuaNumbers.format(v.todouble()));
        }
        LuaValue meta = v.getmetatable();
        if (meta != null && !meta.rawget("__tostring").isnil()) {
            return meta.rawget("__tostring").call(v);
        }
        return LuaValue.valueOf(v.tojstring());
    }

    /** table.concat(t [, sep [, i [, j]]]) with Lua 5.1's number text. */
    private static Varargs concat(Varargs a) {
        LuaTable t = a.checktable(1);
        LuaString sep = a.isnoneornil(2) ? LuaValue.valueOf("") : a.checkstring(2);
        int from = a.isnoneornil(3) ? 1 : a.checkint(3);
        int to = a.isnoneornil(4) ? t.length() : a.checkint(4);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = from; i <= to; i++) {
            LuaValue item = t.rawget(i);
            if (item.type() == LuaValue.TNUMBER) {
                out.writeBytes(LuaValue.valueOf(item.isint() ? Integer.toString(item.toint())
                        : LuaNumbers.format(item.todouble())).m_bytes);
            } else if (item.type() == LuaValue.TSTRING) {
                out.writeBytes(LuaReplies.bytes(item));
            } else {
                throw new LuaError("invalid value (at index " + i + ") in table for 'concat'");
            }
            if (i < to) {
                out.writeBytes(LuaReplies.bytes(sep));
            }
        }
        return LuaString.valueOf(out.toByteArray());
    }

    private static final Pattern LUAJ_UNEXPECTED = Pattern.compile("unexpected symbol (\\d+) \\(.*\\)$", Pattern.DOTALL);
    /** Lua 5.2's tokens from 257 on, as its lexer numbers them (luaj reports the number). */
    private static final String[] TOKENS = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
        "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while", "..",
        "...", "==", ">=", "<=", "~=", "::", "<eof>"};

    /** A compile error as Lua words it where luaj differs: {@code unexpected symbol near '='}, not {@code unexpected symbol 61 (=)}. */
    static String compileError(String luajMessage) {
        Matcher m = LUAJ_UNEXPECTED.matcher(luajMessage);
        if (!m.find()) {
            return luajMessage;
        }
        int token = Integer.parseInt(m.group(1));
        String text = token < 256 ? String.valueOf((char) token) : token - 257 < TOKENS.length ? TOKENS[token - 257] : null;
        return text == null ? luajMessage : luajMessage.substring(0, m.start()) + "unexpected symbol near '" + text + "'";
    }

    static String luaPosition(String luajMessage) {
        return luaPosition(luajMessage, call -> null);
    }

    /**
     * A luaj runtime error as Lua words it: {@code user_script:1: } before the message, and the
     * message in Lua's words, naming what was called or indexed as {@code names} finds it (given
     * whether the failure was a call; null when Lua would not name it).
     */
    static String luaPosition(String luajMessage, java.util.function.Function<Boolean, String> names) {
        Matcher m = LUAJ_POSITION.matcher(luajMessage);
        return m.matches() ? m.group(1) + ":" + m.group(2) + ": " + luaWords(m.group(3), names) : luajMessage;
    }

    private static final Pattern LUAJ_CALL = Pattern.compile("^attempt to call (nil|boolean|number|string|table|function|userdata|thread)$");
    private static final Pattern LUAJ_INDEX = Pattern.compile("^attempt to index \\? \\(a (\\w+) value\\)$");
    private static final Pattern LUAJ_INDEX_EXPECTED = Pattern.compile("^index expected, got (\\w+)$");
    private static final Pattern LUAJ_ARITHMETIC = Pattern.compile("^attempt to perform arithmetic \\S+ on (\\w+) and (\\w+)$");

    /** Lua 5.1's words for the runtime errors scripts meet most, where luaj words them its own way. */
    static String luaWords(String message, java.util.function.Function<Boolean, String> names) {
        Matcher call = LUAJ_CALL.matcher(message);
        if (call.matches()) {
            String name = names.apply(true);
            return name == null ? "attempt to call a " + call.group(1) + " value"
                    : "attempt to call " + name + " (a " + call.group(1) + " value)";
        }
        Matcher index = LUAJ_INDEX.matcher(message);
        if (!index.matches()) {
            index = LUAJ_INDEX_EXPECTED.matcher(message);
        }
        if (index.matches()) {
            String name = names.apply(false);
            return "attempt to index " + (name == null ? "?" : name) + " (a " + index.group(1) + " value)";
        }
        Matcher arithmetic = LUAJ_ARITHMETIC.matcher(message);
        if (arithmetic.matches()) {
            String bad = arithmetic.group(1).equals("number") ? arithmetic.group(2) : arithmetic.group(1);
            return "attempt to perform arithmetic on a " + bad + " value";
        }
        return message;
    }

    /** Redis's pcall: as Lua's, but a command error comes back as its text, not its table. */
    private static Varargs pcall(Varargs args) {
        LuaValue f = args.checkvalue(1);
        try {
            return LuaValue.varargsOf(LuaValue.TRUE, f.invoke(args.subargs(2)));
        } catch (LuaError e) {
            LuaValue error = e.getMessageObject();
            String err = LuaReplies.errorOf(error);
            return LuaValue.varargsOf(LuaValue.FALSE, err != null ? LuaValue.valueOf(err) : error == null ? LuaValue.NIL : error);
        }
    }
}
