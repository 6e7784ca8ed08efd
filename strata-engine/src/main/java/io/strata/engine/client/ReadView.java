package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.error.FdbError;
import io.strata.engine.store.StoreRange;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What one read sees: the database at the read version, overlaid with the transaction's own
 * writes when read-your-writes applies ({@code writes} is null when it does not), limited
 * to keys below {@code maxKey} ({@code \xff}, or {@code \xff\xff} with the system-key options).
 *
 * <p>The database comes from one of two places, as in FoundationDB's RYW layer, whose
 * iterator lays the write map over its snapshot cache and asks a storage server only for
 * what neither knows:
 * <ul>
 * <li>the {@link ReadCache} ({@link #ofCache}): what the transaction read before. A read
 *     answered wholly from it and the writes needs no read version and never grows too old;
 *     when the answer needs a key or a stretch of keys neither knows, {@link #get} returns
 *     null, the walks stop and {@link #missed} turns true, and the transaction reads the store;
 * <li>the store at the read version ({@link #ofStore}), which teaches the cache what each
 *     read looked at: the value of a key it read, and every stretch of keys a walk passed
 *     over, with the stored keys in it.
 * </ul>
 *
 * <p>Reads here add no conflict ranges; the transaction computes them from what the read
 * looked at, as FoundationDB's RYW layer does — the same whichever place answered. With the
 * system keys readable, the stored data includes the engine's shard map at
 * {@code \xff/keyServers/} ({@link VirtualSystemKeys}).
 */
final class ReadView {
    private final VersionedStore store;
    private final long version;
    /** From the cache: the source. From the store: where to record what was read, or null. */
    private final ReadCache cache;
    private final boolean fromCache;
    private final WriteMap writes;
    private final byte[] maxKey;
    /** Serves {@code \xff/keyServers/} ({@link VirtualSystemKeys}); null when system keys are not readable. */
    private final ShardMap shards;
    /**
     * From the cache: set when a walk needed something unknown. Every walk then ends at once
     * and what it returns is meaningless. A flag, not an exception: most first reads of a
     * range miss, and a throw through the walk's frames costs more than a small read.
     */
    private boolean missed;

    ReadView(VersionedStore store, long version, WriteMap writes, byte[] maxKey) {
        this(store, version, null, false, writes, maxKey, null);
    }

    ReadView(VersionedStore store, long version, WriteMap writes, byte[] maxKey, ShardMap shards) {
        this(store, version, null, false, writes, maxKey, shards);
    }

    private ReadView(VersionedStore store, long version, ReadCache cache, boolean fromCache, WriteMap writes, byte[] maxKey,
                     ShardMap shards) {
        this.store = store;
        this.version = version;
        this.cache = cache;
        this.fromCache = fromCache;
        this.writes = writes == null || writes.isEmpty() ? null : writes;
        this.maxKey = maxKey;
        this.shards = shards;
    }

    /** The store at {@code version}; what the read finds is recorded in {@code recordTo} unless it is null. */
    static ReadView ofStore(VersionedStore store, long version, WriteMap writes, byte[] maxKey, ReadCache recordTo) {
        return ofStore(store, version, writes, maxKey, recordTo, null);
    }

    /** As {@link #ofStore(VersionedStore, long, WriteMap, byte[], ReadCache)}, with the shard map's rows when {@code shards} is not null. */
    static ReadView ofStore(VersionedStore store, long version, WriteMap writes, byte[] maxKey, ReadCache recordTo, ShardMap shards) {
        return new ReadView(store, version, recordTo, false, writes, maxKey, shards);
    }

    /** What the transaction already knows: {@code cache} under {@code writes}. */
    static ReadView ofCache(ReadCache cache, WriteMap writes, byte[] maxKey) {
        return new ReadView(null, 0, cache, true, writes, maxKey, null);
    }

    /** From the cache: whether a walk needed something the cache and own writes do not know; its result is then void. */
    boolean missed() {
        return missed;
    }

    /** The stored value of {@code key} (null when absent), or {@link ReadCache#UNKNOWN} from a cache that does not know it. */
    private byte[] stored(byte[] key) {
        if (fromCache) {
            return cache.get(key);
        }
        byte[] v = fromStore(key);
        if (cache != null) {
            cache.putPoint(key, v);
        }
        return v;
    }

    /** The stored value of {@code key} at the read version (the shard map's rows included), not recorded. */
    private byte[] fromStore(byte[] key) {
        return shards == null ? store.get(key, version) : VirtualSystemKeys.get(store, shards, version, key);
    }

    /**
     * Outcome of a point read: the value, and whether it depends on the database (the key is
     * not written, or only by atomic operations) — then a serializable read conflicts on it.
     */
    record Point(byte[] value, boolean readStorage) {}

    /**
     * The value of {@code key} as this transaction sees it; the stored array, not a copy. From
     * the cache: null when the answer needs the store. {@code key} may be kept by the cache,
     * so it must not be the caller's array.
     */
    Point get(byte[] key) {
        if (writes != null) {
            if (writes.isUnreadable(key)) {
                throw FdbError.ACCESSED_UNREADABLE.exception();
            }
            WriteMap.Entry e = writes.entry(key);
            if (e != null) {
                if (e.kind == WriteMap.Kind.KNOWN) {
                    return new Point(e.value, false);
                }
                byte[] v = stored(key);
                return v == ReadCache.UNKNOWN ? null : new Point(e.resolve(v), true);
            }
            if (writes.isCleared(key)) {
                return new Point(null, false);
            }
        }
        byte[] v = stored(key);
        return v == ReadCache.UNKNOWN ? null : new Point(v, true);
    }

    /**
     * A resolved key selector, with FoundationDB's "fell off an end" flags: readToBegin when
     * a backward selector (offset &lt; 1) ran out of keys before reaching its answer,
     * readThroughEnd when a selector that must step over keys (offset &gt; 1) ran out. A
     * {@code firstGreater*} selector (offset 1) that finds nothing sets neither, as in
     * RYW's {@code resolveKeySelectorFromCache}: its answer depends on no key past its own.
     */
    record Resolved(byte[] key, boolean readToBegin, boolean readThroughEnd) {}

    /**
     * Resolves a selector: the last key {@code < key} ({@code <=} when orEqual), moved
     * {@code offset} keys forward; before the first key gives {@code ""}, past the last
     * gives {@code maxKey}.
     */
    Resolved resolve(KeySelector sel) {
        byte[] key = sel.getKey();
        int offset = sel.getOffset();
        if (offset >= 1) {
            byte[] from = sel.orEqual() ? ByteKeys.keyAfter(key) : key;
            try (Cursor c = new Cursor(from, maxKey, false)) {
                KeyValue kv = c.skipThenNext(offset - 1);
                c.record();
                return kv == null ? new Resolved(maxKey, false, offset > 1) : new Resolved(kv.getKey(), false, false);
            }
        }
        byte[] upTo = ByteKeys.min(sel.orEqual() ? ByteKeys.keyAfter(key) : key, maxKey);
        try (Cursor c = new Cursor(ByteKeys.EMPTY, upTo, true)) {
            KeyValue kv = c.skipThenNext(-(long) offset);
            c.record();
            return kv == null ? new Resolved(ByteKeys.EMPTY, true, false) : new Resolved(kv.getKey(), false, false);
        }
    }

    /**
     * A range end as the read uses it: a {@code firstGreaterOrEqual} selector stands for its
     * own key, without looking at keys past it (the rows of {@code [b, fge(k))} are those
     * below {@code k}); any other selector is resolved.
     */
    private Resolved rangeEnd(KeySelector sel) {
        if (sel.getOffset() == 1 && !sel.orEqual()) {
            return new Resolved(ByteKeys.min(sel.getKey(), maxKey), false, false);
        }
        return resolve(sel);
    }

    /**
     * Rows of a range read; whether the limit cut it short; and the ends flags of the two
     * selectors, shared as in RYW's {@code getRangeValue} (readThroughEnd only counts when
     * the limit did not stop the read).
     */
    record Rows(List<KeyValue> rows, boolean more, boolean readToBegin, boolean readThroughEnd) implements RangeIterable.Batch<KeyValue> {}

    /** Reads {@code [resolve(begin), resolve(end))}, at most {@code limit} rows (0 = all). */
    Rows range(KeySelector begin, KeySelector end, int limit, boolean reverse) {
        return range(begin, end, limit, 0, reverse);
    }

    /**
     * What a storage server's {@code readRange} charges a row against a byte limit:
     * {@code sizeof(KeyValueRef)} (two 12-byte {@code StringRef}s) besides its key and value.
     */
    static final int ROW_BYTES = 24;

    /**
     * As {@link #range(KeySelector, KeySelector, int, boolean)}, also stopping once the rows
     * read cost {@code byteLimit} bytes ({@link #ROW_BYTES} plus key and value each; 0 = no
     * byte limit), as a storage server's {@code readRange} stops: the row that reaches the
     * limit is included, and the read reports more rows whether or not any follow.
     */
    Rows range(KeySelector begin, KeySelector end, int limit, int byteLimit, boolean reverse) {
        Resolved b = rangeEnd(begin);
        Resolved e = rangeEnd(end);
        List<KeyValue> rows = new ArrayList<>();
        boolean more = false;
        if (ByteKeys.compare(b.key(), e.key()) < 0) {
            try (Cursor c = new Cursor(b.key(), e.key(), reverse)) {
                KeyValue kv;
                long bytes = 0;
                while ((kv = c.next()) != null) {
                    rows.add(kv);
                    if (limit > 0 && rows.size() == limit) {
                        more = true;
                        break;
                    }
                    if (byteLimit > 0) {
                        bytes += ROW_BYTES + kv.getKey().length + kv.getValue().length;
                        if (bytes >= byteLimit) {
                            more = true;
                            break;
                        }
                    }
                }
                c.record();
            }
        }
        return new Rows(rows, more, b.readToBegin() || e.readToBegin(), !more && (b.readThroughEnd() || e.readThroughEnd()));
    }

    /**
     * Whether the selectors resolve to an empty range: a storage server then answers at once,
     * without looking at the request any further ({@code begin >= end} in {@code getKeyValuesQ}
     * and {@code getMappedKeyValuesQ}).
     */
    boolean resolvesEmpty(KeySelector begin, KeySelector end) {
        return ByteKeys.compare(rangeEnd(begin).key(), rangeEnd(end).key()) >= 0;
    }

    /**
     * Walks the present keys of {@code [lo, hi)} in one direction, merging the store with the
     * write map: an entry overrides the stored key, cleared intervals hide stored keys.
     *
     * <p>Like RYW's iterator, which throws on entering an unreadable segment, the cursor
     * fails with {@code accessed_unreadable} when the stretch it has just walked over — up to
     * and including the key it returns, or to its bound when it runs out — meets a range
     * where a versionstamped key may land. A read that stops before such a range (a limit
     * reached, a selector answered) never fails.
     */
    private final class Cursor implements AutoCloseable {
        private final boolean reverse;
        private final byte[] lo;
        private final byte[] hi;
        private final boolean checkUnreadable;
        /** The key of the last row returned, or null before the first. */
        private byte[] last;
        /** Whether the walk ran out of rows: it then walked to its bound. */
        private boolean exhausted;
        /** From the store with a cache to teach: every stored entry fetched, in walk order. */
        private final List<Map.Entry<byte[], byte[]>> fetched;
        /**
         * From the cache: a known interval holding the walk's position (where the next step
         * starts), or null. A step that stays inside it is known without looking further.
         */
        private ReadCache.Interval known;
        private final Iterator<Map.Entry<byte[], byte[]>> stored;
        /** The store's range behind {@link #stored} when reading the store: closed with the cursor. */
        private StoreRange storeRange;
        private final Iterator<Map.Entry<byte[], WriteMap.Entry>> written;
        /**
         * The next stored and written entries, fetched only when the walk needs them: a read
         * that stops after its row (a limit of 1, a selector) must not step past that row,
         * which can mean skipping every cleared key down to the end of the range.
         */
        private Map.Entry<byte[], byte[]> nextStored;
        private Map.Entry<byte[], WriteMap.Entry> nextWritten;
        private boolean sFetched;
        private boolean wFetched;

        Cursor(byte[] lo, byte[] hi, boolean reverse) {
            this.reverse = reverse;
            this.lo = lo;
            this.hi = hi;
            this.checkUnreadable = writes != null && writes.hasUnreadableRanges();
            if (fromCache) {
                cache.sortPoints();
                this.known = reverse ? cache.endingAtOrAfter(hi) : cache.containing(lo);
                this.fetched = null;
                if (known == null && !mayKnowStart()) {
                    // The first key the walk needs is unknown: the common first read of a range.
                    missed = true;
                    this.stored = java.util.Collections.emptyIterator();
                    this.written = java.util.Collections.emptyIterator();
                    return;
                }
                this.stored = cache.rows(lo, hi, reverse);
            } else {
                this.storeRange = shards == null ? store.range(lo, hi, version, reverse)
                                                 : VirtualSystemKeys.range(store, shards, version, lo, hi, reverse);
                this.stored = storeRange;
                this.fetched = cache == null ? null : new ArrayList<>();
            }
            this.written = writes == null ? java.util.Collections.emptyIterator()
                                          : writes.entries(lo, hi, reverse).entrySet().iterator();
        }

        /** Releases the store's range (over a disk store: its cursor and its hold on the window). */
        @Override
        public void close() {
            if (storeRange != null) {
                storeRange.close();
            }
        }

        private Map.Entry<byte[], byte[]> peekStored() {
            if (!sFetched) {
                nextStored = stored.hasNext() ? stored.next() : null;
                sFetched = true;
                if (fetched != null && nextStored != null) {
                    fetched.add(nextStored);
                }
            }
            return nextStored;
        }

        private Map.Entry<byte[], WriteMap.Entry> peekWritten() {
            if (!wFetched) {
                nextWritten = written.hasNext() ? written.next() : null;
                wFetched = true;
            }
            return nextWritten;
        }

        KeyValue skipThenNext(long skip) {
            for (long i = 0; i < skip; i++) {
                if (next() == null) {
                    return null;
                }
            }
            return next();
        }

        /**
         * The next present key-value in this cursor's direction, or null at the end. From
         * the cache, the stretch just walked (up to and including the row, or to the bound)
         * must be known, or the walk ends as {@link #missed}: a key the cache does not know
         * may lie in it. That is checked before the unreadable ranges, which the walk over the
         * store might never reach.
         */
        KeyValue next() {
            if (missed) {
                return null;
            }
            KeyValue kv = nextPresent();
            if (fromCache && !knownInInterval(kv)) {
                byte[][] stretch = stretchTo(kv == null ? null : kv.getKey());
                if (missed || !isKnown(stretch[0], stretch[1])) {
                    missed = true;
                    return null;
                }
                known = kv == null ? null : cache.containing(kv.getKey());
            }
            if (checkUnreadable) {
                byte[][] stretch = stretchTo(kv == null ? null : kv.getKey());
                if (writes.inUnreadableRange(stretch[0], stretch[1])) {
                    throw FdbError.ACCESSED_UNREADABLE.exception();
                }
            }
            if (kv == null) {
                exhausted = true;
            } else {
                last = kv.getKey();
            }
            return kv;
        }

        /** The stretch from the walk's position up to and including {@code key}, or to the bound when null. */
        private byte[][] stretchTo(byte[] key) {
            if (reverse) {
                return new byte[][] {key == null ? lo : key, last == null ? hi : last};
            }
            return new byte[][] {last == null ? lo : ByteKeys.keyAfter(last), key == null ? hi : ByteKeys.keyAfter(key)};
        }

        /**
         * From the cache, when no known interval holds the walk's start: whether own writes may
         * know it. False means the walk cannot be answered; true, that it must be tried.
         */
        private boolean mayKnowStart() {
            if (ByteKeys.compare(lo, hi) >= 0) {
                return true; // walks over nothing
            }
            if (writes == null) {
                return false;
            }
            if (!reverse) {
                return writes.isCleared(lo) || writes.entry(lo) != null; // the start is lo itself
            }
            // Reverse, the first stretch ends at hi, and no known interval reaches up to hi: own
            // writes must know what lies just below it — a cleared range reaching hi, or a
            // written key w with hi = w ++ 0x00. Anything else would have the walk miss at its
            // first step, after building a cursor over the cache and the writes for nothing.
            return writes.clearedUpTo(hi) || endsWithZero(hi) && writes.entry(java.util.Arrays.copyOf(hi, hi.length - 1)) != null;
        }

        private boolean endsWithZero(byte[] key) {
            return key.length > 0 && key[key.length - 1] == 0;
        }

        /** Whether the step to {@code kv} stays inside {@link #known}, which holds the walk's position. */
        private boolean knownInInterval(KeyValue kv) {
            if (known == null) {
                return false;
            }
            if (reverse) {
                return ByteKeys.compare(kv == null ? lo : kv.getKey(), known.begin) >= 0;
            }
            return kv == null ? ByteKeys.compare(hi, known.end) <= 0 : ByteKeys.compare(kv.getKey(), known.end) < 0;
        }

        /** Whether own writes and the cache together know all of {@code [b, e)}. */
        private boolean isKnown(byte[] b, byte[] e) {
            if (ByteKeys.compare(b, e) >= 0) {
                return true;
            }
            if (writes == null) {
                return cache.covers(b, e);
            }
            boolean[] all = {true};
            writes.forEachUnknownPart(b, e, (x, y) -> all[0] &= cache.covers(x, y));
            return all[0];
        }

        /**
         * From the store: teaches the cache the stretch this walk passed over and the stored
         * keys in it. Parts inside a range this transaction cleared are left out: RYW does not
         * read a cleared range of more than one key from storage, so its cache never learns
         * it (which only a snapshot read with {@code snapshot_ryw_disable} can tell).
         */
        void record() {
            if (fetched == null) {
                return;
            }
            if (sFetched && nextStored != null) {
                fetched.remove(fetched.size() - 1); // peeked past the stretch, not walked over
            }
            byte[] b;
            byte[] e;
            if (reverse) {
                java.util.Collections.reverse(fetched);
                b = exhausted ? lo : last == null ? hi : last;
                e = hi;
            } else {
                b = lo;
                e = exhausted ? hi : last == null ? lo : ByteKeys.keyAfter(last);
            }
            if (writes == null) {
                cache.putRange(b, e, fetched);
            } else {
                writes.forEachPartNotClearedInBulk(b, e, (x, y) -> cache.putRange(x, y, fetched));
            }
        }

        private KeyValue nextPresent() {
            while (true) {
                Map.Entry<byte[], byte[]> s = peekStored();
                Map.Entry<byte[], WriteMap.Entry> w = peekWritten();
                if (s == null && w == null) {
                    return null;
                }
                int cmp;
                if (s == null) {
                    cmp = 1;
                } else if (w == null) {
                    cmp = -1;
                } else {
                    cmp = ByteKeys.compare(s.getKey(), w.getKey());
                    if (reverse) {
                        cmp = -cmp;
                    }
                }
                if (cmp < 0) {
                    Map.Entry<byte[], byte[]> cur = s;
                    sFetched = false;
                    if (writes != null && writes.isCleared(cur.getKey())) {
                        continue;
                    }
                    return new KeyValue(cur.getKey(), cur.getValue());
                }
                if (cmp == 0) {
                    sFetched = false;
                }
                Map.Entry<byte[], WriteMap.Entry> cur = w;
                wFetched = false;
                WriteMap.Entry e = cur.getValue();
                byte[] value;
                switch (e.kind) {
                    case KNOWN:
                        value = e.value;
                        break;
                    case DEPENDENT:
                        byte[] v = fromCache ? cache.get(cur.getKey()) : fromStore(cur.getKey());
                        if (v == ReadCache.UNKNOWN) {
                            missed = true; // the stored value under atomic operations is unknown
                            return null;
                        }
                        value = e.resolve(v);
                        break;
                    default:
                        if (fromCache) {
                            // Fail only if the walk over the store would get here too.
                            byte[][] stretch = stretchTo(cur.getKey());
                            if (!isKnown(stretch[0], stretch[1])) {
                                missed = true;
                                return null;
                            }
                        }
                        throw FdbError.ACCESSED_UNREADABLE.exception();
                }
                if (value != null) {
                    return new KeyValue(cur.getKey(), value);
                }
            }
        }
    }
}
