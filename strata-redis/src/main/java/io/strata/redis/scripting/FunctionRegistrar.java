package io.strata.redis.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code redis.register_function}, in both of its forms ({@code (name, callback)} and a table
 * of named arguments {@code function_name}, {@code callback}, {@code flags},
 * {@code description}), with Redis 7.0's checks and error texts. It collects what a library's
 * body registers: the definitions at FUNCTION LOAD, the callbacks when a function is called
 * (the body runs again in the call's environment). Confined to the run's thread.
 */
final class FunctionRegistrar {
    private final Map<String, FunctionDef> definitions = new LinkedHashMap<>();
    private final Map<String, LuaFunction> callbacks = new LinkedHashMap<>();
    /** Set once the library's body has run: registering is over. */
    private boolean closed;

    /** Ends registration: a later call raises Redis's error (a reference the body kept, called from a function). */
    void close() {
        closed = true;
    }

    LuaValue function() {
        return RedisApi.fn(this::register);
    }

    List<FunctionDef> definitions() {
        return new ArrayList<>(definitions.values());
    }

    LuaFunction callback(String name) {
        return callbacks.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    private Varargs register(Varargs a) {
        if (closed) {
            throw RedisApi.raise("redis.register_function can only be called on FUNCTION LOAD command");
        }
        String name;
        String description = null;
        LuaValue callback;
        Set<ScriptFlags.Flag> flags = EnumSet.noneOf(ScriptFlags.Flag.class);
        if (a.narg() < 1 || a.narg() > 2) {
            throw RedisApi.raise("wrong number of arguments to redis.register_function");
        }
        if (a.narg() == 2) {
            if (!a.arg1().isstring()) {
                throw RedisApi.raise("first argument to redis.register_function must be a string");
            }
            if (!a.arg(2).isfunction()) {
                throw RedisApi.raise("second argument to redis.register_function must be a function");
            }
            name = a.arg1().tojstring();
            callback = a.arg(2);
        } else {
            if (!a.arg1().istable()) {
                throw RedisApi.raise("calling redis.register_function with a single argument is only applicable to "
                        + "Lua table (representing named arguments).");
            }
            name = null;
            callback = null;
            LuaValue t = a.arg1();
            for (Varargs n = t.next(LuaValue.NIL); !n.arg1().isnil(); n = t.next(n.arg1())) {
                if (!n.arg1().isstring()) {
                    throw RedisApi.raise("named argument key given to redis.register_function is not a string");
                }
                String key = n.arg1().tojstring().toLowerCase(Locale.ROOT);
                LuaValue value = n.arg(2);
                switch (key) {
                    case "function_name" -> {
                        if (!value.isstring()) {
                            throw RedisApi.raise("function_name argument given to redis.register_function must be a string");
                        }
                        name = value.tojstring();
                    }
                    case "description" -> {
                        if (!value.isstring()) {
                            throw RedisApi.raise("description argument given to redis.register_function must be a string");
                        }
                        description = value.tojstring();
                    }
                    case "callback" -> {
                        if (!value.isfunction()) {
                            throw RedisApi.raise("callback argument given to redis.register_function must be a function");
                        }
                        callback = value;
                    }
                    case "flags" -> {
                        if (!value.istable()) {
                            throw RedisApi.raise("flags argument to redis.register_function must be a table representing function flags");
                        }
                        flags = flags(value);
                    }
                    default -> throw RedisApi.raise("unknown argument given to redis.register_function");
                }
            }
            if (name == null) {
                throw RedisApi.raise("redis.register_function must get a function name argument");
            }
            if (callback == null) {
                throw RedisApi.raise("redis.register_function must get a callback argument");
            }
        }
        if (!LibraryMetadata.validName(name)) {
            throw new LuaError(LuaReplies.errorTable(LibraryMetadata.BAD_NAME));
        }
        // Function names are case-insensitive, as in Redis 7.0 (FCALL TEST calls test).
        String key = name.toLowerCase(java.util.Locale.ROOT);
        if (definitions.containsKey(key)) {
            throw RedisApi.raise("Function already exists in the library");
        }
        definitions.put(key, new FunctionDef(name, description, flags));
        callbacks.put(key, (LuaFunction) callback);
        return LuaValue.NONE;
    }

    private static Set<ScriptFlags.Flag> flags(LuaValue table) {
        Set<ScriptFlags.Flag> flags = EnumSet.noneOf(ScriptFlags.Flag.class);
        for (Varargs n = table.next(LuaValue.NIL); !n.arg1().isnil(); n = table.next(n.arg1())) {
            ScriptFlags.Flag flag = n.arg(2).type() == LuaValue.TSTRING ? ScriptFlags.flagNamed(n.arg(2).tojstring()) : null;
            if (flag == null) {
                throw RedisApi.raise("unknown flag given");
            }
            flags.add(flag);
        }
        return flags;
    }
}
