package io.strata.engine.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Field handles for the store's ordered (release, opaque) writes. */
final class Handles {
    private Handles() {
    }

    /**
     * The handle of field {@code name} of {@code owner}; {@code lookup} must be one that sees
     * it (the owner's own, for a private field). For static initialisers: a missing field is
     * a programming error, raised as one.
     */
    static VarHandle field(MethodHandles.Lookup lookup, Class<?> owner, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
