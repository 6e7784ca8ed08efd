package io.strata.redis.tracking;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Redis's {@code TrackingTable}: for each key served to a tracking client, the ids of the
 * clients that may cache it. An entry goes when its key is invalidated (the clients must read
 * it again to be tracked again); ids of clients that have since turned tracking off stay
 * until then, as in Redis, which cleans them lazily. Keys are kept in the order first
 * tracked, which is the order {@link #oldest} evicts them in when the table is over
 * {@code tracking-table-max-keys} (Redis picks them at random).
 *
 * <p>Concurrency: not thread-safe; guarded by the {@link ClientTracking} that owns it.
 */
final class TrackingTable {
    /** A tracked key: its bytes in one keyspace (a namespace's key store). */
    record Key(Object space, ByteBuffer name) {
    }

    private final Map<Key, Set<Long>> byKey = new LinkedHashMap<>();
    private long items;

    /** Records that client {@code id} may cache {@code key}. */
    void add(Key key, long id) {
        if (byKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(id)) {
            items++;
        }
    }

    /** Removes {@code key}; the ids that tracked it, or null when none did. */
    Set<Long> remove(Key key) {
        Set<Long> ids = byKey.remove(key);
        if (ids != null) {
            items -= ids.size();
        }
        return ids;
    }

    /** The key tracked longest, or null when the table is empty. */
    Key oldest() {
        Iterator<Key> it = byKey.keySet().iterator();
        return it.hasNext() ? it.next() : null;
    }

    void clear() {
        byKey.clear();
        items = 0;
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** INFO's {@code tracking_total_keys}. */
    long keys() {
        return byKey.size();
    }

    /** INFO's {@code tracking_total_items}: client ids over all keys. */
    long items() {
        return items;
    }
}
