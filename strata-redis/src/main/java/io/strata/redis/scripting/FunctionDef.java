package io.strata.redis.scripting;

import java.util.Set;

/**
 * A function a library registers: its name, description (null when none) and flags.
 * Immutable.
 */
public record FunctionDef(String name, String description, Set<ScriptFlags.Flag> flags) {
    public boolean noWrites() {
        return flags.contains(ScriptFlags.Flag.NO_WRITES);
    }

    public boolean allowOom() {
        return flags.contains(ScriptFlags.Flag.ALLOW_OOM);
    }
}
