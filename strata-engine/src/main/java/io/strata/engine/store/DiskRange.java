package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A range read over a disk store: the window's chains of the range merged with a disk
 * cursor, at one read version. A key with a chain node at or below the version takes that
 * node's value (a tombstone hides the key); a key only on disk, or whose chain has only newer
 * nodes, takes the disk's value unless a range clear newer than the disk's version and at or
 * below the read version covers it. {@link VersionedStore}'s "Over a disk store" argues why;
 * this read stays registered in {@link ReaderEpochs} from before its cursor opens until it
 * is closed.
 *
 * <p>Not thread-safe: one reader walks it.
 */
final class DiskRange implements StoreRange {
    private final ReaderEpochs epochs;
    private final long epoch;
    private final DiskStore.Cursor cursor;
    private final Iterator<VersionChain> chains;
    private final long version;
    /** The disk's version when registered: clears at or below it are already in the cursor's view. */
    private final long diskVersion;
    private final RangeClears.Snapshot clears;
    private final boolean reverse;
    private VersionChain chain;
    private Map.Entry<byte[], byte[]> onDisk;
    private Map.Entry<byte[], byte[]> next;
    private boolean closed;

    DiskRange(ReaderEpochs epochs, DiskStore disk, RangeClears clears, byte[] begin, byte[] end, long version, boolean reverse,
              Iterator<VersionChain> chains) {
        this.epochs = epochs;
        this.epoch = epochs.enter();
        try {
            this.diskVersion = disk.appliedVersion();
            this.clears = clears.snapshot();
            this.cursor = disk.cursor(begin, end, reverse);
        } catch (RuntimeException e) {
            epochs.exit(epoch);
            throw e;
        }
        this.chains = chains;
        this.version = version;
        this.reverse = reverse;
    }

    @Override
    public boolean hasNext() {
        while (next == null && !closed) {
            if (chain == null && chains.hasNext()) {
                chain = chains.next();
            }
            if (onDisk == null && cursor.hasNext()) {
                onDisk = cursor.next();
            }
            if (chain == null && onDisk == null) {
                close();
                return false;
            }
            // Below 0: the chain comes first in the walk's direction; 0: the same key.
            int cmp;
            if (chain == null) {
                cmp = 1;
            } else if (onDisk == null) {
                cmp = -1;
            } else {
                cmp = ByteKeys.compare(chain.key, onDisk.getKey());
                if (reverse) {
                    cmp = -cmp;
                }
            }
            if (cmp <= 0) {
                VersionNode n = chain.nodeAt(version);
                byte[] key = chain.key;
                chain = null;
                if (n != null) {
                    if (cmp == 0) {
                        onDisk = null;
                    }
                    byte[] value = n.value();
                    if (value != null) {
                        next = Map.entry(key, value);
                    }
                    continue;
                }
                if (cmp < 0) {
                    continue; // nothing at or below the version, and not on disk: absent
                }
            }
            Map.Entry<byte[], byte[]> d = onDisk;
            onDisk = null;
            if (clears.isEmpty() || !clears.covers(d.getKey(), diskVersion, version)) {
                next = d;
            }
        }
        return next != null;
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Map.Entry<byte[], byte[]> result = next;
        next = null;
        return result;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                cursor.close();
            } finally {
                epochs.exit(epoch);
            }
        }
    }
}
