package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Split points of a large range over a disk store, from the disk store's size statistics
 * instead of a walk over every key: for each multiple of the chunk size, a bisection over the
 * key space finds where the estimated bytes from {@code begin} reach it, and the point is the
 * first key present at or after that place. FoundationDB's storage servers answer the same
 * question from a byte sample, so their points are estimates too; like theirs, every point
 * here is a key that exists at the read version.
 *
 * <p>The estimate at a key is the disk store's ({@link DiskStore#approximateBytes}, which
 * reads only index and table statistics) plus the window's newest values before it, summed
 * once from memory. Keys the window overwrote or cleared count on both sides until the
 * catch-up writes them: these are estimates, and the chunks come out about the size asked.
 *
 * <p>Not thread-safe: one call's state; reads only what a range read may read.
 */
final class DiskSplitPoints {
    /** Halvings of the key interval per point: enough to separate keys far closer than any chunk. */
    private static final int BISECTIONS = 48;

    private final VersionedStore store;
    private final DiskStore disk;
    private final byte[] begin;
    private final byte[] end;
    private final long version;
    /** The window's keys with a present value at the version, ascending, and the bytes before each (inclusive). */
    private final List<byte[]> windowKeys = new ArrayList<>();
    private long[] windowBytes = new long[16];

    private DiskSplitPoints(VersionedStore store, DiskStore disk, Iterator<VersionChain> window, byte[] begin, byte[] end,
                            long version) {
        this.store = store;
        this.disk = disk;
        this.begin = begin;
        this.end = end;
        this.version = version;
        long sum = 0;
        while (window.hasNext()) {
            VersionChain chain = window.next();
            VersionNode n = chain.nodeAt(version);
            byte[] value = n == null ? null : n.value();
            if (value != null) {
                sum += chain.key.length + value.length;
                if (windowKeys.size() == windowBytes.length) {
                    windowBytes = Arrays.copyOf(windowBytes, windowBytes.length * 2);
                }
                windowBytes[windowKeys.size()] = sum;
                windowKeys.add(chain.key);
            }
        }
    }

    /**
     * {@code begin}, the keys where each chunk of about {@code chunkSize} bytes ends, then
     * {@code end}; {@code chunkSize} must be positive.
     */
    static List<byte[]> find(VersionedStore store, DiskStore disk, Iterator<VersionChain> window, byte[] begin, byte[] end,
                             long chunkSize, long version) {
        return new DiskSplitPoints(store, disk, window, begin, end, version).find(chunkSize);
    }

    private List<byte[]> find(long chunkSize) {
        List<byte[]> points = new ArrayList<>();
        points.add(begin);
        long total = bytesBefore(end);
        byte[] previous = begin;
        for (long target = chunkSize; target <= total; target += chunkSize) {
            byte[] at = placeReaching(previous, target);
            byte[] point = firstKeyFrom(at);
            if (point == null || ByteKeys.compare(point, previous) <= 0) {
                break; // nothing present after the place: the last chunk runs to the end
            }
            points.add(point);
            previous = point;
            long reached = bytesBefore(point);
            if (reached > target) {
                target = reached - reached % chunkSize; // a key larger than a chunk: skip the targets it covers
            }
        }
        points.add(end);
        return points;
    }

    /** The place in {@code (from, end]} where the estimate from {@code begin} reaches {@code target}, which the whole range does. */
    private byte[] placeReaching(byte[] from, long target) {
        byte[] lo = from;
        byte[] hi = end;
        for (int i = 0; i < BISECTIONS; i++) {
            byte[] mid = midpoint(lo, hi);
            if (mid == null) {
                break;
            }
            if (bytesBefore(mid) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** Estimated bytes of the keys present in {@code [begin, key)}. */
    private long bytesBefore(byte[] key) {
        long total = disk.approximateBytes(begin, key);
        int i = lowerBound(key);
        return i == 0 ? total : total + windowBytes[i - 1];
    }

    /** How many window keys sort before {@code key}. */
    private int lowerBound(byte[] key) {
        int lo = 0;
        int hi = windowKeys.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ByteKeys.compare(windowKeys.get(mid), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first key present at the version in {@code [from, end)}, or null. */
    private byte[] firstKeyFrom(byte[] from) {
        try (StoreRange r = store.range(from, end, version, false)) {
            return r.hasNext() ? r.next().getKey() : null;
        }
    }

    /**
     * A key strictly between {@code lo} and {@code hi} (reading keys as base-256 fractions, one
     * byte finer than the longer of the two), or null when none is that close.
     */
    static byte[] midpoint(byte[] lo, byte[] hi) {
        int n = Math.max(lo.length, hi.length) + 1;
        BigInteger a = new BigInteger(1, Arrays.copyOf(lo, n));
        BigInteger b = new BigInteger(1, Arrays.copyOf(hi, n));
        byte[] sum = a.add(b).shiftRight(1).toByteArray();
        byte[] mid = new byte[n];
        int copy = Math.min(sum.length, n);
        System.arraycopy(sum, sum.length - copy, mid, n - copy, copy);
        int length = n;
        while (length > 0 && mid[length - 1] == 0) {
            length--; // trailing zeros only make the key longer, not later: drop what keeps it above lo
        }
        byte[] trimmed = Arrays.copyOf(mid, Math.max(length, 1));
        byte[] key = ByteKeys.compare(trimmed, lo) > 0 ? trimmed : mid;
        return ByteKeys.compare(key, lo) > 0 && ByteKeys.compare(key, hi) < 0 ? key : null;
    }
}
