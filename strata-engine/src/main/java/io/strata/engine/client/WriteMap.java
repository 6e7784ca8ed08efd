package io.strata.engine.client;

import io.strata.engine.commit.Mutation;
import io.strata.engine.mutation.AtomicOps;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A transaction's own writes, as reads must see them (read-your-writes).
 *
 * <p>Each written key has an {@link Entry}: a <em>known</em> value (set, cleared, or an
 * atomic operation on top of a known value — FoundationDB calls these independent), a list
 * of atomic operations on a value only the database knows (dependent: reading it reads the
 * stored value and applies them), or <em>unreadable</em> (a versionstamped value, which
 * exists only after commit). Cleared ranges are kept as disjoint intervals; an entry inside
 * a cleared range wins over it. Ranges that may hold a versionstamped key are unreadable.
 *
 * <p>Known segments answer reads without a read conflict range; FoundationDB's RYW cache
 * does the same ({@code updateConflictMap} adds only unmodified and dependent segments).
 * Not thread-safe: a transaction is used by one thread at a time.
 */
final class WriteMap {
    enum Kind { KNOWN, DEPENDENT, UNREADABLE }

    /** The state of one written key. */
    static final class Entry {
        final Kind kind;
        /** For KNOWN: the value, null when cleared. */
        final byte[] value;
        /** For DEPENDENT: atomic operations (code, param) in order. */
        final List<Mutation> ops;
        /**
         * Where, in the transaction's mutations, a mutation of exactly this key sits (the one
         * that made this entry), or -1: a later set, clear or versionstamped value of the key
         * makes that mutation dead ({@link EngineTransaction#overwrote}).
         */
        final int mutation;
        /**
         * Whether the transaction has recorded this key's single-key write conflict range since
         * the key got an entry: a later write of the key need not record it again (RYW keeps
         * write conflicts coalesced; a batch of a thousand sets of one key sends one range).
         * A fact about the transaction that never becomes false, so it may be set on an entry
         * an older copy of the map shares.
         */
        boolean conflictRecorded;

        private Entry(Kind kind, byte[] value, List<Mutation> ops, int mutation) {
            this.kind = kind;
            this.value = value;
            this.ops = ops;
            this.mutation = mutation;
        }

        private Entry copyDependent() {
            Entry c = new Entry(Kind.DEPENDENT, null, new ArrayList<>(ops), mutation);
            c.conflictRecorded = conflictRecorded;
            return c;
        }

        /** Applies the pending atomic operations to the stored value. */
        byte[] resolve(byte[] stored) {
            byte[] v = stored;
            for (Mutation m : ops) {
                v = AtomicOps.apply(m.type(), v, m.param());
            }
            return v;
        }
    }

    private WrittenKeys<Entry> entries = new WrittenKeys<>();
    /** Disjoint cleared intervals, begin -> end. */
    private final TreeMap<byte[], byte[]> cleared = new TreeMap<>(ByteKeys.COMPARATOR);
    /** Intervals that may hold a versionstamped key, begin -> end (may overlap). */
    private final TreeMap<byte[], byte[]> unreadable = new TreeMap<>(ByteKeys.COMPARATOR);
    /**
     * The union of {@link #unreadable}, as disjoint intervals, begin -> end, for
     * {@link #inUnreadableRange}: one lookup instead of a walk over every interval below the
     * key. A transaction that writes a versionstamped key per command (a Redis server's change
     * stamps) and reads after each had made its reads quadratic (a DEL of 20,000 keys ran for
     * minutes).
     */
    private final TreeMap<byte[], byte[]> unreadableUnion = new TreeMap<>(ByteKeys.COMPARATOR);

    /**
     * An independent copy: later writes to either do not show in the other. Known and
     * unreadable entries are immutable and shared; dependent entries, whose operation lists
     * grow in place, are copied.
     */
    WriteMap copy() {
        WriteMap c = new WriteMap();
        c.entries = entries.copy(v -> v.kind == Kind.DEPENDENT ? v.copyDependent() : v);
        c.cleared.putAll(cleared);
        c.unreadable.putAll(unreadable);
        c.unreadableUnion.putAll(unreadableUnion);
        return c;
    }

    boolean isEmpty() {
        return entries.isEmpty() && cleared.isEmpty() && unreadable.isEmpty();
    }

    /**
     * Records a set of {@code key}, the transaction's mutation number {@code mutation}, which
     * records the key's write conflict if {@code conflict}; returns the entry it replaced, or
     * null.
     */
    Entry set(byte[] key, byte[] value, int mutation, boolean conflict) {
        return put(key, new Entry(Kind.KNOWN, value, null, mutation), conflict);
    }

    /** {@link #set} for {@code clear(key)}. */
    Entry clear(byte[] key, int mutation, boolean conflict) {
        return put(key, new Entry(Kind.KNOWN, null, null, mutation), conflict);
    }

    /** {@link #set} for a versionstamped value, which is unreadable until commit. */
    Entry setVersionstampedValue(byte[] key, int mutation, boolean conflict) {
        return put(key, new Entry(Kind.UNREADABLE, null, null, mutation), conflict);
    }

    /** Whether a write of a key with entry {@code e} (null: none) must record the key's write conflict. */
    static boolean conflictNeeded(Entry e, boolean conflict) {
        return conflict && (e == null || !e.conflictRecorded);
    }

    private Entry put(byte[] key, Entry e, boolean conflict) {
        Entry previous = entries.put(key, e);
        e.conflictRecorded = conflict || previous != null && previous.conflictRecorded;
        return previous;
    }

    void clearRange(byte[] begin, byte[] end) {
        entries.removeRange(begin, end);
        Intervals.addMerged(cleared, begin, end);
        // A clear makes a possibly-versionstamped range plainly empty again for keys it covers.
        if (unreadable.subMap(begin, true, end, false).entrySet().removeIf(r -> ByteKeys.compare(r.getValue(), end) <= 0)) {
            unreadableUnion.clear();
            unreadable.forEach((b, e) -> Intervals.addMerged(unreadableUnion, b, e));
        }
    }

    /**
     * Records atomic operation {@code code} on {@code key}, the transaction's mutation number
     * {@code mutation}, which records the key's write conflict if {@code conflict}; returns
     * whether the caller must record that range (see {@link #conflictNeeded}).
     */
    boolean atomic(int code, byte[] key, byte[] param, int mutation, boolean conflict) {
        Entry e = entries.get(key);
        if (e == null) {
            Entry made;
            if (isCleared(key)) {
                made = new Entry(Kind.KNOWN, AtomicOps.apply(code, null, param), null, mutation);
            } else {
                List<Mutation> ops = new ArrayList<>(2);
                ops.add(new Mutation(code, key, param));
                made = new Entry(Kind.DEPENDENT, null, ops, mutation);
            }
            made.conflictRecorded = conflict;
            entries.put(key, made);
            return conflict;
        }
        boolean needed = conflictNeeded(e, conflict);
        switch (e.kind) {
            case KNOWN:
                put(key, new Entry(Kind.KNOWN, AtomicOps.apply(code, e.value, param), null, mutation), conflict);
                break;
            case DEPENDENT:
                // In place: copies do not share dependent entries. Its mutation stays the first
                // operation's; a later set makes only that one dead, which is all it needs to.
                addOperation(e.ops, new Mutation(code, key, param));
                e.conflictRecorded |= conflict;
                break;
            default:
                // An operation on a versionstamped value stays unreadable until commit.
                e.conflictRecorded |= conflict;
                break;
        }
        return needed;
    }

    /**
     * Appends an atomic operation to a dependent entry's list; an ADD of the same width as the
     * ADD before it is folded into that one (adding a then b to any value of that width is
     * adding a + b, modulo the width), so a key added to thousands of times in one transaction
     * — a ranked set's level counts when a sorted set takes twenty thousand members in one
     * ZADD — is read by applying one operation, not thousands, and such a command stays
     * linear instead of quadratic. The mutations the commit sends are untouched.
     */
    private static void addOperation(List<Mutation> ops, Mutation op) {
        Mutation last = ops.get(ops.size() - 1);
        if (op.type() == AtomicOps.ADD && last.type() == AtomicOps.ADD && last.param().length == op.param().length) {
            ops.set(ops.size() - 1, new Mutation(AtomicOps.ADD, op.key(), AtomicOps.apply(AtomicOps.ADD, last.param(), op.param())));
        } else {
            ops.add(op);
        }
    }

    void addUnreadableRange(byte[] begin, byte[] end) {
        if (ByteKeys.compare(begin, end) < 0) {
            byte[] old = unreadable.get(begin);
            unreadable.put(begin, old == null ? end : ByteKeys.max(old, end));
            Intervals.addMerged(unreadableUnion, begin, end);
        }
    }

    /** The entry for {@code key}, or null when the transaction did not write it. */
    Entry entry(byte[] key) {
        return entries.get(key);
    }

    boolean isCleared(byte[] key) {
        Map.Entry<byte[], byte[]> r = cleared.floorEntry(key);
        return r != null && ByteKeys.compare(key, r.getValue()) < 0;
    }

    /** Whether a cleared interval holds the keys just below {@code key}: one begins before it and ends at or after it. */
    boolean clearedUpTo(byte[] key) {
        Map.Entry<byte[], byte[]> r = cleared.lowerEntry(key);
        return r != null && ByteKeys.compare(r.getValue(), key) >= 0;
    }

    /** The end of the cleared interval holding {@code key}, or null. */
    byte[] clearedEnd(byte[] key) {
        Map.Entry<byte[], byte[]> r = cleared.floorEntry(key);
        return r != null && ByteKeys.compare(key, r.getValue()) < 0 ? r.getValue() : null;
    }

    /** The begin of the cleared interval holding {@code key} (for reverse scans), or null. */
    byte[] clearedBegin(byte[] key) {
        Map.Entry<byte[], byte[]> r = cleared.floorEntry(key);
        return r != null && ByteKeys.compare(key, r.getValue()) < 0 ? r.getKey() : null;
    }

    /** True when a read of {@code key} must fail with {@code accessed_unreadable}. */
    boolean isUnreadable(byte[] key) {
        Entry e = entries.get(key);
        if (e != null) {
            return e.kind == Kind.UNREADABLE;
        }
        return !unreadable.isEmpty() && inUnreadableRange(key, ByteKeys.keyAfter(key));
    }

    /** True when some range may hold a versionstamped key. */
    boolean hasUnreadableRanges() {
        return !unreadable.isEmpty();
    }

    /** True when {@code [begin, end)} meets a range that may hold a versionstamped key. */
    boolean inUnreadableRange(byte[] begin, byte[] end) {
        if (unreadableUnion.isEmpty()) {
            return false;
        }
        // Disjoint and sorted: the last interval starting before end reaches furthest.
        Map.Entry<byte[], byte[]> last = unreadableUnion.lowerEntry(end);
        return last != null && ByteKeys.compare(last.getValue(), begin) > 0;
    }

    /** Written keys in {@code [begin, end)}, ascending or descending. */
    NavigableMap<byte[], Entry> entries(byte[] begin, byte[] end, boolean reverse) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return new TreeMap<>(ByteKeys.COMPARATOR);
        }
        NavigableMap<byte[], Entry> sub = entries.sorted().subMap(begin, true, end, false);
        return reverse ? sub.descendingMap() : sub;
    }

    /**
     * Emits the parts of {@code [begin, end)} that reads must record as read conflicts: the
     * range minus cleared intervals and keys with a known or unreadable (independent) entry.
     */
    void forEachUnknownPart(byte[] begin, byte[] end, RangeConsumer out) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        if (entries.isEmpty() && cleared.isEmpty()) {
            out.accept(begin, end);
            return;
        }
        byte[] pos = begin;
        // Start inside a cleared interval if begin is covered.
        byte[] coveredEnd = clearedEnd(pos);
        if (coveredEnd != null) {
            pos = ByteKeys.min(coveredEnd, end);
        }
        while (ByteKeys.compare(pos, end) < 0) {
            // Next independent point entry and next cleared interval at or after pos.
            byte[] nextPoint = null;
            for (Map.Entry<byte[], Entry> e : entries.sorted().tailMap(pos, true).entrySet()) {
                if (ByteKeys.compare(e.getKey(), end) >= 0) {
                    break;
                }
                if (e.getValue().kind != Kind.DEPENDENT) {
                    nextPoint = e.getKey();
                    break;
                }
            }
            Map.Entry<byte[], byte[]> nextClear = cleared.ceilingEntry(pos);
            if (nextClear != null && ByteKeys.compare(nextClear.getKey(), end) >= 0) {
                nextClear = null;
            }
            byte[] stop;
            byte[] resume;
            if (nextPoint == null && nextClear == null) {
                out.accept(pos, end);
                return;
            } else if (nextClear == null || (nextPoint != null && ByteKeys.compare(nextPoint, nextClear.getKey()) < 0)) {
                stop = nextPoint;
                resume = ByteKeys.keyAfter(nextPoint);
            } else {
                stop = nextClear.getKey();
                resume = nextClear.getValue();
            }
            if (ByteKeys.compare(pos, stop) < 0) {
                out.accept(pos, stop);
            }
            pos = ByteKeys.compare(resume, end) < 0 ? resume : end;
            byte[] c = clearedEnd(pos);
            if (c != null) {
                pos = ByteKeys.min(c, end);
            }
        }
    }

    /**
     * Where {@code [begin, end)} first meets a write of this transaction — a written key or a
     * cleared interval: in FoundationDB's write map, a segment other than an unmodified range —
     * or null when it meets none. Ranges a versionstamped key may land in, and write conflict
     * ranges, are unmodified segments there, so they do not count. For an empty range
     * ({@code begin >= end}), RYW's {@code updateConflictMap} looks only at the segment holding
     * {@code begin} when that segment starts before it: {@code begin} is returned when a cleared
     * interval holds it strictly inside.
     */
    byte[] firstWriteIn(byte[] begin, byte[] end) {
        Map.Entry<byte[], byte[]> holding = cleared.floorEntry(begin);
        if (holding != null && ByteKeys.compare(holding.getValue(), begin) > 0) {
            boolean startsBefore = ByteKeys.compare(holding.getKey(), begin) < 0;
            return ByteKeys.compare(begin, end) < 0 || startsBefore ? begin : null;
        }
        if (ByteKeys.compare(begin, end) >= 0) {
            return null;
        }
        byte[] first = entries.isEmpty() ? null : entries.sorted().ceilingKey(begin);
        if (first != null && ByteKeys.compare(first, end) >= 0) {
            first = null;
        }
        byte[] clear = cleared.ceilingKey(begin);
        if (clear != null && ByteKeys.compare(clear, end) < 0 && (first == null || ByteKeys.compare(clear, first) < 0)) {
            first = clear;
        }
        return first;
    }

    /**
     * Emits the parts of {@code [begin, end)} outside every cleared interval of more than one
     * key: what FoundationDB's RYW reads from storage when a range read walks over
     * {@code [begin, end)} ({@code skipUncached} ends a storage request at such a range, and
     * reads through single cleared keys).
     */
    void forEachPartNotClearedInBulk(byte[] begin, byte[] end, RangeConsumer out) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        byte[] pos = begin;
        if (!cleared.isEmpty()) {
            byte[] from = cleared.floorKey(begin);
            for (Map.Entry<byte[], byte[]> r : cleared.subMap(from == null ? begin : from, true, end, false).entrySet()) {
                byte[] cb = r.getKey();
                byte[] ce = r.getValue();
                if (ByteKeys.compare(ce, pos) <= 0 || ByteKeys.isKeyAfter(cb, ce)) {
                    continue;
                }
                if (ByteKeys.compare(pos, cb) < 0) {
                    out.accept(pos, cb);
                }
                pos = ce;
            }
        }
        if (ByteKeys.compare(pos, end) < 0) {
            out.accept(pos, end);
        }
    }

    /** Receives a key range {@code [begin, end)}. */
    @FunctionalInterface
    interface RangeConsumer {
        void accept(byte[] begin, byte[] end);
    }
}
