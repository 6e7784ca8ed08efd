package io.strata.bench.peer;

import io.strata.bench.data.Dataset;
import org.rocksdb.OptimisticTransactionDB;
import org.rocksdb.OptimisticTransactionOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.Transaction;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The peer: RocksDB's {@code OptimisticTransactionDB} (rocksdbjni), the embedded
 * transactional store a JVM user would pick instead, doing the same transactions.
 *
 * <h2>Configuration, exactly</h2>
 * <ul>
 *   <li>A fresh directory under {@code java.io.tmpdir}, deleted on close.</li>
 *   <li>{@code Options}: RocksDB's defaults plus {@code create_if_missing}; so a 64 MB
 *       memtable, which holds the whole default data set (100,000 × 116 bytes), and the
 *       default block cache. Write-heavy runs flush memtables to SST files in the
 *       background, as RocksDB does.</li>
 *   <li>{@code WriteOptions}: {@code sync=false} and {@code disableWAL=true}: no log, no
 *       fsync, so RocksDB is not charged for durability Strata's in-memory engine does not
 *       provide. As {@code rocksdb-sync}: the WAL on and {@code sync=true}, every commit
 *       fsynced, to compare with Strata's durable engine ({@code strata-fsync}).</li>
 *   <li>Read transactions: {@code OptimisticTransactionOptions.setSnapshot(true)} and
 *       {@code getForUpdate(readOptions with that snapshot, key, exclusive=false)}: a
 *       consistent snapshot with the key tracked for conflict checking, like Strata's
 *       serializable {@code get}. Read transactions are never committed, as with Strata.</li>
 *   <li>Write transactions: {@code beginTransaction}, {@code put} (tracked), {@code commit};
 *       read-write transactions take a snapshot and use {@code getForUpdate} then
 *       {@code put}. A commit failing with {@code Busy} or {@code TryAgain} (a conflict) is
 *       retried at once.</li>
 *   <li>Each session reuses its {@code Transaction} objects through
 *       {@code beginTransaction(..., oldTransaction)}, RocksDB's documented way to avoid a
 *       native allocation per transaction.</li>
 * </ul>
 * RocksDB's commit is synchronous, so {@link KvSession#writeAsync} does the whole
 * transaction on the calling thread.
 */
public final class RocksDbPeer implements KvPeer {
    public static final String NAME = "rocksdb";
    /** RocksDB with its write-ahead log on and {@code sync=true}: every commit fsynced. */
    public static final String SYNC_NAME = "rocksdb-sync";
    private static final int LOAD_BATCH = 8_192;

    static {
        RocksDB.loadLibrary();
    }

    private final Path directory;
    private final Options options;
    private final OptimisticTransactionDB db;
    private final WriteOptions writeOptions;
    private final String name;
    /** Sessions not yet closed: their native objects must go before the database's. */
    private final Set<Session> sessions = ConcurrentHashMap.newKeySet();

    public RocksDbPeer() {
        this(false);
    }

    /**
     * @param durable {@code true} for {@link #SYNC_NAME}: WAL on and {@code sync=true}, the
     *                setting to compare with Strata's durable engine; otherwise WAL off
     */
    public RocksDbPeer(boolean durable) {
        name = durable ? SYNC_NAME : NAME;
        try {
            directory = Files.createTempDirectory("strata-bench-rocksdb-");
            options = new Options().setCreateIfMissing(true);
            db = OptimisticTransactionDB.open(options, directory.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot open RocksDB: " + e.getMessage(), e);
        }
        writeOptions = durable ? new WriteOptions().setSync(true).setDisableWAL(false)
                               : new WriteOptions().setSync(false).setDisableWAL(true);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void load(Dataset data) {
        for (int start = 0; start < data.size(); start += LOAD_BATCH) {
            try (WriteBatch batch = new WriteBatch()) {
                for (int i = start; i < Math.min(data.size(), start + LOAD_BATCH); i++) {
                    batch.put(data.key(i), data.value(i));
                }
                db.write(writeOptions, batch);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    public KvSession session() {
        Session s = new Session();
        sessions.add(s);
        return s;
    }

    @Override
    public void close() {
        for (Session s : sessions) {
            s.close();
        }
        writeOptions.close();
        db.close();
        options.close();
        TempDirectories.delete(directory);
    }

    private static boolean isConflict(RocksDBException e) {
        Status s = e.getStatus();
        return s != null && (s.getCode() == Status.Code.Busy || s.getCode() == Status.Code.TryAgain);
    }

    private final class Session implements KvSession {
        private final OptimisticTransactionOptions snapshotTxn = new OptimisticTransactionOptions().setSetSnapshot(true);
        private final OptimisticTransactionOptions plainTxn = new OptimisticTransactionOptions();
        private final ReadOptions readOptions = new ReadOptions();
        private final ReadOptions rmwReadOptions = new ReadOptions();
        /** Reused native transaction objects, one per shape. */
        private Transaction readTxn;
        private Transaction writeTxn;
        private Transaction rmwTxn;
        private boolean reading;

        @Override
        public byte[] read(byte[] key) {
            try {
                if (!reading) {
                    readTxn = begin(snapshotTxn, readTxn);
                    readOptions.setSnapshot(readTxn.getSnapshot());
                    reading = true;
                }
                return readTxn.getForUpdate(readOptions, key, false);
            } catch (RocksDBException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void endRead() {
            // The next beginTransaction reinitialises the reused object, releasing its snapshot.
            reading = false;
        }

        @Override
        public void write(byte[] key, byte[] value) {
            while (true) {
                try {
                    writeTxn = begin(plainTxn, writeTxn);
                    writeTxn.put(key, value);
                    writeTxn.commit();
                    return;
                } catch (RocksDBException e) {
                    if (!isConflict(e)) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }

        @Override
        public CompletableFuture<Void> writeAsync(byte[] key, byte[] value) {
            try {
                write(key, value);
                return CompletableFuture.completedFuture(null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public int readModifyWrite(byte[] key, byte[] value) {
            for (int attempt = 1; ; attempt++) {
                try {
                    rmwTxn = begin(snapshotTxn, rmwTxn);
                    rmwReadOptions.setSnapshot(rmwTxn.getSnapshot());
                    rmwTxn.getForUpdate(rmwReadOptions, key, true);
                    rmwTxn.put(key, value);
                    rmwTxn.commit();
                    return attempt;
                } catch (RocksDBException e) {
                    if (!isConflict(e)) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }

        /** Begins a transaction, reusing {@code old}'s native object when there is one. */
        private Transaction begin(OptimisticTransactionOptions txnOptions, Transaction old) {
            return old == null ? db.beginTransaction(writeOptions, txnOptions) : db.beginTransaction(writeOptions, txnOptions, old);
        }

        @Override
        public void close() {
            if (!sessions.remove(this)) {
                return;
            }
            endRead();
            for (Transaction t : new Transaction[] {readTxn, writeTxn, rmwTxn}) {
                if (t != null) {
                    t.close();
                }
            }
            readOptions.close();
            rmwReadOptions.close();
            snapshotTxn.close();
            plainTxn.close();
        }
    }
}
