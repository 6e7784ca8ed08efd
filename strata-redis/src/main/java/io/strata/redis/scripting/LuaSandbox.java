package io.strata.redis.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
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
    private static final List<String> REMOVED = List.of("print", "dofile", "loadfile", "loadstring", "debug", "require",
            "module", "package", "bit32", "rawlen");

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
        LuaCompat.install(g);
        g.rawset("redis", RedisApi.create(run));
        g.rawset("cjson", CJsonLib.create());
        g.rawset("bit", BitLib.create());
        g.rawset("struct", StructLib.create());
        g.rawset("cmsgpack", CMsgPackLib.create());
        g.rawset("KEYS", array(keys));
        g.rawset("ARGV", array(args));
        GlobalsLock.lock(g);
        return g;
    }

    private static LuaTable array(List<byte[]> values) {
        LuaTable t = new LuaTable(values.size(), 0);
        for (int i = 0; i < values.size(); i++) {
            t.rawset(i + 1, LuaString.valueOf(values.get(i)));
        }
        return t;
    }
}
