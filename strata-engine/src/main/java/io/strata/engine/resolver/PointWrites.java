package io.strata.engine.resolver;

import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Single-key writes {@code [k, k\x00)} of one {@link ConflictWindow} generation, built for
 * the sequencer's hot path: recording a write must cost O(1), not a tree descent.
 * (The sort is deferred to the first range read that needs it.)
 *
 * <h2>Two phases</h2>
 * <ul>
 *   <li><b>Active</b>: an insertion log of (key, version) — versions are non-decreasing, since
 *       the sequencer records in commit order — plus a hash index from key to its newest
 *       version. A point check is one probe. A range check scans only the log's suffix of
 *       writes newer than the reader, found by binary search on versions: short for the
 *       recent read versions nearly every transaction has.</li>
 *   <li><b>Sealed</b> (once {@link #seal()} is called, when the generation is full): keys
 *       deduplicated and sorted, with their newest versions in a parallel array. Checks are a
 *       binary search plus a scan of the keys inside the read range.</li>
 * </ul>
 * Owned by the sequencer thread; not thread-safe.
 */
final class PointWrites {
    /** Hash key with content equality and a hash computed once. */
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

    // Active phase (null once sealed).
    private List<byte[]> logKeys = new ArrayList<>();
    private long[] logVersions = new long[64];
    private HashMap<Key, Long> newest = new HashMap<>();

    // Sealed phase (null while active).
    private byte[][] sortedKeys;
    private long[] sortedVersions;

    int size() {
        return sortedKeys != null ? sortedKeys.length : logKeys.size();
    }

    boolean isSealed() {
        return sortedKeys != null;
    }

    /** Records a write of {@code key} at {@code version} (non-decreasing); before sealing only. */
    void add(byte[] key, long version) {
        int n = logKeys.size();
        if (n == logVersions.length) {
            logVersions = Arrays.copyOf(logVersions, n * 2);
        }
        logKeys.add(key);
        logVersions[n] = version;
        newest.put(new Key(key), version);
    }

    /** True when {@code key} was written after {@code readVersion}. */
    boolean conflictsPoint(byte[] key, long readVersion) {
        if (sortedKeys == null) {
            Long v = newest.get(new Key(key));
            return v != null && v > readVersion;
        }
        int i = Arrays.binarySearch(sortedKeys, key, Arrays::compareUnsigned);
        return i >= 0 && sortedVersions[i] > readVersion;
    }

    /** True when some key in {@code [begin, end)} was written after {@code readVersion}. */
    boolean conflictsRange(byte[] begin, byte[] end, long readVersion) {
        if (sortedKeys == null) {
            for (int i = firstNewerThan(readVersion); i < logKeys.size(); i++) {
                byte[] k = logKeys.get(i);
                if (Arrays.compareUnsigned(k, begin) >= 0 && Arrays.compareUnsigned(k, end) < 0) {
                    return true;
                }
            }
            return false;
        }
        int i = Arrays.binarySearch(sortedKeys, begin, Arrays::compareUnsigned);
        for (i = i >= 0 ? i : -i - 1; i < sortedKeys.length && Arrays.compareUnsigned(sortedKeys[i], end) < 0; i++) {
            if (sortedVersions[i] > readVersion) {
                return true;
            }
        }
        return false;
    }

    /** Index of the first log entry with a version greater than {@code readVersion}. */
    private int firstNewerThan(long readVersion) {
        int lo = 0;
        int hi = logKeys.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (logVersions[mid] <= readVersion) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Freezes into sorted arrays — one sort per generation instead of a tree insertion per
     * write — once no more writes will come; idempotent.
     */
    void seal() {
        if (sortedKeys != null) {
            return;
        }
        List<Map.Entry<Key, Long>> entries = new ArrayList<>(newest.entrySet());
        entries.sort((a, b) -> Arrays.compareUnsigned(a.getKey().bytes, b.getKey().bytes));
        sortedKeys = new byte[entries.size()][];
        sortedVersions = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            sortedKeys[i] = entries.get(i).getKey().bytes;
            sortedVersions[i] = entries.get(i).getValue();
        }
        logKeys = null;
        logVersions = null;
        newest = null;
    }
}
