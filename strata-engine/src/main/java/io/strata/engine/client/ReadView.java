package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.error.FdbError;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What one read sees: the store at the read version, overlaid with the transaction's own
 * writes when read-your-writes applies ({@code writes} is null when it does not), limited
 * to keys below {@code maxKey} ({@code \xff}, or {@code \xff\xff} with the system-key options).
 *
 * <p>Reads here add no conflict ranges; the transaction computes them from what the read
 * looked at, as FoundationDB's RYW layer does. With the system keys readable, the stored data
 * includes the engine's shard map at {@code \xff/keyServers/} ({@link VirtualSystemKeys}).
 */
final class ReadView {
    private final VersionedStore store;
    private final long version;
    private final WriteMap writes;
    private final byte[] maxKey;
    /** Serves {@code \xff/keyServers/} ({@link VirtualSystemKeys}); null when system keys are not readable. */
    private final ShardMap shards;

    ReadView(VersionedStore store, long version, WriteMap writes, byte[] maxKey) {
        this(store, version, writes, maxKey, null);
    }

    ReadView(VersionedStore store, long version, WriteMap writes, byte[] maxKey, ShardMap shards) {
        this.store = store;
        this.version = version;
        this.writes = writes == null || writes.isEmpty() ? null : writes;
        this.maxKey = maxKey;
        this.shards = shards;
    }

    /** The stored value of {@code key} at the read version. */
    private byte[] stored(byte[] key) {
        return shards == null ? store.get(key, version) : VirtualSystemKeys.get(store, shards, version, key);
    }

    /** Outcome of a point read: the value, and whether the stored value was consulted. */
    record Point(byte[] value, boolean readStorage) {}

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
                return new Point(e.resolve(stored(key)), true);
            }
            if (writes.isCleared(key)) {
                return new Point(null, false);
            }
        }
        return new Point(stored(key), true);
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
            Cursor c = new Cursor(from, maxKey, false);
            KeyValue kv = c.skipThenNext(offset - 1);
            return kv == null ? new Resolved(maxKey, false, offset > 1) : new Resolved(kv.getKey(), false, false);
        }
        byte[] upTo = ByteKeys.min(sel.orEqual() ? ByteKeys.keyAfter(key) : key, maxKey);
        Cursor c = new Cursor(ByteKeys.EMPTY, upTo, true);
        KeyValue kv = c.skipThenNext(-(long) offset);
        return kv == null ? new Resolved(ByteKeys.EMPTY, true, false) : new Resolved(kv.getKey(), false, false);
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
            Cursor c = new Cursor(b.key(), e.key(), reverse);
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
    private final class Cursor {
        private final boolean reverse;
        private final byte[] lo;
        private final byte[] hi;
        private final boolean checkUnreadable;
        /** Forward: everything below has been walked; reverse: everything at or above. */
        private byte[] walked;
        private final Iterator<Map.Entry<byte[], byte[]>> stored;
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
            this.walked = reverse ? hi : lo;
            this.checkUnreadable = writes != null && writes.hasUnreadableRanges();
            this.stored = shards == null ? store.range(lo, hi, version, reverse)
                                         : VirtualSystemKeys.range(store, shards, version, lo, hi, reverse);
            this.written = writes == null ? java.util.Collections.emptyIterator()
                                          : writes.entries(lo, hi, reverse).entrySet().iterator();
        }

        private Map.Entry<byte[], byte[]> peekStored() {
            if (!sFetched) {
                nextStored = stored.hasNext() ? stored.next() : null;
                sFetched = true;
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

        /** The next present key-value in this cursor's direction, or null at the end. */
        KeyValue next() {
            KeyValue kv = nextPresent();
            if (checkUnreadable) {
                byte[] b;
                byte[] e;
                if (reverse) {
                    b = kv == null ? lo : kv.getKey();
                    e = walked;
                    walked = b;
                } else {
                    b = walked;
                    e = kv == null ? hi : ByteKeys.keyAfter(kv.getKey());
                    walked = e;
                }
                if (writes.inUnreadableRange(b, e)) {
                    throw FdbError.ACCESSED_UNREADABLE.exception();
                }
            }
            return kv;
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
                        value = e.resolve(stored(cur.getKey()));
                        break;
                    default:
                        throw FdbError.ACCESSED_UNREADABLE.exception();
                }
                if (value != null) {
                    return new KeyValue(cur.getKey(), value);
                }
            }
        }
    }
}
