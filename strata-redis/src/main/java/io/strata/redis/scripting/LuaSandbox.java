package io.strata.redis.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.CoroutineLib;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.jse.JseBaseLib;
import org.luaj.vm2.lib.jse.JseMathLib;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lua environment of one run, built fresh for every run so that nothing one script does
 * to it reaches another (Redis reaches the same end by locking its one environment). What a
 * script sees is what Redis 7.0 offers: the base functions without {@code print},
 * {@code dofile}, {@code loadfile} and {@code loadstring} (nil, as in 7.0); {@code string},
 * {@code table}, {@code math}, {@code coroutine}; {@code redis} ({@link RedisApi}); {@code cjson},
 * {@code cmsgpack}, {@code struct} and {@code bit};
 * Lua 5.1's {@code unpack}, {@code gcinfo} and {@code table.getn} on luaj's 5.2; Redis's
 * {@code pcall}, which hands back a command error's text rather than its table; and
 * {@code KEYS}/{@code ARGV}. Globals cannot be created ({@code Attempt to modify a readonly
 * table}) and reading an undefined one is an error (Redis's {@code Script attempted to access
 * nonexistent global variable}); the library tables are read-only views.
 */
final class LuaSandbox {
    private static final Pattern LUAJ_POSITION = Pattern.compile("^@([^:\\s]+):(\\d+|\\?) (.*)$", Pattern.DOTALL);
    private static final List<String> REMOVED = List.of("print", "dofile", "loadfile", "loadstring", "debug", "require",
            "module", "package", "bit32", "rawlen");
    private static final List<String> READ_ONLY_LIBRARIES = List.of("redis", "cjson", "bit", "string", "table", "math",
            "coroutine", "struct", "cmsgpack");

    private LuaSandbox() {
    }

    static Globals create(ScriptRun run, ScriptHook hook, List<byte[]> keys, List<byte[]> args) {
        Globals g = new Globals();
        g.load(new JseBaseLib());
        // luaj's libraries register themselves in package.loaded; the package library goes afterwards.
        g.load(new PackageLib());
        g.load(new TableLib());
        g.load(new StringLib());
        g.load(new CoroutineLib());
        g.load(new JseMathLib());
        g.load(hook);
        LoadState.install(g);
        LuaC.install(g);
        for (String name : REMOVED) {
            g.rawset(name, LuaValue.NIL);
        }
        // Lua 5.1 functions scripts written for Redis use, on luaj's 5.2 library.
        LuaValue table = g.rawget("table");
        g.rawset("unpack", table.get("unpack"));
        table.set("getn", RedisApi.fn(a -> LuaValue.valueOf(a.checktable(1).length())));
        LuaValue collect = g.rawget("collectgarbage");
        g.rawset("gcinfo", RedisApi.fn(a -> LuaValue.valueOf((int) collect.call(LuaValue.valueOf("count")).todouble())));
        g.rawset("pcall", RedisApi.fn(a -> pcall(hook, a)));
        // Lua 5.1 writes numbers as %.14g; luaj as Java floats (3.0E-4).
        g.rawset("tostring", RedisApi.fn(a -> tostring(g, a.arg1())));
        table.set("concat", RedisApi.fn(LuaSandbox::concat));
        // error() without a value: luaj's own cannot report it (its error handler gets no text); Redis says "nil".
        LuaValue error = g.rawget("error");
        g.rawset("error", RedisApi.fn(a -> {
            if (a.arg1().isnil()) {
                throw new LuaError(LuaValue.NIL);
            }
            return error.invoke(a);
        }));
        g.rawset("redis", RedisApi.create(run));
        g.rawset("cjson", CJsonLib.create());
        g.rawset("bit", BitLib.create());
        g.rawset("struct", StructLib.create());
        g.rawset("cmsgpack", CMsgPackLib.create());
        g.rawset("KEYS", array(keys));
        g.rawset("ARGV", array(args));
        lockGlobals(g);
        // luaj writes a runtime error's position as "@user_script:1 message"; Lua (and Redis) as "user_script:1: message".
        g.running.errorfunc = RedisApi.fn(a -> LuaValue.valueOf(luaPosition(a.arg1().tojstring())));
        return g;
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

    static String luaPosition(String luajMessage) {
        Matcher m = LUAJ_POSITION.matcher(luajMessage);
        return m.matches() ? m.group(1) + ":" + m.group(2) + ": " + luaWords(m.group(3)) : luajMessage;
    }

    private static final Pattern LUAJ_CALL = Pattern.compile("^attempt to call (nil|boolean|number|string|table)$");
    private static final Pattern LUAJ_ARITHMETIC = Pattern.compile("^attempt to perform arithmetic \\S+ on (\\w+) and (\\w+)$");

    /** Lua 5.1's words for the runtime errors scripts meet most, where luaj words them its own way. */
    private static String luaWords(String message) {
        Matcher call = LUAJ_CALL.matcher(message);
        if (call.matches()) {
            return "attempt to call a " + call.group(1) + " value";
        }
        Matcher arithmetic = LUAJ_ARITHMETIC.matcher(message);
        if (arithmetic.matches()) {
            String bad = arithmetic.group(1).equals("number") ? arithmetic.group(2) : arithmetic.group(1);
            return "attempt to perform arithmetic on a " + bad + " value";
        }
        return message;
    }

    /** Redis's pcall: as Lua's, but a command error comes back as its text, not its table. */
    private static Varargs pcall(ScriptHook hook, Varargs args) {
        LuaValue f = args.checkvalue(1);
        try {
            return LuaValue.varargsOf(LuaValue.TRUE, f.invoke(args.subargs(2)));
        } catch (LuaError e) {
            LuaValue error = e.getMessageObject();
            String err = LuaReplies.errorOf(error);
            return LuaValue.varargsOf(LuaValue.FALSE, err != null ? LuaValue.valueOf(err) : error == null ? LuaValue.NIL : error);
        }
    }

    private static LuaTable array(List<byte[]> values) {
        LuaTable t = new LuaTable(values.size(), 0);
        for (int i = 0; i < values.size(); i++) {
            t.rawset(i + 1, LuaString.valueOf(values.get(i)));
        }
        return t;
    }

    /**
     * Moves every global into a backing table and leaves the globals table empty, with a
     * metatable that reads through to the backing table (an error for a missing name) and
     * refuses every write: Lua calls {@code __newindex} only for absent keys, so an empty
     * table is what makes {@code redis = nil} fail too. The library tables become read-only
     * views, and {@code setmetatable}/{@code rawset} refuse all of these tables.
     */
    private static void lockGlobals(Globals g) {
        Set<LuaValue> locked = Collections.newSetFromMap(new IdentityHashMap<>());
        LuaTable backing = new LuaTable();
        List<LuaValue> names = new ArrayList<>();
        for (Varargs n = g.next(LuaValue.NIL); !n.arg1().isnil(); n = g.next(n.arg1())) {
            backing.rawset(n.arg1(), n.arg(2));
            names.add(n.arg1());
        }
        for (LuaValue name : names) {
            g.rawset(name, LuaValue.NIL);
        }
        LuaTable hiddenMeta = new LuaTable();
        for (String name : READ_ONLY_LIBRARIES) {
            backing.rawset(name, readOnlyView(backing.rawget(name), hiddenMeta, locked));
        }
        backing.rawset("_G", g);
        LuaValue setmetatable = backing.rawget("setmetatable");
        backing.rawset("setmetatable", RedisApi.fn(a -> {
            refuseLocked(locked, a.arg1());
            return setmetatable.invoke(a);
        }));
        LuaValue rawset = backing.rawget("rawset");
        backing.rawset("rawset", RedisApi.fn(a -> {
            refuseLocked(locked, a.arg1());
            return rawset.invoke(a);
        }));
        LuaTable meta = new LuaTable();
        meta.rawset("__index", RedisApi.fn(a -> {
            LuaValue value = backing.rawget(a.arg(2));
            if (!value.isnil()) {
                return value;
            }
            String name = a.arg(2).tojstring();
            if (name.equals("loadstring")) {
                return LuaValue.NIL;
            }
            throw new LuaError("Script attempted to access nonexistent global variable '" + name + "'");
        }));
        meta.rawset("__newindex", READ_ONLY);
        meta.rawset("__metatable", readOnlyView(new LuaTable(), hiddenMeta, locked));
        g.setmetatable(meta);
        locked.add(g);
    }

    private static final LuaValue READ_ONLY = RedisApi.fn(a -> {
        throw new LuaError("Attempt to modify a readonly table");
    });

    private static void refuseLocked(Set<LuaValue> locked, LuaValue table) {
        if (locked.contains(table)) {
            throw new LuaError("Attempt to modify a readonly table");
        }
    }

    /** A table that reads through to {@code library} and refuses writes. */
    private static LuaValue readOnlyView(LuaValue library, LuaTable hiddenMeta, Set<LuaValue> locked) {
        LuaTable view = new LuaTable();
        LuaTable meta = new LuaTable();
        meta.rawset("__index", library);
        meta.rawset("__newindex", READ_ONLY);
        meta.rawset("__metatable", hiddenMeta);
        view.setmetatable(meta);
        locked.add(view);
        locked.add(hiddenMeta);
        return view;
    }
}
