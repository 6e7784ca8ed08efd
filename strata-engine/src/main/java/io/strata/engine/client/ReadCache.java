package io.strata.engine.client;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * What a transaction has read from the store, at its read version: FoundationDB's
 * {@code SnapshotCache} ({@code fdbclient/include/fdbclient/SnapshotCache.h}), which
 * {@code ReadYourWritesTransaction} consults before it asks a storage server.
 *
 * <h2>Contents</h2>
 * Known single keys (a point read: the value, or that the key is absent) and known
 * intervals (what a range read or a key selector walked over: every key present in it, with
 * its value). Everything else is unknown. All of it describes the database at the one read
 * version, so nothing here is ever invalidated: the transaction's own writes are laid over it
 * by {@link ReadView}, as RYW's iterator lays its write map over the cache, and learning what
 * is already known changes nothing. It is dropped with the transaction; {@code onError} hands
 * back a fresh one, as RYW's {@code resetRyow} replaces the cache.
 *
 * <h2>Layout</h2>
 * Point reads, the engine's hot path, go to an open-addressing hash table: one hash and one
 * slot per read, no tree — a key looked up and not found is inserted into the slot that
 * lookup probed, without hashing it again. The first point is held in two fields and the
 * table made for the second, so that a transaction of one read pays for one small object. Intervals live in a sorted map from their begin, disjoint (an
 * interval that meets known ones is trimmed to the gaps between them, as
 * {@code SnapshotCache::insert} trims). The first read answered from the cache in key order
 * (a range, a key selector) moves the known points into the sorted map as one-key intervals,
 * so that walks see one ordered structure; points read after that wait in the table until
 * the next such read.
 *
 * <h2>Memory</h2>
 * Nothing is copied: points hold the transaction's own copy of the key and the store's value
 * array; intervals hold the entries the store's iterator returned. Like FoundationDB's, the
 * cache is not bounded: a transaction that reads a million rows keeps them until it ends
 * ({@code read_your_writes_disable} turns it off).
 *
 * <h2>Concurrency</h2>
 * None of its own: like the write map, it is read and changed only under the transaction's
 * monitor, which every read holds while it runs (a read delayed by latency takes it again).
 */
final class ReadCache {
    /** What {@link #get} returns for a key it does not know (compared by identity). */
    static final byte[] UNKNOWN = new byte[0];
    /** A known-absent key in the point table (compared by identity; never handed out). */
    private static final byte[] ABSENT = new byte[0];
    /** The point table's first size: most transactions read a handful of keys. */
    private static final int FIRST_CAPACITY = 8;

    /** A known interval {@code [begin, end)} and its present keys, ascending. */
    static final class Interval {
        final byte[] begin;
        final byte[] end;
        final List<Map.Entry<byte[], byte[]>> rows;

        Interval(byte[] begin, byte[] end, List<Map.Entry<byte[], byte[]>> rows) {
            this.begin = begin;
            this.end = end;
            this.rows = rows;
        }

        boolean contains(byte[] key) {
            return ByteKeys.compare(begin, key) <= 0 && ByteKeys.compare(key, end) < 0;
        }
    }

    /** The first known point, outside the table (its value {@link #ABSENT} when absent); null when none. */
    private byte[] firstKey;
    private byte[] firstValue;

    // Point table: open addressing, linear probing, at most half full (as WrittenKeys).
    private byte[][] keys;
    private int[] hashes;
    private byte[][] values;
    private int size;

    /**
     * The last key {@link #get} did not find in the point table, and the empty slot that ended
     * its probe: {@link #putPoint} of the same array goes there. Cleared by every change of
     * the table.
     */
    private byte[] missedKey;
    private int missedSlot;
    private int missedHash;

    /** Known intervals by begin; disjoint. Null until the first one: point readers never pay for it. */
    private TreeMap<byte[], Interval> intervals;

    /** The value of {@code key}, null when known to be absent, {@link #UNKNOWN} when not known. */
    byte[] get(byte[] key) {
        if (firstKey != null && Arrays.equals(firstKey, key)) {
            return firstValue == ABSENT ? null : firstValue;
        }
        if (size > 0) {
            int hash = ByteKeys.hash(key);
            int i = slotOf(key, hash);
            if (keys[i] != null) {
                byte[] v = values[i];
                return v == ABSENT ? null : v;
            }
            missedKey = key;
            missedSlot = i;
            missedHash = hash;
        }
        if (intervals == null) {
            return UNKNOWN;
        }
        Interval in = containing(key);
        return in == null ? UNKNOWN : valueIn(in, key);
    }

    /**
     * Remembers a point read: {@code value} (null when absent) is what the store holds for
     * {@code key}. {@code key} is kept, so it must not be the caller's array.
     */
    void putPoint(byte[] key, byte[] value) {
        if (firstKey == null) {
            firstKey = key;
            firstValue = value == null ? ABSENT : value;
            return;
        }
        if (key != missedKey && Arrays.equals(firstKey, key)) {
            return;
        }
        if (keys == null) {
            keys = new byte[FIRST_CAPACITY][];
            hashes = new int[FIRST_CAPACITY];
            values = new byte[FIRST_CAPACITY][];
        }
        int hash;
        int i;
        if (key == missedKey) {
            hash = missedHash;
            i = missedSlot;
        } else {
            hash = ByteKeys.hash(key);
            i = slotOf(key, hash);
            if (keys[i] != null) {
                return; // known already, and the same: one snapshot
            }
        }
        missedKey = null;
        if ((size + 1) * 2 > keys.length) {
            grow();
            i = slotOf(key, hash);
        }
        keys[i] = key;
        hashes[i] = hash;
        values[i] = value == null ? ABSENT : value;
        size++;
    }

    /**
     * Remembers that {@code [begin, end)} holds exactly {@code rows} (ascending, each inside
     * the interval). Parts already known are left as they are: the new interval is trimmed
     * to the gap at each of its ends, and known intervals it covers whole are replaced.
     */
    void putRange(byte[] begin, byte[] end, List<Map.Entry<byte[], byte[]>> rows) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        if (intervals == null) {
            intervals = new TreeMap<>(ByteKeys.COMPARATOR);
        }
        // Three descents of the map in the common case (a stretch nothing known touches):
        // this runs for every range read, most of which read a row or two.
        Map.Entry<byte[], Interval> atBegin = intervals.floorEntry(begin);
        if (atBegin != null && ByteKeys.compare(begin, atBegin.getValue().end) < 0) {
            begin = atBegin.getValue().end;
        }
        Map.Entry<byte[], Interval> below = intervals.lowerEntry(end);
        if (below != null && ByteKeys.compare(below.getValue().end, end) > 0) {
            end = below.getKey(); // an interval holds the end: stop where it begins
        }
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        // Intervals inside [begin, end) are known whole: replaced by the new one. The last
        // interval starting below the (untrimmed) end is one of them unless it starts below begin.
        if (below != null && ByteKeys.compare(below.getKey(), begin) >= 0) {
            intervals.subMap(begin, true, end, false).clear();
        }
        int from = lowerBound(rows, begin);
        int to = lowerBound(rows, end);
        List<Map.Entry<byte[], byte[]>> inside = from == 0 && to == rows.size() ? rows : rows.subList(from, to);
        intervals.put(begin, new Interval(begin, end, inside));
    }

    /**
     * Moves the known points into the sorted intervals, as one-key intervals, so that an
     * ordered walk sees them. Called before every walk of the cache in key order.
     */
    void sortPoints() {
        if (firstKey == null) {
            return;
        }
        if (intervals == null) {
            intervals = new TreeMap<>(ByteKeys.COMPARATOR);
        }
        missedKey = null;
        sortPoint(firstKey, firstValue);
        firstKey = null;
        firstValue = null;
        for (int i = 0; size > 0 && i < keys.length; i++) {
            if (keys[i] != null) {
                sortPoint(keys[i], values[i]);
                keys[i] = null;
                values[i] = null;
                size--;
            }
        }
    }

    private void sortPoint(byte[] k, byte[] v) {
        if (containing(k) == null) {
            List<Map.Entry<byte[], byte[]>> row = v == ABSENT ? List.of() : List.of(Map.entry(k, v));
            intervals.put(k, new Interval(k, ByteKeys.keyAfter(k), row));
        }
    }

    /** The interval holding {@code key}, or null (points waiting in the table not included). */
    Interval containing(byte[] key) {
        if (intervals == null) {
            return null;
        }
        Map.Entry<byte[], Interval> e = intervals.floorEntry(key);
        return e != null && ByteKeys.compare(key, e.getValue().end) < 0 ? e.getValue() : null;
    }

    /** The interval holding the keys just below {@code key}: {@code begin < key <= end}, or null. */
    Interval endingAtOrAfter(byte[] key) {
        if (intervals == null) {
            return null;
        }
        Map.Entry<byte[], Interval> e = intervals.lowerEntry(key);
        return e != null && ByteKeys.compare(key, e.getValue().end) <= 0 ? e.getValue() : null;
    }

    /** True when every key of {@code [begin, end)} lies in a known interval (points sorted first). */
    boolean covers(byte[] begin, byte[] end) {
        byte[] pos = begin;
        while (ByteKeys.compare(pos, end) < 0) {
            Interval in = containing(pos);
            if (in == null) {
                return false;
            }
            pos = in.end;
        }
        return true;
    }

    /**
     * The known present keys of {@code [lo, hi)} in one direction, across intervals and
     * whatever gaps lie between them: the caller checks that what it walked was known
     * (points sorted first).
     */
    Iterator<Map.Entry<byte[], byte[]>> rows(byte[] lo, byte[] hi, boolean reverse) {
        return new Rows(lo, hi, reverse);
    }

    private static byte[] valueIn(Interval in, byte[] key) {
        int i = lowerBound(in.rows, key);
        if (i < in.rows.size() && Arrays.equals(in.rows.get(i).getKey(), key)) {
            return in.rows.get(i).getValue();
        }
        return null;
    }

    /** The index of the first row whose key is {@code >= key}. */
    private static int lowerBound(List<Map.Entry<byte[], byte[]>> rows, byte[] key) {
        int lo = 0;
        int hi = rows.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ByteKeys.compare(rows.get(mid).getKey(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int slotOf(byte[] key, int hash) {
        int mask = keys.length - 1;
        int i = hash & mask;
        for (byte[] k; (k = keys[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == hash && Arrays.equals(k, key)) {
                return i;
            }
        }
        return i;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldHashes = hashes;
        byte[][] oldValues = values;
        int capacity = oldKeys.length * 2;
        keys = new byte[capacity][];
        hashes = new int[capacity];
        values = new byte[capacity][];
        int mask = capacity - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = oldHashes[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                hashes[i] = oldHashes[j];
                values[i] = oldValues[j];
            }
        }
    }

    /** Rows of the intervals meeting {@code [lo, hi)}, interval by interval. */
    private final class Rows implements Iterator<Map.Entry<byte[], byte[]>> {
        private final byte[] lo;
        private final byte[] hi;
        private final boolean reverse;
        private final Iterator<Interval> next;
        private List<Map.Entry<byte[], byte[]>> rows = List.of();
        /** Forward: the next index to return; reverse: one past it. */
        private int index;
        private int stop;

        Rows(byte[] lo, byte[] hi, boolean reverse) {
            this.lo = lo;
            this.hi = hi;
            this.reverse = reverse;
            if (intervals == null || ByteKeys.compare(lo, hi) >= 0) {
                next = java.util.Collections.emptyIterator();
            } else if (!reverse) {
                byte[] from = intervals.floorKey(lo);
                next = intervals.subMap(from == null ? lo : from, true, hi, false).values().iterator();
            } else {
                byte[] from = intervals.floorKey(lo);
                next = intervals.subMap(from == null ? lo : from, true, hi, false).descendingMap().values().iterator();
            }
        }

        @Override
        public boolean hasNext() {
            while (index == stop) {
                if (!next.hasNext()) {
                    return false;
                }
                rows = next.next().rows;
                int a = lowerBound(rows, lo);
                int b = lowerBound(rows, hi);
                index = reverse ? b : a;
                stop = reverse ? a : b;
            }
            return true;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return reverse ? rows.get(--index) : rows.get(index++);
        }
    }
}
