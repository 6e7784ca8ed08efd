package io.strata.engine.client;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The entries of a {@link WriteMap} by key: a hash map, plus a sorted view built on the first
 * ordered access and kept up to date from then on.
 *
 * <p>Most transactions only set keys and read single keys — a layer writing a batch never
 * reads its own writes by range — and a sorted map would make every set pay a tree insertion
 * of some ten key comparisons. Here a set costs one hash insertion until a range read, a
 * range clear or a conflict computation over a range asks for order; then the view is sorted
 * once. Not thread-safe.
 */
final class WrittenKeys<V> {
    /** A key with content equality and its hash computed once. */
    private static final class Key {
        final byte[] bytes;
        final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = ByteKeys.hash(bytes);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).hash == hash && Arrays.equals(((Key) o).bytes, bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final HashMap<Key, V> byKey = new HashMap<>();
    /** Null until the first ordered access; afterwards holds exactly the entries of {@link #byKey}. */
    private TreeMap<byte[], V> sorted;

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    V get(byte[] key) {
        return byKey.get(new Key(key));
    }

    void put(byte[] key, V value) {
        byKey.put(new Key(key), value);
        if (sorted != null) {
            sorted.put(key, value);
        }
    }

    /** Removes every entry in {@code [begin, end)}. */
    void removeRange(byte[] begin, byte[] end) {
        if (byKey.isEmpty() || ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        NavigableMap<byte[], V> inside = sorted().subMap(begin, true, end, false);
        for (byte[] k : inside.keySet()) {
            byKey.remove(new Key(k));
        }
        inside.clear();
    }

    /** All entries in key order (read-only use: writes go through {@link #put}). */
    NavigableMap<byte[], V> sorted() {
        if (sorted == null) {
            TreeMap<byte[], V> view = new TreeMap<>(ByteKeys.COMPARATOR);
            for (Map.Entry<Key, V> e : byKey.entrySet()) {
                view.put(e.getKey().bytes, e.getValue());
            }
            sorted = view;
        }
        return sorted;
    }

    /** An independent copy, each value passed through {@code copyValue}. */
    WrittenKeys<V> copy(UnaryOperator<V> copyValue) {
        WrittenKeys<V> c = new WrittenKeys<>();
        for (Iterator<Map.Entry<Key, V>> it = byKey.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, V> e = it.next();
            c.byKey.put(e.getKey(), copyValue.apply(e.getValue()));
        }
        return c;
    }
}
