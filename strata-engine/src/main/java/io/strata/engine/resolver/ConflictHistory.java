package io.strata.engine.resolver;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * History of committed write conflict ranges, used by the resolver to decide whether a
 * transaction's read conflict ranges were written after its read version.
 *
 * <p>Owned by a single thread (the commit sequencer); not thread-safe.
 *
 * <p>Key arrays handed to this class are kept by reference, not copied: callers must not modify
 * an array after passing it in.
 */
public final class ConflictHistory {
    /*
     * Step function: boundary key -> version of the segment [boundary, next boundary).
     * Keys before the first boundary have version NEVER.
     */

    /** Version of keys never written (or forgotten by pruning). */
    static final long NEVER = Long.MIN_VALUE;

    private final TreeMap<byte[], Long> steps = new TreeMap<>(Arrays::compareUnsigned);
    private long maxVersion = NEVER;

    public ConflictHistory() {}

    /**
     * Records that keys in [begin, end) were written at commitVersion. Versions passed are
     * non-decreasing over calls. Empty or inverted ranges are ignored.
     */
    public void addWrite(byte[] begin, byte[] end, long commitVersion) {
        if (Arrays.compareUnsigned(begin, end) >= 0) {
            return;
        }
        if (commitVersion > maxVersion) {
            maxVersion = commitVersion;
        }
        Map.Entry<byte[], Long> endFloor = steps.floorEntry(end);
        long after = endFloor == null ? NEVER : endFloor.getValue();
        steps.subMap(begin, true, end, false).clear();
        Map.Entry<byte[], Long> prev = steps.lowerEntry(begin);
        long before = prev == null ? NEVER : prev.getValue();
        if (before != commitVersion) {
            steps.put(begin, commitVersion);
        }
        if (after == commitVersion) {
            steps.remove(end);
        } else {
            steps.put(end, after);
        }
    }

    /**
     * True if some write recorded with version > readVersion intersects [begin, end).
     * Empty/inverted range -> false.
     */
    public boolean conflicts(byte[] begin, byte[] end, long readVersion) {
        if (readVersion >= maxVersion || Arrays.compareUnsigned(begin, end) >= 0) {
            return false;
        }
        Map.Entry<byte[], Long> first = steps.floorEntry(begin);
        if (first != null && first.getValue() > readVersion) {
            return true;
        }
        for (Long v : steps.subMap(begin, false, end, false).values()) {
            if (v > readVersion) {
                return true;
            }
        }
        return false;
    }

    /**
     * Forgets detail older than oldestVersion. Cost is proportional to {@link #size()}.
     */
    public void pruneBefore(long oldestVersion) {
        boolean prevOld = true;
        Iterator<Long> it = steps.values().iterator();
        while (it.hasNext()) {
            boolean old = it.next() < oldestVersion;
            if (old && prevOld) {
                it.remove();
            }
            prevOld = old;
        }
    }

    /** Number of boundaries held. */
    public int size() {
        return steps.size();
    }

    NavigableMap<byte[], Long> stepsForTest() {
        return steps;
    }
}
