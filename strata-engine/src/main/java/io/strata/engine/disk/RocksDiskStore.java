package io.strata.engine.disk;

import io.strata.engine.store.DiskStore;
import io.strata.engine.store.KeyOrder;
import io.strata.engine.util.ByteKeys;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Range;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * {@link DiskStore} on RocksDB — the store FoundationDB's own {@code ssd-rocksdb-v1} engine
 * uses: an LSM tree with ordered scans both ways, atomic write batches and range deletes.
 *
 * <h2>Layout</h2>
 * Two column families in one RocksDB directory: {@code default} holds the keys and values
 * exactly as the database has them (RocksDB's bytewise order is FoundationDB's key order);
 * {@code strata-meta} holds {@code applied-version}, the version of the last batch written,
 * as 8 big-endian bytes, written in the same atomic batch as the data.
 *
 * <h2>Durability</h2>
 * Batches skip RocksDB's own write-ahead log: Strata's log already holds every commit, and
 * it is kept until the disk store has it durably. {@link #makeDurable} flushes the memtables
 * of both column families together ({@code atomic_flush}), so what survives a crash is always
 * a prefix of the batches written, and {@code applied-version} names its last one.
 *
 * <h2>Close</h2>
 * A clean close waits in {@link #settle} until RocksDB has no compaction left, so the next
 * open does not start by merging level 0 beside its first reads.
 *
 * <p>Concurrency: RocksDB's handles are thread-safe; {@link #write} is called by one thread
 * (the store's catch-up), reads by any, {@link #settle} by the closing thread (it only reads
 * RocksDB's properties).
 */
public final class RocksDiskStore implements DiskStore {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] META_FAMILY = "strata-meta".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] APPLIED_VERSION = "applied-version".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final Path directory;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions familyOptions;
    private final LRUCache cache;
    private final BloomFilter bloom;
    private final RocksDB db;
    private final ColumnFamilyHandle data;
    private final ColumnFamilyHandle meta;
    private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
    private volatile long appliedVersion;
    /**
     * Reads and cursors in progress. RocksDB must not be closed under them (a native handle
     * used after close is a crash, not an exception): {@link #close} sets {@link #closing},
     * then waits for this to reach zero; an operation counts itself, then checks the flag
     * (both volatile, so one of the two sees the other).
     */
    private final java.util.concurrent.atomic.AtomicLong inFlight = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closing;
    /**
     * Spans removed by range deletes, compacted in the background so their space comes back
     * without waiting for RocksDB's own compactions to reach them (a cleared range may be
     * most of the database). One thread; what it has not reached when closed stays for
     * RocksDB's compactions.
     */
    private final java.util.concurrent.ExecutorService compactor = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "strata-disk-compactor");
        t.setDaemon(true);
        return t;
    });

    private RocksDiskStore(Path directory, long cacheBytes) throws IOException {
        this.directory = directory;
        Files.createDirectories(directory);
        this.cache = new LRUCache(cacheBytes);
        this.bloom = new BloomFilter(10, false);
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                .setFilterPolicy(bloom)
                .setBlockSize(16 << 10)
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        this.familyOptions = new ColumnFamilyOptions()
                .setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setWriteBufferSize(64L << 20)
                .setLevelCompactionDynamicLevelBytes(true)
                .optimizeLevelStyleCompaction();
        this.dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setAtomicFlush(true)
                // Two compactions at once, each split in two: with one, a long level-0 compaction
                // into a growing base level kept the next level's compactions waiting, and a
                // bulk load of 8 GiB ended with 14-17 level-0 files, which every scan must seek
                // (2 with this; docs/benchmarks.md, section 13).
                .setMaxBackgroundJobs(4)
                .setMaxSubcompactions(2)
                .setBytesPerSync(1 << 20);
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
                new ColumnFamilyDescriptor(META_FAMILY, familyOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            this.db = RocksDB.open(dbOptions, directory.toString(), families, handles);
        } catch (RocksDBException e) {
            closeOptions();
            throw new IOException("cannot open the disk store in " + directory + ": " + e.getMessage(), e);
        }
        this.data = handles.get(0);
        this.meta = handles.get(1);
        try {
            byte[] v = db.get(meta, APPLIED_VERSION);
            this.appliedVersion = v == null ? 0 : ByteBuffer.wrap(v).getLong();
        } catch (RocksDBException e) {
            close();
            throw new IOException("cannot read the disk store's version in " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens, or creates, the store in {@code directory} with a block cache of
     * {@code cacheBytes} (outside the Java heap).
     */
    public static RocksDiskStore open(Path directory, long cacheBytes) throws IOException {
        return new RocksDiskStore(directory, cacheBytes);
    }

    @Override
    public byte[] get(byte[] key) {
        enter();
        try {
            return db.get(data, key);
        } catch (RocksDBException e) {
            throw failure("reading a key", e);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Counts an operation in; refuses it once closing, as fdb-java refuses a closed database. */
    private void enter() {
        inFlight.incrementAndGet();
        if (closing) {
            inFlight.decrementAndGet();
            throw new IllegalStateException("Cannot access closed object");
        }
    }

    @Override
    public Cursor cursor(byte[] lo, byte[] hi, boolean reverse) {
        return new RocksCursor(lo, hi, reverse);
    }

    @Override
    public boolean anyKeyIn(byte[] lo, byte[] hi) {
        try (Cursor c = cursor(lo, hi, false)) {
            return c.hasNext();
        }
    }

    @Override
    public Batch newBatch() {
        return new RocksBatch();
    }

    @Override
    public void write(Batch batch, long version) throws IOException {
        RocksBatch rb = (RocksBatch) batch;
        rb.flushRun();
        WriteBatch wb = rb.batch;
        try {
            wb.put(meta, APPLIED_VERSION, ByteBuffer.allocate(Long.BYTES).putLong(version).array());
            db.write(writeOptions, wb);
        } catch (RocksDBException e) {
            throw new IOException("writing to the disk store in " + directory + " failed: " + e.getMessage(), e);
        }
        appliedVersion = version;
        for (byte[][] span : rb.rangeDeletes) {
            compactor.execute(() -> compact(span[0], span[1]));
        }
    }

    private void compact(byte[] begin, byte[] end) {
        try {
            db.compactRange(data, begin, end);
        } catch (RocksDBException e) {
            System.getLogger(RocksDiskStore.class.getName()).log(System.Logger.Level.WARNING,
                    "compacting a cleared range of the disk store in " + directory + " failed; RocksDB's own compactions will reclaim it", e);
        }
    }

    @Override
    public long appliedVersion() {
        return appliedVersion;
    }

    @Override
    public void makeDurable() throws IOException {
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, List.of(data, meta));
        } catch (RocksDBException e) {
            throw new IOException("flushing the disk store in " + directory + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until RocksDB has no compaction running or pending, so the next open starts with
     * level 0 merged down: a clean close writes the window and flushes it, which leaves a few
     * level-0 files (compaction starts at two), and RocksDB stops compactions at close; the
     * next process would then merge them while its first reads run, on the same cores, and
     * every range read would seek each of them until then. Waiting costs close time instead
     * (docs/benchmarks.md, section 13). Polls RocksDB's own properties, which its compactions
     * update as they finish; the flush this follows already scheduled them.
     */
    @Override
    public boolean settle(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            try {
                if (!compacting()) {
                    return true;
                }
            } catch (UncheckedDiskException e) {
                // Only a wait is lost: the data is durable, the compactions go on after reopening.
                System.getLogger(RocksDiskStore.class.getName()).log(System.Logger.Level.WARNING,
                        "cannot tell whether the disk store in " + directory + " is compacting; closing without waiting", e);
                return false;
            }
            if (System.nanoTime() > deadline) {
                System.getLogger(RocksDiskStore.class.getName()).log(System.Logger.Level.INFO,
                        "the disk store in " + directory + " was still compacting after " + timeoutMillis
                                + " ms at close; it goes on after the next open");
                return false;
            }
            Thread.sleep(SETTLE_POLL_MILLIS);
        }
    }

    /** Often enough that a close does not wait much past the last compaction, rarely enough to cost nothing. */
    private static final long SETTLE_POLL_MILLIS = 20;

    /** Whether a compaction of the data is running, or RocksDB's picker has one to run; package-private for tests. */
    boolean compacting() {
        try {
            return db.getLongProperty(data, "rocksdb.compaction-pending") > 0
                    || db.getLongProperty("rocksdb.num-running-compactions") > 0;
        } catch (RocksDBException e) {
            throw failure("reading the compaction state", e);
        }
    }

    /** Files in level 0 of the data, for tests. */
    long levelZeroFiles() {
        try {
            return Long.parseLong(db.getProperty(data, "rocksdb.num-files-at-level0")); // a string property, not an integer one
        } catch (RocksDBException e) {
            throw failure("reading the level-0 file count", e);
        }
    }

    /**
     * RocksDB's own estimates: the bytes its files take in the range (compressed, with index
     * and filter blocks), scaled by the logical bytes per file byte of all its tables (from
     * their properties: raw key and value sizes), plus the memtables' raw bytes in the range.
     */
    @Override
    public long approximateBytes(byte[] lo, byte[] hi) {
        enter();
        try (Slice a = new Slice(lo); Slice b = new Slice(hi)) {
            Range range = new Range(a, b);
            long[] files = db.getApproximateSizes(data, List.of(range), org.rocksdb.SizeApproximationFlag.INCLUDE_FILES);
            long memtables = db.getApproximateMemTableStats(data, range).size;
            return Math.round((files.length == 0 ? 0 : files[0]) * logicalBytesPerFileByte()) + memtables;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Cached for a second: reading every table's properties is not free. */
    private volatile double logicalRatio = 1;
    private volatile long logicalRatioAt = Long.MIN_VALUE;

    private double logicalBytesPerFileByte() {
        long now = System.nanoTime();
        if (now - logicalRatioAt < 1_000_000_000L) {
            return logicalRatio;
        }
        double ratio = 1;
        try {
            long raw = 0;
            long stored = 0;
            for (org.rocksdb.TableProperties t : db.getPropertiesOfAllTables(data).values()) {
                raw += t.getRawKeySize() + t.getRawValueSize();
                stored += t.getDataSize() + t.getIndexSize() + t.getFilterSize();
            }
            if (stored > 0) {
                ratio = raw / (double) stored;
            }
        } catch (RocksDBException e) {
            throw failure("reading table properties", e);
        }
        logicalRatio = ratio;
        logicalRatioAt = now;
        return ratio;
    }

    @Override
    public void close() {
        closing = true;
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (inFlight.get() > 0) {
            if (System.nanoTime() > deadline) {
                // A cursor never closed: leaving RocksDB open is a leak, closing it a crash.
                System.getLogger(RocksDiskStore.class.getName()).log(System.Logger.Level.WARNING,
                        "the disk store in " + directory + " still has " + inFlight.get() + " reads open after 30 s; left open");
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        compactor.shutdownNow();
        try {
            compactor.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        data.close();
        meta.close();
        db.close();
        writeOptions.close();
        closeOptions();
    }

    private void closeOptions() {
        dbOptions.close();
        familyOptions.close();
        bloom.close();
        cache.close();
    }

    private UncheckedDiskException failure(String what, RocksDBException e) {
        return new UncheckedDiskException(what + " from the disk store in " + directory + " failed: " + e.getMessage(), e);
    }

    /** A read or write of the disk store failed; the engine cannot answer without it. */
    public static final class UncheckedDiskException extends RuntimeException {
        UncheckedDiskException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Point writes are kept (the arrays, not copies) until a range delete or the write, then
     * handed to RocksDB sorted by key, a key's last write only: its memtable, a skip list,
     * inserts a key that follows the previous one from where that one went, where a key in
     * random order (the window's writes come in version order) costs a search from the top,
     * a cache miss per level — the catch-up's largest cost in a bulk load of random keys.
     * Deletes and puts of a run keep their order per key, and range deletes their place among
     * the runs, so the batch leaves what applying it in the order given would.
     */
    private final class RocksBatch implements Batch {
        /** Entries a run may keep allocated across {@link #clear}; a larger run's arrays are dropped. */
        private static final int KEPT_CAPACITY = 16_384;

        final WriteBatch batch = new WriteBatch();
        final List<byte[][]> rangeDeletes = new ArrayList<>(0);
        private final KeyOrder keyOrder = new KeyOrder();
        /** The point writes not yet in {@link #batch}: a null value is a delete. */
        private byte[][] keys = new byte[16][];
        private byte[][] values = new byte[16][];
        private int run;
        /** Operations added since the last clear, as {@link #size} counts them. */
        private int added;

        @Override
        public void put(byte[] key, byte[] value) {
            add(key, Objects.requireNonNull(value, "value"));
        }

        @Override
        public void delete(byte[] key) {
            add(key, null);
        }

        private void add(byte[] key, byte[] value) {
            if (run == keys.length) {
                keys = Arrays.copyOf(keys, run * 2);
                values = Arrays.copyOf(values, run * 2);
            }
            keys[run] = key;
            values[run++] = value;
            added++;
        }

        @Override
        public void deleteRange(byte[] begin, byte[] end) {
            added++;
            if (ByteKeys.compare(begin, end) >= 0) {
                return; // RocksDB would refuse the whole batch, and every later one
            }
            flushRun();
            try {
                batch.deleteRange(data, begin, end);
                rangeDeletes.add(new byte[][] {begin, end});
            } catch (RocksDBException e) {
                throw failure("batching a range delete", e);
            }
        }

        /** Hands the run of point writes to {@link #batch} in key order. */
        void flushRun() {
            if (run == 0) {
                return;
            }
            try {
                for (int i : keyOrder.sortedLastWins(keys, 0, run)) {
                    if (values[i] == null) {
                        batch.delete(data, keys[i]);
                    } else {
                        batch.put(data, keys[i], values[i]);
                    }
                }
            } catch (RocksDBException e) {
                throw failure("batching a write", e);
            }
            forgetRun();
        }

        private void forgetRun() {
            if (keys.length > KEPT_CAPACITY) {
                keys = new byte[16][];
                values = new byte[16][];
                keyOrder.trim();
            } else {
                Arrays.fill(keys, 0, run, null);
                Arrays.fill(values, 0, run, null);
            }
            run = 0;
        }

        @Override
        public int size() {
            return added;
        }

        @Override
        public void clear() {
            batch.clear();
            rangeDeletes.clear();
            forgetRun();
            added = 0;
        }

        @Override
        public void close() {
            forgetRun();
            batch.close();
        }
    }

    /**
     * A bounded RocksDB iterator; the bounds' slices live as long as it does. Forward, only
     * the upper bound is set (the seek starts at {@code lo}); reverse, both (the walk starts
     * at the last key below {@code hi} and must stop at {@code lo}): each bound is a native
     * object made and freed per cursor, and most range reads go forward.
     *
     * <p>Whether the iterator is on an entry is asked of RocksDB once per step and kept in
     * {@link #valid}: each {@code isValid} is a JNI call, and a range read asks
     * {@link #hasNext} before every {@link #next}, which asks it again.
     */
    private final class RocksCursor implements Cursor {
        private final boolean reverse;
        private final Slice lower;
        private final Slice upper;
        private final ReadOptions options;
        private final RocksIterator it;
        /** Whether {@link #it} is on an entry: read from RocksDB after each move. */
        private boolean valid;
        /** Why the iterator stopped short, or null. */
        private RocksDBException error;
        private boolean closed;

        RocksCursor(byte[] lo, byte[] hi, boolean reverse) {
            enter(); // counted out by close()
            this.reverse = reverse;
            this.lower = reverse ? new Slice(lo) : null;
            this.upper = new Slice(hi);
            this.options = new ReadOptions().setIterateUpperBound(upper);
            if (reverse) {
                options.setIterateLowerBound(lower);
            }
            this.it = db.newIterator(data, options);
            if (reverse) {
                it.seekToLast();
            } else {
                it.seek(lo);
            }
            moved();
        }

        /**
         * After a seek or a step: whether the iterator is on an entry, and if not, whether it
         * stopped on an error — thrown by the next {@link #hasNext}, as RocksDB reports it
         * there, not by the {@link #next} that stepped (which returns its entry).
         */
        private void moved() {
            valid = it.isValid();
            if (!valid) {
                try {
                    it.status();
                } catch (RocksDBException e) {
                    error = e;
                }
            }
        }

        @Override
        public boolean hasNext() {
            if (closed) {
                return false;
            }
            if (error != null) {
                throw failure("reading a range", error);
            }
            return valid;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Map.Entry<byte[], byte[]> e = Map.entry(it.key(), it.value());
            if (reverse) {
                it.prev();
            } else {
                it.next();
            }
            moved();
            return e;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                valid = false;
                it.close();
                options.close();
                if (lower != null) {
                    lower.close();
                }
                upper.close();
                inFlight.decrementAndGet();
            }
        }
    }
}
