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

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lua environment of one run, built fresh for every run so that nothing one script does
 * to it reaches another (Redis reaches the same end by locking its one environment). What a
 * script sees is what Redis 7.0 offers: the base functions without {@code print},
 * {@code dofile}, {@code loadfile} and {@code loadstring} (nil, as in 7.0); {@code string},
 * {@code table}, {@code math}, {@code coroutine}; {@code redis} ({@link RedisApi}); {@code cjson}
 * and {@code bit}; {@code struct} and {@code cmsgpack} exist but say they are not supported;
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
        g.rawset("struct", unsupported("struct"));
        g.rawset("cmsgpack", unsupported("cmsgpack"));
        g.rawset("KEYS", array(keys));
        g.rawset("ARGV", array(args));
        for (String name : READ_ONLY_LIBRARIES) {
            g.rawset(name, readOnlyView(g.rawget(name)));
        }
        g.setmetatable(globalsGuard());
        // luaj writes a runtime error's position as "@user_script:1 message"; Lua (and Redis) as "user_script:1: message".
        g.running.errorfunc = RedisApi.fn(a -> LuaValue.valueOf(luaPosition(a.arg1().tojstring())));
        return g;
    }

    static String luaPosition(String luajMessage) {
        Matcher m = LUAJ_POSITION.matcher(luajMessage);
        return m.matches() ? m.group(1) + ":" + m.group(2) + ": " + m.group(3) : luajMessage;
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

    private static LuaTable globalsGuard() {
        LuaTable meta = new LuaTable();
        meta.rawset("__index", RedisApi.fn(a -> {
            String name = a.arg(2).tojstring();
            if (name.equals("loadstring")) {
                return LuaValue.NIL;
            }
            throw new LuaError("Script attempted to access nonexistent global variable '" + name + "'");
        }));
        meta.rawset("__newindex", RedisApi.fn(a -> {
            throw new LuaError("Attempt to modify a readonly table");
        }));
        meta.rawset("__metatable", LuaValue.FALSE);
        return meta;
    }

    /** A table that reads through to {@code library} and refuses writes. */
    private static LuaValue readOnlyView(LuaValue library) {
        LuaTable view = new LuaTable();
        LuaTable meta = new LuaTable();
        meta.rawset("__index", library);
        meta.rawset("__newindex", RedisApi.fn(a -> {
            throw new LuaError("Attempt to modify a readonly table");
        }));
        meta.rawset("__metatable", LuaValue.FALSE);
        view.setmetatable(meta);
        return view;
    }

    /** A library Redis has and this server does not: any use says so. */
    private static LuaTable unsupported(String name) {
        LuaTable lib = new LuaTable();
        LuaTable meta = new LuaTable();
        meta.rawset("__index", RedisApi.fn(a -> {
            throw new LuaError("The " + name + " library is not supported by Strata's Lua scripting");
        }));
        lib.setmetatable(meta);
        return lib;
    }
}
