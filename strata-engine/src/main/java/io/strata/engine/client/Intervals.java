package io.strata.engine.client;

import io.strata.engine.util.ByteKeys;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/** Sets of disjoint key intervals kept as a sorted map, begin -> end (end exclusive). */
final class Intervals {
    private Intervals() {
    }

    /** Adds {@code [begin, end)} to disjoint {@code intervals}, merging overlapping and adjacent ones; an empty interval adds nothing. */
    static void addMerged(TreeMap<byte[], byte[]> intervals, byte[] begin, byte[] end) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        byte[] b = begin;
        byte[] e = end;
        Map.Entry<byte[], byte[]> before = intervals.floorEntry(b);
        if (before != null && ByteKeys.compare(before.getValue(), b) >= 0) {
            b = before.getKey();
            e = ByteKeys.max(e, before.getValue());
        }
        NavigableMap<byte[], byte[]> covered = intervals.subMap(b, true, e, true);
        for (byte[] otherEnd : covered.values()) {
            e = ByteKeys.max(e, otherEnd);
        }
        covered.clear();
        intervals.put(b, e);
    }
}
