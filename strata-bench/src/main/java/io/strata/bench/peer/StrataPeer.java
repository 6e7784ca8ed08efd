package io.strata.bench.peer;

import io.strata.engine.durability.Durability;

import java.nio.file.Path;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.bench.data.Dataset;

import java.util.concurrent.CompletableFuture;

/**
 * Strata in memory ({@link Strata#inMemory()}, no latency model, no faults), or durable in a
 * temporary directory (on {@link Storage#MEMORY} or {@link Storage#SSD}), used the way
 * fdb-java code uses a {@link Database}: reads with {@code Transaction.get(key).join()},
 * writes through {@code db.run} / {@code db.runAsync}, which retry as fdb-java's do.
 */
public final class StrataPeer implements KvPeer {
    public static final String NAME = "strata";
    /** Durable, {@code Durability.FSYNC}: every commit batch fsynced before acknowledgement. */
    public static final String FSYNC_NAME = "strata-fsync";
    /** Durable, {@code Durability.OS_BUFFERED}: batches written to the OS, not fsynced. */
    public static final String OS_BUFFERED_NAME = "strata-os";
    /**
     * Durable, {@code Durability.FSYNC}, on the disk storage engine ({@link Storage#SSD}): the
     * window in memory, the newest version of every key in RocksDB with the default block cache.
     */
    public static final String SSD_NAME = "strata-ssd";
    /** Keys per load transaction: ~1 MB, well under the 10 MB transaction limit. */
    private static final int LOAD_BATCH = 8_192;

    private final Database db;
    private final String name;
    /** The durable database's directory, deleted on close; null in memory. */
    private final Path directory;

    public StrataPeer() {
        this(Strata.inMemory());
    }

    /** Wraps an already opened database (for example one with a latency model); closes it. */
    public StrataPeer(Database db) {
        this.db = db;
        this.name = NAME;
        this.directory = null;
    }

    private StrataPeer(String name, Durability durability, Storage storage) {
        this.name = name;
        this.directory = TempDirectories.create("strata-bench-strata-");
        this.db = Strata.builder().durability(durability).storage(storage).open(directory);
    }

    /** Strata opened durable in a fresh temporary directory, deleted on close. */
    public static StrataPeer durable(Durability durability) {
        return new StrataPeer(durability == Durability.FSYNC ? FSYNC_NAME : OS_BUFFERED_NAME, durability, Storage.MEMORY);
    }

    /** Strata on {@link Storage#SSD}, {@code Durability.FSYNC}, in a fresh temporary directory, deleted on close. */
    public static StrataPeer ssd() {
        return new StrataPeer(SSD_NAME, Durability.FSYNC, Storage.SSD);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void load(Dataset data) {
        for (int start = 0; start < data.size(); start += LOAD_BATCH) {
            int from = start;
            int to = Math.min(data.size(), start + LOAD_BATCH);
            db.run(tr -> {
                for (int i = from; i < to; i++) {
                    tr.set(data.key(i), data.value(i));
                }
                return null;
            });
        }
    }

    @Override
    public KvSession session() {
        return new Session();
    }

    @Override
    public void close() {
        db.close();
        if (directory != null) {
            TempDirectories.delete(directory);
        }
    }

    private final class Session implements KvSession {
        private Transaction reader;

        @Override
        public byte[] read(byte[] key) {
            if (reader == null) {
                reader = db.createTransaction();
            }
            return reader.get(key).join();
        }

        @Override
        public void endRead() {
            if (reader != null) {
                reader.close();
                reader = null;
            }
        }

        @Override
        public void write(byte[] key, byte[] value) {
            db.run(tr -> {
                tr.set(key, value);
                return null;
            });
        }

        @Override
        public CompletableFuture<Void> writeAsync(byte[] key, byte[] value) {
            return db.runAsync(tr -> {
                tr.set(key, value);
                return CompletableFuture.completedFuture(null);
            });
        }

        @Override
        public int readModifyWrite(byte[] key, byte[] value) {
            int[] attempts = {0};
            db.run(tr -> {
                attempts[0]++;
                tr.get(key).join();
                tr.set(key, value);
                return null;
            });
            return attempts[0];
        }

        @Override
        public void close() {
            endRead();
        }
    }
}
