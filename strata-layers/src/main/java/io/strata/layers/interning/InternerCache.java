package io.strata.layers.interning;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * breaks the premise; a new interner (a new cache) is then needed.
 *
 * <h2>Eviction</h2>
 * {@value #SEGMENTS} segments by hash, each a {@link LinkedHashMap} in access order holding
 * at most {@code capacity / SEGMENTS} entries per direction and dropping its least recently
 * used one: LRU per segment, approximately LRU overall.
 *
 * <h2>Concurrency</h2>
 * Each segment is guarded by its own monitor; operations touch one segment per direction.
 * Stored arrays are copies and are never handed out, so callers cannot alter them.
 */
final class InternerCache {
    /** Enough segments that two cores rarely meet on one monitor; few enough to stay small. */
    static final int SEGMENTS = 16;

    private final Segment<Key, Long>[] forward;
    private final Segment<Long, byte[]>[] reverse;

    @SuppressWarnings("unchecked")
    InternerCache(int capacity) {
        if (capacity < SEGMENTS) {
            throw new IllegalArgumentException("cache capacity must be at least " + SEGMENTS + ": " + capacity);
        }
        int perSegment = capacity / SEGMENTS;
        forward = new Segment[SEGMENTS];
        reverse = new Segment[SEGMENTS];
        for (int i = 0; i < SEGMENTS; i++) {
            forward[i] = new Segment<>(perSegment);
            reverse[i] = new Segment<>(perSegment);
        }
    }

    /** The cached ID of {@code string}, or null. */
    Long id(byte[] string) {
        Key k = new Key(string);
        Segment<Key, Long> s = forward[k.hash & (SEGMENTS - 1)];
        synchronized (s) {
            return s.get(k);
        }
    }

    /** A copy of the cached string of {@code id}, or null. */
    byte[] string(long id) {
        Segment<Long, byte[]> s = reverse[spread(id)];
        byte[] v;
        synchronized (s) {
            v = s.get(id);
        }
        return v == null ? null : v.clone();
    }

    /** Records a committed mapping. */
    void put(byte[] string, long id) {
        byte[] copy = string.clone();
        Key k = new Key(copy);
        Segment<Key, Long> f = forward[k.hash & (SEGMENTS - 1)];
        synchronized (f) {
            f.put(k, id);
        }
        Segment<Long, byte[]> r = reverse[spread(id)];
        synchronized (r) {
            r.put(id, copy);
        }
    }

    /** Entries held per direction (for tests). */
    int size() {
        int n = 0;
        for (Segment<Key, Long> s : forward) {
            synchronized (s) {
                n += s.size();
            }
        }
        return n;
    }

    private static int spread(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 60) & (SEGMENTS - 1);
    }

    private static final class Segment<K, V> extends LinkedHashMap<K, V> {
        private final int limit;

        Segment(int limit) {
            super(16, 0.75f, true);
            this.limit = limit;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > limit;
        }
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
