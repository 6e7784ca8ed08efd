package io.strata.layers.interning;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded in-process cache of committed mappings, string to ID and ID to string, for one
 * {@link StringInterner} on one database.
 *
 * <h2>Why it can never serve a wrong mapping</h2>
 * The interner never changes or deletes a mapping once committed, so a mapping known to be
 * committed is true forever; the interner puts only such mappings here: those it read in a
 * transaction that wrote nothing of its own (a {@code Database}-level find or lookup), and
 * those returned by a {@code Database}-level intern after its commit succeeded. Mappings
 * seen inside a caller's transaction are never put here: that transaction may yet fail, and
 * what it read may be its own uncommitted write. Clearing the interner's subspace by hand
 * breaks the premise; a new interner (a new cache) is then needed. Because every entry is
 * true forever, races between puts and evictions can only drop true entries or keep them a
 * little longer, never make one false.
 *
 * <h2>Eviction</h2>
 * First in, first out: a put of a new string appends it to a queue, and while more than
 * {@code capacity} strings are held the oldest is removed from both maps. A hot string that
 * was evicted costs one database read and comes back. FIFO rather than LRU so that a hit is
 * a plain lock-free {@link ConcurrentHashMap#get} that changes nothing: on the engine a
 * database read costs well under a microsecond, and an LRU's bookkeeping on every hit would
 * cost as much as the read it saves.
 *
 * <h2>Concurrency</h2>
 * Lock-free. The bound is approximate by the number of threads putting at the same moment.
 * Stored arrays are copies and are never handed out, so callers cannot alter them.
 */
final class InternerCache {
    private final int capacity;
    private final ConcurrentHashMap<Key, Long> forward;
    private final ConcurrentHashMap<Long, byte[]> reverse;
    private final ConcurrentLinkedQueue<Key> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    InternerCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        int initial = Math.min(capacity, 1 << 16); // grow with use, not all at once for a large bound
        this.forward = new ConcurrentHashMap<>(initial);
        this.reverse = new ConcurrentHashMap<>(initial);
    }

    /** The cached ID of {@code string}, or null. */
    Long id(byte[] string) {
        return forward.get(new Key(string));
    }

    /** A copy of the cached string of {@code id}, or null. */
    byte[] string(long id) {
        byte[] v = reverse.get(id);
        return v == null ? null : v.clone();
    }

    /** Records a committed mapping. */
    void put(byte[] string, long id) {
        byte[] copy = string.clone();
        Key k = new Key(copy);
        if (forward.putIfAbsent(k, id) != null) {
            return; // already held (and equal: mappings never change)
        }
        reverse.put(id, copy);
        order.add(k);
        if (size.incrementAndGet() > capacity) {
            evictOne();
        }
    }

    private void evictOne() {
        Key oldest = order.poll();
        if (oldest == null) {
            return;
        }
        Long id = forward.remove(oldest);
        if (id != null) {
            reverse.remove(id);
        }
        size.decrementAndGet();
    }

    /** Strings held (for tests). */
    int size() {
        return size.get();
    }

    /** A byte string as a map key: content equality, hash computed once. */
    static final class Key {
        final byte[] bytes;
        final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            int h = Arrays.hashCode(bytes);
            this.hash = h ^ (h >>> 16);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
