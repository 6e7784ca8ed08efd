package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;

/** A key as a hash-map key: content equality and a hash computed once. */
final class KeyRef {
    private final byte[] key;
    private final int hash;

    KeyRef(byte[] key) {
        this.key = key;
        this.hash = ByteKeys.hash(key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRef && ((KeyRef) o).hash == hash && Arrays.equals(((KeyRef) o).key, key);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
