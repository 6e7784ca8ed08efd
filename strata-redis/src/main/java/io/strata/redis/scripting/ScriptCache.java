package io.strata.redis.scripting;

import io.strata.redis.protocol.RedisException;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.compiler.LuaC;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scripts EVAL and SCRIPT LOAD compiled, by SHA1: in this process's memory only, as
 * Redis keeps them (lost on restart, not shared with other servers on the same database;
 * clients answer NOSCRIPT by sending the body again). A concurrent map: two clients loading
 * the same script at once compile it twice and keep one, which is harmless.
 */
public final class ScriptCache {
    /** The chunk name Redis gives scripts, so errors say {@code user_script:1:}. */
    static final String CHUNK_NAME = "@user_script";

    private final Map<String, CompiledScript> scripts = new ConcurrentHashMap<>();

    /** The script with this SHA1 (any case), or null. */
    public CompiledScript get(String sha) {
        return scripts.get(sha.toLowerCase(Locale.ROOT));
    }

    /** Compiles and caches {@code body} unless cached; Redis's errors for a bad shebang or code. */
    public CompiledScript load(byte[] body) {
        String sha = Sha1.hex(body);
        CompiledScript cached = scripts.get(sha);
        if (cached != null) {
            return cached;
        }
        ScriptFlags flags = ScriptFlags.of(body);
        // The shebang line is skipped but its line feed kept, so line numbers match the body's.
        byte[] code = Arrays.copyOfRange(body, flags.shebangLength(), body.length);
        Prototype prototype;
        try {
            prototype = LuaC.instance.compile(new ByteArrayInputStream(code), CHUNK_NAME);
        } catch (LuaError | IOException e) {
            throw new RedisException("ERR Error compiling script (new function): " + LuaCompat.compileError(e.getMessage()));
        }
        CompiledScript script = new CompiledScript(sha, body, flags, prototype);
        CompiledScript raced = scripts.putIfAbsent(sha, script);
        return raced != null ? raced : script;
    }

    public void flush() {
        scripts.clear();
    }

    public int size() {
        return scripts.size();
    }

    /** Bytes of script bodies held ({@code used_memory_scripts_eval} in INFO). */
    public long bodyBytes() {
        long n = 0;
        for (CompiledScript s : scripts.values()) {
            n += s.body().length + 40;
        }
        return n;
    }
}
