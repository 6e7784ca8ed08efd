package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
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
 * looked at, as FoundationDB's RYW layer does.
 */
final class ReadView {
    private final VersionedStore store;
    private final long version;
    private final WriteMap writes;
    private final byte[] maxKey;

    ReadView(VersionedStore store, long version, WriteMap writes, byte[] maxKey) {
        this.store = store;
        this.version = version;
        this.writes = writes == null || writes.isEmpty() ? null : writes;
        this.maxKey = maxKey;
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
                return new Point(e.resolve(store.get(key, version)), true);
            }
            if (writes.isCleared(key)) {
                return new Point(null, false);
            }
        }
        return new Point(store.get(key, version), true);
    }

    /** A resolved key selector, with FoundationDB's "fell off an end" flags. */
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
            Cursor c = new Cursor(key, !sel.orEqual(), false);
            for (int i = 1; i < offset; i++) {
                if (c.next() == null) {
                    return new Resolved(maxKey, false, true);
                }
            }
            KeyValue kv = c.next();
            // Running out of keys with none left to skip (firstGreaterOrEqual past the last
            // key) is no read through the end: resolveKeySelectorFromCache sets readThroughEnd
            // only while offset > 1, so a range read ending there conflicts up to its end key.
            return kv == null ? new Resolved(maxKey, false, false) : new Resolved(kv.getKey(), false, false);
        }
        Cursor c = new Cursor(key, sel.orEqual(), true);
        KeyValue kv = c.skipThenNext(-(long) offset);
        return kv == null ? new Resolved(ByteKeys.EMPTY, true, false) : new Resolved(kv.getKey(), false, false);
    }

    /** Rows of a range read, and whether the limit cut it short. */
    record Rows(List<KeyValue> rows, boolean more, boolean readToBegin, boolean readThroughEnd) {}

    /** Reads {@code [resolve(begin), resolve(end))}, at most {@code limit} rows (0 = all). */
    Rows range(KeySelector begin, KeySelector end, int limit, boolean reverse) {
        Resolved b = resolve(begin);
        Resolved e = resolve(end);
        List<KeyValue> rows = new ArrayList<>();
        boolean more = false;
        // What the read looked at, where a versionstamped key of this transaction may land:
        // from the begin selector's key or where it resolved, to the end selector's key (or,
        // for other than firstGreaterOrEqual, as far as it resolved). Found keys or not, a read
        // over such a range is accessed_unreadable (1036).
        byte[] scannedFrom = ByteKeys.min(begin.getKey(), b.key());
        byte[] scannedTo = end.getOffset() == 1 ? end.getKey() : ByteKeys.max(end.getKey(), e.key());
        if (writes != null && ByteKeys.compare(scannedFrom, scannedTo) < 0 && writes.inUnreadableRange(scannedFrom, scannedTo)) {
            throw FdbError.ACCESSED_UNREADABLE.exception();
        }
        if (ByteKeys.compare(b.key(), e.key()) < 0) {
            Cursor c = reverse ? new Cursor(e.key(), false, true) : new Cursor(b.key(), true, false);
            KeyValue kv;
            while ((kv = c.next()) != null) {
                boolean inside = reverse ? ByteKeys.compare(kv.getKey(), b.key()) >= 0
                                         : ByteKeys.compare(kv.getKey(), e.key()) < 0;
                if (!inside) {
                    break;
                }
                rows.add(kv);
                if (limit > 0 && rows.size() == limit) {
                    more = true;
                    break;
                }
            }
        }
        return new Rows(rows, more, b.readToBegin(), e.readThroughEnd());
    }

    /**
     * Walks present keys from a starting key in one direction, merging the store with the
     * write map: an entry overrides the stored key, cleared intervals hide stored keys.
     */
    private final class Cursor {
        private final boolean reverse;
        private final Iterator<Map.Entry<byte[], byte[]>> stored;
        private final Iterator<Map.Entry<byte[], WriteMap.Entry>> written;
        private Map.Entry<byte[], byte[]> s;
        private Map.Entry<byte[], WriteMap.Entry> w;

        Cursor(byte[] from, boolean inclusive, boolean reverse) {
            this.reverse = reverse;
            byte[] lo;
            byte[] hi;
            if (reverse) {
                lo = ByteKeys.EMPTY;
                hi = inclusive ? ByteKeys.keyAfter(from) : from;
                hi = ByteKeys.min(hi, maxKey);
            } else {
                lo = inclusive ? from : ByteKeys.keyAfter(from);
                hi = maxKey;
            }
            this.stored = store.range(lo, hi, version, reverse);
            this.written = writes == null ? java.util.Collections.emptyIterator()
                                          : writes.entries(lo, hi, reverse).entrySet().iterator();
            this.s = stored.hasNext() ? stored.next() : null;
            this.w = written.hasNext() ? written.next() : null;
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
            while (s != null || w != null) {
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
                    s = stored.hasNext() ? stored.next() : null;
                    if (writes != null) {
                        if (writes.isCleared(cur.getKey())) {
                            continue;
                        }
                        if (writes.inUnreadableRange(cur.getKey(), ByteKeys.keyAfter(cur.getKey()))) {
                            throw FdbError.ACCESSED_UNREADABLE.exception();
                        }
                    }
                    return new KeyValue(cur.getKey(), cur.getValue());
                }
                if (cmp == 0) {
                    s = stored.hasNext() ? stored.next() : null;
                }
                Map.Entry<byte[], WriteMap.Entry> cur = w;
                w = written.hasNext() ? written.next() : null;
                WriteMap.Entry e = cur.getValue();
                byte[] value;
                switch (e.kind) {
                    case KNOWN:
                        value = e.value;
                        break;
                    case DEPENDENT:
                        value = e.resolve(store.get(cur.getKey(), version));
                        break;
                    default:
                        throw FdbError.ACCESSED_UNREADABLE.exception();
                }
                if (value != null) {
                    return new KeyValue(cur.getKey(), value);
                }
            }
            return null;
        }
    }
}
