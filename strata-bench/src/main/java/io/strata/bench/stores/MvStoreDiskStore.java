package io.strata.bench.stores;

import io.strata.engine.store.DiskStore;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * A {@link DiskStore} over H2's MVStore, for {@code strata bench stores} only: a pure-Java,
 * copy-on-write B-tree in one file, with an on-heap page cache of {@code cacheBytes}.
 *
 * <p>How it keeps the contract: a batch is applied to the map and the applied version put
 * in a second map, then {@link MVStore#commit()} writes them as one chunk (a crash keeps whole
 * chunks only); {@link #makeDurable} is {@link MVStore#sync()}. A cursor walks the map's root
 * as it was when the cursor opened (MVMap is copy-on-write), so it reads one state. Range
 * deletes walk their keys one by one (MVStore has none of its own). {@link #approximateBytes}
 * is not kept: 0.
 *
 * <p>Concurrency: one writer (the store's catch-up); readers any thread, lock-free on MVMap.
 */
public final class MvStoreDiskStore implements DiskStore {
    private static final byte[] APPLIED = {'v'};
    private final MVStore store;
    private final MVMap<byte[], byte[]> data;
    private final MVMap<byte[], byte[]> meta;

    private MvStoreDiskStore(Path file, long cacheBytes) {
        this.store = new MVStore.Builder().fileName(file.toString()).cacheSize((int) Math.max(1, cacheBytes >> 20))
                .autoCommitDisabled().open();
        MVMap.Builder<byte[], byte[]> type = new MVMap.Builder<byte[], byte[]>()
                .keyType(UnsignedBytesType.INSTANCE).valueType(UnsignedBytesType.INSTANCE);
        this.data = store.openMap("data", type);
        this.meta = store.openMap("meta", type);
    }

    /** Opens, or creates, the store in {@code directory} with a page cache of {@code cacheBytes} on the heap. */
    public static MvStoreDiskStore open(Path directory, long cacheBytes) {
        return new MvStoreDiskStore(directory.resolve("store.mv.db"), cacheBytes);
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] v = data.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public DiskStore.Cursor cursor(byte[] lo, byte[] hi, boolean reverse) {
        if (Arrays.compareUnsigned(lo, hi) >= 0) {
            return new Walk(null, lo, hi, reverse);
        }
        // MVMap's bounds are inclusive: the walk stops itself at hi (and skips it, reverse).
        return new Walk(reverse ? data.cursor(hi, lo, true) : data.cursor(lo, hi, false), lo, hi, reverse);
    }

    @Override
    public boolean anyKeyIn(byte[] lo, byte[] hi) {
        byte[] k = data.ceilingKey(lo);
        return k != null && Arrays.compareUnsigned(k, hi) < 0;
    }

    @Override
    public DiskStore.Batch newBatch() {
        return new OpBatch();
    }

    @Override
    public void write(DiskStore.Batch batch, long version) {
        for (OpBatch.Op op : ((OpBatch) batch).ops) {
            if (op.end() != null) {
                deleteRange(op.key(), op.end());
            } else if (op.value() != null) {
                data.put(op.key(), op.value());
            } else {
                data.remove(op.key());
            }
        }
        meta.put(APPLIED, ByteBuffer.allocate(8).putLong(version).array());
        store.commit();
    }

    private void deleteRange(byte[] begin, byte[] end) {
        for (byte[] k = data.ceilingKey(begin); k != null && Arrays.compareUnsigned(k, end) < 0; k = data.higherKey(k)) {
            data.remove(k);
        }
    }

    @Override
    public long appliedVersion() {
        byte[] v = meta.get(APPLIED);
        return v == null ? 0 : ByteBuffer.wrap(v).getLong();
    }

    @Override
    public void makeDurable() {
        store.sync();
    }

    @Override
    public long approximateBytes(byte[] lo, byte[] hi) {
        return 0;
    }

    @Override
    public void close() {
        store.close();
    }

    private static final class Walk extends PeekingCursor {
        private final org.h2.mvstore.Cursor<byte[], byte[]> cursor;
        private final byte[] lo;
        private final byte[] hi;
        private final boolean reverse;

        Walk(org.h2.mvstore.Cursor<byte[], byte[]> cursor, byte[] lo, byte[] hi, boolean reverse) {
            this.cursor = cursor;
            this.lo = lo;
            this.hi = hi;
            this.reverse = reverse;
        }

        @Override
        protected Map.Entry<byte[], byte[]> advance() {
            while (cursor != null && cursor.hasNext()) {
                byte[] k = cursor.next();
                if (reverse && Arrays.compareUnsigned(k, hi) >= 0) {
                    continue; // hi itself: the range is [lo, hi)
                }
                if (reverse ? Arrays.compareUnsigned(k, lo) < 0 : Arrays.compareUnsigned(k, hi) >= 0) {
                    return null;
                }
                return Map.entry(k.clone(), cursor.getValue().clone());
            }
            return null;
        }

        @Override
        public void close() {
        }
    }
}
