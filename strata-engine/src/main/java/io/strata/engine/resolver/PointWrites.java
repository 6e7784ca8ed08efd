package io.strata.engine.resolver;

import io.strata.engine.util.ByteKeys;

import java.util.Arrays;

/**
 * Single-key writes {@code [k, k\x00)} of one {@link ConflictWindow} generation, built for
 * the sequencer's hot path: recording a write must cost O(1), not a tree descent.
 * (The sort is deferred to the first range read that needs it.)
 *
 * <h2>Two phases</h2>
 * <ul>
 *   <li><b>Active</b>: an insertion log of (key, version) — versions are non-decreasing, since
 *       the sequencer records in commit order — plus a hash index from key to the log position of its newest write (open addressing
 *       over an {@code int} array: a write costs no object, and a generation's writes stay
 *       in memory for the five-second window). A point check is one probe. A range check scans only the log's suffix of
 *       writes newer than the reader, found by binary search on versions: short for the
 *       recent read versions nearly every transaction has.</li>
 *   <li><b>Sealed</b> (once {@link #seal()} is called, when the generation is full): keys
 *       deduplicated and sorted, with their newest versions in a parallel array. Checks are a
 *       binary search plus a scan of the keys inside the read range.</li>
 * </ul>
 * Owned by the sequencer thread; not thread-safe.
 */
final class PointWrites {
    // Active phase (null once sealed): the log, and the index of each key's newest write.
    private byte[][] logKeys = new byte[64][];
    private long[] logVersions = new long[64];
    private int[] logHashes = new int[64];
    private int logSize;
    /** Open addressing: 1 + the log position of a key's newest write, 0 for an empty slot. */
    private int[] newest = new int[128];
    private int distinct;

    // Sealed phase (null while active).
    private byte[][] sortedKeys;
    private long[] sortedVersions;

    int size() {
        return sortedKeys != null ? sortedKeys.length : logSize;
    }

    boolean isSealed() {
        return sortedKeys != null;
    }

    /** Records a write of {@code key} at {@code version} (non-decreasing); before sealing only. */
    void add(byte[] key, long version) {
        if (logSize == logKeys.length) {
            int n = logSize * 2;
            logKeys = Arrays.copyOf(logKeys, n);
            logVersions = Arrays.copyOf(logVersions, n);
            logHashes = Arrays.copyOf(logHashes, n);
        }
        int hash = ByteKeys.hash(key);
        int at = logSize++;
        logKeys[at] = key;
        logVersions[at] = version;
        logHashes[at] = hash;
        int slot = slotOf(key, hash);
        if (newest[slot] == 0) {
            distinct++;
        }
        newest[slot] = at + 1;
        if (distinct * 2 > newest.length) {
            rehash();
        }
    }

    /** The slot holding {@code key}'s newest write, or the empty slot where it would go. */
    private int slotOf(byte[] key, int hash) {
        int mask = newest.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int entry = newest[i];
            if (entry == 0 || (logHashes[entry - 1] == hash && Arrays.equals(logKeys[entry - 1], key))) {
                return i;
            }
        }
    }

    private void rehash() {
        int[] old = newest;
        newest = new int[old.length * 2];
        int mask = newest.length - 1;
        for (int entry : old) {
            if (entry != 0) {
                int i = logHashes[entry - 1] & mask;
                while (newest[i] != 0) {
                    i = (i + 1) & mask;
                }
                newest[i] = entry;
            }
        }
    }

    /** True when {@code key} was written after {@code readVersion}. */
    boolean conflictsPoint(byte[] key, long readVersion) {
        return conflictsPoint(key, ByteKeys.hash(key), readVersion);
    }

    /** {@link #conflictsPoint(byte[], long)} with {@code hash == ByteKeys.hash(key)}, computed once by the caller. */
    boolean conflictsPoint(byte[] key, int hash, long readVersion) {
        if (sortedKeys == null) {
            int entry = newest[slotOf(key, hash)];
            return entry != 0 && logVersions[entry - 1] > readVersion;
        }
        int i = Arrays.binarySearch(sortedKeys, key, Arrays::compareUnsigned);
        return i >= 0 && sortedVersions[i] > readVersion;
    }

    /** True when some key in {@code [begin, end)} was written after {@code readVersion}. */
    boolean conflictsRange(byte[] begin, byte[] end, long readVersion) {
        if (sortedKeys == null) {
            for (int i = firstNewerThan(readVersion); i < logSize; i++) {
                byte[] k = logKeys[i];
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
        int hi = logSize;
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
        Integer[] order = new Integer[distinct];
        int n = 0;
        for (int entry : newest) {
            if (entry != 0) {
                order[n++] = entry - 1;
            }
        }
        byte[][] keys = logKeys;
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        sortedKeys = new byte[n][];
        sortedVersions = new long[n];
        for (int i = 0; i < n; i++) {
            sortedKeys[i] = logKeys[order[i]];
            sortedVersions[i] = logVersions[order[i]];
        }
        logKeys = null;
        logVersions = null;
        logHashes = null;
        newest = null;
    }
}
