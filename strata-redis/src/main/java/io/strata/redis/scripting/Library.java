package io.strata.redis.scripting;

import org.luaj.vm2.Prototype;

import java.util.List;

/**
 * A function library: its name, its code as loaded (with the {@code #!lua name=...} line),
 * the compiled body and the functions the body registers, in registration order. Immutable:
 * parsed once per distinct code and shared by every run.
 */
public record Library(String name, byte[] code, Prototype body, List<FunctionDef> functions) {
    public FunctionDef function(String functionName) {
        for (FunctionDef f : functions) {
            if (f.name().equalsIgnoreCase(functionName)) { // case-insensitive, as in Redis 7.0
                return f;
            }
        }
        return null;
    }
}
