package io.strata.redis.tracking;

import io.strata.redis.command.ClientSession;

import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A connection with tracking on: its options, the keyspace it reads (its namespace's key
 * store, so that keys of different namespaces never meet), its BCAST prefixes, whether
 * {@code CLIENT CACHING} was just given, and whether its redirection target has gone.
 *
 * <p>Concurrency: guarded by the {@link ClientTracking} that owns it; {@link #options} and
 * {@link #caching} are also read without that lock, so they are volatile.
 */
final class TrackedClient {
    final ClientSession session;
    final Object space;
    /** Volatile: read without the lock by the check each command makes. */
    volatile TrackingOptions options;
    final Set<ByteBuffer> prefixes = new LinkedHashSet<>();
    volatile boolean caching;
    boolean brokenRedirect;

    TrackedClient(ClientSession session, Object space, TrackingOptions options) {
        this.session = session;
        this.space = space;
        this.options = options;
    }

    long id() {
        return session.id();
    }
}
