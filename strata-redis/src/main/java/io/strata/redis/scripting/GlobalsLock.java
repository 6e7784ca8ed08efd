package io.strata.redis.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Redis's read-only globals on luaj, which has no read-only tables: the globals table is left
 * empty and reads through a metatable, the libraries become read-only views. Messages are
 * Redis's: {@code Attempt to modify a readonly table}, {@code Script attempted to access
 * nonexistent global variable 'x'}. Built per run, confined to its thread.
 */
final class GlobalsLock {
    private static final List<String> READ_ONLY_LIBRARIES = List.of("redis", "cjson", "bit", "string", "table", "math",
            "coroutine", "struct", "cmsgpack");

    private GlobalsLock() {
    }

    /**
     * Moves every global into a backing table and leaves the globals table empty, with a
     * metatable that reads through to the backing table (an error for a missing name) and
     * refuses every write: Lua calls {@code __newindex} only for absent keys, so an empty
     * table is what makes {@code redis = nil} fail too. The library tables become read-only
     * views, and {@code setmetatable}/{@code rawset} refuse all of these tables.
     */
    static Locked lock(Globals g) {
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
            LuaValue library = backing.rawget(name);
            if (!library.isnil()) {
                backing.rawset(name, readOnlyView(library, hiddenMeta, locked));
            }
        }
        backing.rawset("_G", g);
        LuaValue setmetatable = backing.rawget("setmetatable");
        if (!setmetatable.isnil()) {
            backing.rawset("setmetatable", RedisApi.fn(a -> {
                refuseLocked(locked, a.arg1());
                return setmetatable.invoke(a);
            }));
        }
        LuaValue rawset = backing.rawget("rawset");
        if (!rawset.isnil()) {
            backing.rawset("rawset", RedisApi.fn(a -> {
                refuseLocked(locked, a.arg1());
                return rawset.invoke(a);
            }));
        }
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
        return (name, library) -> backing.rawset(name, readOnlyView(library, hiddenMeta, locked));
    }

    /** Locked globals, whose read-only libraries only Java can still replace. */
    @FunctionalInterface
    interface Locked {
        /** Makes global {@code name} a read-only view of {@code library} from now on. */
        void replaceLibrary(String name, LuaTable library);
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
