package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.List;

/**
 * The range clears of the window that may cover keys of the disk store: over a disk store a
 * range clear does not visit the keys it removes (there may be millions, none in memory); it
 * is remembered here until the catch-up has applied it to the disk, as FoundationDB's
 * storage servers keep clears as ranges in their in-memory versioned map.
 *
 * <p>Readers ask {@link Snapshot#covers}: does a clear with a version in {@code (after, upTo]}
 * cover the key? Kept sorted by begin, with the largest end so far beside each, so a lookup
 * is a binary search and a short walk back.
 *
 * <p>Concurrency: one writer (the commit sequencer) replaces the immutable snapshot on each
 * change; readers read the volatile snapshot once per lookup or range read.
 */
final class RangeClears {
    /** One clear: {@code [begin, end)} at {@code version}. */
    record Clear(byte[] begin, byte[] end, long version) {}

    /** An immutable set of clears. */
    static final class Snapshot {
        private final Clear[] byBegin;
        /** {@code maxEnd[i]}: the largest end among {@code byBegin[0..i]}. */
        private final byte[][] maxEnd;

        Snapshot(Clear[] byBegin) {
            this.byBegin = byBegin;
            this.maxEnd = new byte[byBegin.length][];
            for (int i = 0; i < byBegin.length; i++) {
                maxEnd[i] = i == 0 ? byBegin[i].end : ByteKeys.max(maxEnd[i - 1], byBegin[i].end);
            }
        }

        boolean isEmpty() {
            return byBegin.length == 0;
        }

        /** Whether a clear with {@code after < version <= upTo} covers {@code key}. */
        boolean covers(byte[] key, long after, long upTo) {
            int lo = 0;
            int hi = byBegin.length;
            while (lo < hi) { // the first clear beginning after key
                int mid = (lo + hi) >>> 1;
                if (ByteKeys.compare(byBegin[mid].begin, key) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            for (int i = lo - 1; i >= 0 && ByteKeys.compare(maxEnd[i], key) > 0; i--) {
                Clear c = byBegin[i];
                if (c.version > after && c.version <= upTo && ByteKeys.compare(key, c.end) < 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final Snapshot EMPTY = new Snapshot(new Clear[0]);
    private volatile Snapshot snapshot = EMPTY;
    /** Writer-owned: every clear held, oldest first. */
    private final List<Clear> byVersion = new ArrayList<>();

    Snapshot snapshot() {
        return snapshot;
    }

    /** Writer only: remembers a clear newer than every one held. */
    void add(Clear clear) {
        byVersion.add(clear);
        publish();
    }

    /** Writer only: forgets the clears with a version of at most {@code version}. */
    void removeUpTo(long version) {
        int n = 0;
        while (n < byVersion.size() && byVersion.get(n).version <= version) {
            n++;
        }
        if (n > 0) {
            byVersion.subList(0, n).clear();
            publish();
        }
    }

    private void publish() {
        Clear[] sorted = byVersion.toArray(new Clear[0]);
        java.util.Arrays.sort(sorted, (a, b) -> ByteKeys.compare(a.begin, b.begin));
        snapshot = new Snapshot(sorted);
    }
}
