package com.apple.foundationdb;

/**
 * Test support: the API version is selected once per JVM and a stopped network never
 * restarts, so tests that need either from scratch stop the current instance (closing the
 * databases it opened) and forget it, as a new JVM would start.
 */
final class FreshApi {
    private FreshApi() {}

    /** Stops the selected instance's network, if any, and unselects the API version. */
    static synchronized void reset() {
        FDB current = FDB.singleton;
        if (current != null) {
            current.stopNetwork();
        }
        FDB.singleton = null;
    }

    /** A fresh instance at {@code version}. */
    static FDB select(int version) {
        reset();
        return FDB.selectAPIVersion(version);
    }
}
