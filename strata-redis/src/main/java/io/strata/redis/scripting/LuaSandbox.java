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

/**
 * The Lua environment of one run, built fresh for every run so that nothing one script does
 * to it reaches another (Redis reaches the same end by locking its one environment). What a
 * script sees is what Redis 7.0 offers: the base functions without {@code print},
 * {@code dofile} and {@code loadfile}, {@code loadstring} of text chunks only; {@code string},
 * {@code table}, {@code math}, {@code coroutine}; {@code redis} ({@link RedisApi}); {@code cjson},
 * {@code cmsgpack}, {@code struct} and {@code bit};
 * Lua 5.1's {@code unpack}, {@code gcinfo} and {@code table.getn} on luaj's 5.2; Redis's
 * {@code pcall}, which hands back a command error's text rather than its table; and
 * {@code KEYS}/{@code ARGV}. Globals cannot be created ({@code Attempt to modify a readonly
 * table}) and reading an undefined one is an error (Redis's {@code Script attempted to access
 * nonexistent global variable}); the library tables are read-only views.
 */
final class LuaSandbox {
    private static final List<String> REMOVED = List.of("print", "dofile", "loadfile", "loadstring", "debug", "require",
            "module", "package", "bit32", "rawlen");

    private LuaSandbox() {
    }

    /**
     * The environment of a run: {@code KEYS}/{@code ARGV} globals when given (EVAL; functions
     * get them as arguments), {@code redis.register_function} when {@code registrar} is given.
     */
    static Globals create(ScriptRun run, ScriptHook hook, List<byte[]> keys, List<byte[]> args, FunctionRegistrar registrar) {
        Globals g = build(run, hook, keys, args, registrar);
        GlobalsLock.lock(g);
        return g;
    }

    /** {@link #create} before its globals are locked. */
    private static Globals build(ScriptRun run, ScriptHook hook, List<byte[]> keys, List<byte[]> args,
                                 FunctionRegistrar registrar) {
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
        g.rawset("loadstring", RedisApi.fn(a -> loadString(g, a)));
        // luaj's load also takes precompiled chunks (its mode defaults to "bt"); Redis's Lua
        // loads none, and crafted bytecode must not get past the sandbox: text only.
        LuaValue load = g.rawget("load");
        g.rawset("load", RedisApi.fn(a -> load.invoke(LuaValue.varargsOf(new LuaValue[] {a.arg(1), a.arg(2),
                LuaValue.valueOf("t"), a.narg() >= 4 ? a.arg(4) : g}))));
        LuaCompat.install(g);
        LuaTable redis = RedisApi.create(run);
        if (registrar != null) {
            redis.rawset("register_function", registrar.function());
        }
        g.rawset("redis", redis);
        g.rawset("cjson", CJsonLib.create());
        g.rawset("bit", BitLib.create());
        g.rawset("struct", StructLib.create());
        g.rawset("cmsgpack", CMsgPackLib.create());
        if (keys != null) {
            g.rawset("KEYS", array(keys));
            g.rawset("ARGV", array(args));
        }
        return g;
    }

    /**
     * Lua 5.1's {@code loadstring(s [, chunkname])}, which Redis 7.0 keeps: the chunk compiled
     * as text in the script's environment, or nil and the error. Text only, as Redis's Lua
     * parses every chunk as text (a binary chunk is a syntax error there), so a script cannot
     * load bytecode that escapes the sandbox.
     */
    private static Varargs loadString(Globals g, Varargs a) {
        LuaString chunk = a.checkstring(1);
        String name = a.isnoneornil(2) ? chunk.tojstring() : a.checkjstring(2);
        try {
            return g.load(chunk.toInputStream(), name, "t", g);
        } catch (LuaError e) {
            return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf(LuaCompat.compileError(e.getMessage())));
        }
    }

    /** An FCALL's environment: its globals, and what to do once the library's body has run. */
    record CallEnvironment(Globals globals, Runnable bodyDone) {
    }

    /**
     * The environment of an FCALL, which runs the library's body again before the function:
     * during the body {@code redis} also has {@code register_function} (collecting the
     * callbacks into {@code registrar}); once it has run ({@link CallEnvironment#bodyDone}),
     * the global {@code redis} is the run-time API without it, as the function sees it in
     * Redis, and a {@code register_function} the body kept a reference to raises Redis's
     * {@code can only be called on FUNCTION LOAD command}.
     */
    static CallEnvironment createForCall(ScriptRun run, ScriptHook hook, FunctionRegistrar registrar) {
        Globals g = build(run, hook, null, null, registrar);
        GlobalsLock.Locked locked = GlobalsLock.lock(g);
        LuaTable runtime = RedisApi.create(run);
        return new CallEnvironment(g, () -> {
            registrar.close();
            locked.replaceLibrary("redis", runtime);
        });
    }

    /**
     * The environment a library's body runs in at FUNCTION LOAD, as Redis's: nothing but a
     * {@code redis} table with {@code register_function}, {@code log} and its levels and the
     * version; anything else is a nonexistent global (or field).
     */
    static Globals createForLoad(ScriptRun run, ScriptHook hook, FunctionRegistrar registrar) {
        LuaTable full = RedisApi.create(run);
        Globals load = new Globals();
        load.load(new JseBaseLib());
        load.load(new PackageLib());
        load.load(hook);
        for (Varargs n = load.next(LuaValue.NIL); !n.arg1().isnil(); n = load.next(n.arg1())) {
            load.rawset(n.arg1(), LuaValue.NIL);
        }
        LuaTable redis = new LuaTable();
        redis.rawset("register_function", registrar.function());
        for (String name : new String[] {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION",
                "REDIS_VERSION_NUM"}) {
            redis.rawset(name, full.rawget(name));
        }
        LuaTable meta = new LuaTable();
        meta.rawset("__index", RedisApi.fn(a -> {
            throw new LuaError("Script attempted to access nonexistent global variable '" + a.arg(2).tojstring() + "'");
        }));
        redis.setmetatable(meta);
        load.rawset("redis", redis);
        GlobalsLock.lock(load);
        LuaCompat.installErrorText(load);
        return load;
    }

    static LuaTable array(List<byte[]> values) {
        LuaTable t = new LuaTable(values.size(), 0);
        for (int i = 0; i < values.size(); i++) {
            t.rawset(i + 1, LuaString.valueOf(values.get(i)));
        }
        return t;
    }
}
