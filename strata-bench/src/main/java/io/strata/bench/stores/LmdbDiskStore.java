package io.strata.bench.stores;

import io.strata.engine.store.DiskStore;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * A {@link DiskStore} over LMDB (lmdbjava), for {@code strata bench stores} only: a
 * copy-on-write B+tree in one memory-mapped file, read through the operating system's page
 * cache (there is no cache of its own to bound).
 *
 * <p>How it keeps the contract: a batch is one write transaction (the applied version in a
 * second database inside it), so it commits whole; the environment is opened with
 * {@code MDB_NOSYNC} and {@link #makeDurable} is {@code mdb_env_sync(force)}, so a crash keeps
 * the last synced commit. A cursor holds a read transaction, which sees one state, until it is
 * closed. LMDB compares keys with {@code memcmp}: FoundationDB's order.
 *
 * <p><b>Limits:</b> LMDB keys are 1 to {@code mdb_env_get_maxkeysize} bytes (511 in this
 * build) where FoundationDB allows 0 to 10,000; a write of a longer key, or of the empty key,
 * is refused with {@link IllegalArgumentException} (a read of the empty key finds nothing).
 * Reason enough not to build the engine on it without re-encoding keys, and stated with the
 * benchmark's figures. {@link #approximateBytes} is not kept (0): the benchmark does not use it.
 *
 * <p>lmdbjava reads direct buffers' addresses by reflection: the JVM needs
 * {@code --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED}
 * (strata-cli's manifest says so for {@code ./strata}).
 *
 * <p>Concurrency: one writer; readers any thread ({@code MDB_NOTLS}: a read transaction is
 * not tied to its thread).
 */
public final class LmdbDiskStore implements DiskStore {
    private static final long MAP_BYTES = 64L << 30; // sparse: only what is written takes disk
    private static final byte[] APPLIED = {'v'};
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> data;
    private final Dbi<ByteBuffer> meta;
    private final int maxKeyBytes;
    /** The writer's buffers, reused by every write (LMDB copies what it is given). */
    private ByteBuffer writeKey = ByteBuffer.allocateDirect(512);
    private ByteBuffer writeValue = ByteBuffer.allocateDirect(1 << 16);
    private static final ThreadLocal<ByteBuffer> READ_KEY = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(512));

    private LmdbDiskStore(Path directory) {
        this.env = Env.create().setMapSize(MAP_BYTES).setMaxDbs(2).setMaxReaders(1024)
                .open(directory.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS);
        this.data = env.openDbi("data", DbiFlags.MDB_CREATE);
        this.meta = env.openDbi("meta", DbiFlags.MDB_CREATE);
        this.maxKeyBytes = env.getMaxKeySize();
    }

    /** Opens, or creates, the store in {@code directory}. */
    public static LmdbDiskStore open(Path directory) {
        return new LmdbDiskStore(directory);
    }

    private ByteBuffer readKey(byte[] key) {
        checkKey(key);
        ByteBuffer b = READ_KEY.get();
        b.clear();
        b.put(key).flip();
        return b;
    }

    private void checkKey(byte[] key) {
        if (key.length == 0) {
            throw new IllegalArgumentException("LMDB has no empty key");
        }
        if (key.length > maxKeyBytes) {
            throw new IllegalArgumentException("LMDB keys are at most " + maxKeyBytes + " bytes: " + key.length);
        }
    }

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(1, bytes.length));
        b.put(bytes).flip();
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Override
    public byte[] get(byte[] key) {
        if (key.length == 0) {
            return null; // LMDB has no empty key (see the class notes)
        }
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            ByteBuffer v = data.get(txn, readKey(key));
            return v == null ? null : bytes(v);
        }
    }

    @Override
    public DiskStore.Cursor cursor(byte[] lo, byte[] hi, boolean reverse) {
        return new Walk(lo, hi, reverse);
    }

    @Override
    public boolean anyKeyIn(byte[] lo, byte[] hi) {
        try (DiskStore.Cursor c = cursor(lo, hi, false)) {
            return c.hasNext();
        }
    }

    @Override
    public DiskStore.Batch newBatch() {
        return new OpBatch();
    }

    @Override
    public void write(DiskStore.Batch batch, long version) {
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            for (OpBatch.Op op : ((OpBatch) batch).ops) {
                if (op.end() != null) {
                    deleteRange(txn, op.key(), op.end());
                } else if (op.value() != null) {
                    data.put(txn, writeKey(op.key()), writeValue(op.value()));
                } else {
                    data.delete(txn, writeKey(op.key()));
                }
            }
            meta.put(txn, writeKey(APPLIED), writeValue(ByteBuffer.allocate(8).putLong(version).array()));
            txn.commit();
        }
    }

    private void deleteRange(Txn<ByteBuffer> txn, byte[] begin, byte[] end) {
        try (org.lmdbjava.Cursor<ByteBuffer> c = data.openCursor(txn)) {
            boolean found = begin.length == 0 ? c.first() : c.get(direct(begin), org.lmdbjava.GetOp.MDB_SET_RANGE);
            while (found && Arrays.compareUnsigned(bytes(c.key()), end) < 0) {
                c.delete();
                found = c.get(direct(begin.length == 0 ? new byte[] {0} : begin), org.lmdbjava.GetOp.MDB_SET_RANGE);
            }
        }
    }

    private ByteBuffer writeKey(byte[] key) {
        checkKey(key);
        writeKey.clear();
        writeKey.put(key).flip();
        return writeKey;
    }

    private ByteBuffer writeValue(byte[] value) {
        if (value.length > writeValue.capacity()) {
            writeValue = ByteBuffer.allocateDirect(Integer.highestOneBit(value.length) << 1);
        }
        writeValue.clear();
        writeValue.put(value).flip();
        return writeValue;
    }

    @Override
    public long appliedVersion() {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            ByteBuffer v = meta.get(txn, direct(APPLIED));
            return v == null ? 0 : v.getLong(0);
        }
    }

    @Override
    public void makeDurable() {
        env.sync(true);
    }

    @Override
    public long approximateBytes(byte[] lo, byte[] hi) {
        return 0;
    }

    @Override
    public void close() {
        env.close();
    }

    /**
     * A read transaction held open over {@code [lo, hi)}, walked with LMDB's own cursor:
     * positioned by {@code MDB_SET_RANGE} (memcmp order) and stopped by an unsigned comparison
     * here, not by lmdbjava's {@code KeyRange}, whose comparator did not agree with memcmp on
     * bytes above 0x7f.
     */
    private final class Walk extends PeekingCursor {
        private final Txn<ByteBuffer> txn;
        private final org.lmdbjava.Cursor<ByteBuffer> cursor;
        private final byte[] lo;
        private final byte[] hi;
        private final boolean reverse;
        private boolean positioned;

        Walk(byte[] lo, byte[] hi, boolean reverse) {
            this.txn = env.txnRead();
            this.cursor = data.openCursor(txn);
            this.lo = lo;
            this.hi = hi;
            this.reverse = reverse;
        }

        private boolean step() {
            if (!positioned) {
                positioned = true;
                if (!reverse) {
                    return lo.length == 0 ? cursor.first() : cursor.get(direct(lo), org.lmdbjava.GetOp.MDB_SET_RANGE);
                }
                // The last key below hi: the key before the first at or after hi, or the very last.
                return cursor.get(direct(hi), org.lmdbjava.GetOp.MDB_SET_RANGE) ? cursor.prev() : cursor.last();
            }
            return reverse ? cursor.prev() : cursor.next();
        }

        @Override
        protected Map.Entry<byte[], byte[]> advance() {
            if (Arrays.compareUnsigned(lo, hi) >= 0 || !step()) {
                return null;
            }
            byte[] k = bytes(cursor.key());
            boolean inside = reverse ? Arrays.compareUnsigned(k, lo) >= 0 : Arrays.compareUnsigned(k, hi) < 0;
            return inside ? Map.entry(k, bytes(cursor.val())) : null;
        }

        @Override
        public void close() {
            cursor.close();
            txn.close();
        }
    }
}
