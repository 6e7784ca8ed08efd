package io.strata;

import com.apple.foundationdb.Database;
import io.strata.engine.Engine;
import io.strata.engine.client.Completion;
import io.strata.engine.client.Connection;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.durability.Checkpointer;
import io.strata.engine.durability.DatabaseDirectory;
import io.strata.engine.durability.Durability;
import io.strata.engine.durability.LogTrimmer;
import io.strata.engine.fault.LatencyModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Opens Strata databases: FoundationDB's semantics behind fdb-java's {@link Database}.
 *
 * <pre>{@code
 * Database db = Strata.inMemory();
 * db.run(tr -> { tr.set(key, value); return null; });
 * }</pre>
 *
 * <p>The returned database behaves as a FoundationDB cluster would for the same calls —
 * same results, same conflicts, same error codes — and never loads FoundationDB's native
 * client. Close it to stop its threads.
 */
public final class Strata {
    /** The connection string of a database held in memory only. */
    static final String MEMORY = "strata:memory";
    /**
     * For test suites: {@code -Dstrata.inMemory.storage=ssd} makes {@link #inMemory()} and
     * {@link Builder#inMemoryEngine()} open a disk-store engine in a temporary directory
     * (deleted on close) instead, so the same tests run on both storage engines.
     */
    public static final String TEST_STORAGE_PROPERTY = "strata.inMemory.storage";

    private Strata() {}

    /** A new, empty database held in memory only; it disappears when closed. */
    public static Database inMemory() {
        return builder().inMemory();
    }

    /**
     * Opens, or creates, the durable database in {@code directory}, with
     * {@link Durability#FSYNC}: a commit that returned is on disk. See {@link Builder#open}.
     */
    public static Database open(Path directory) {
        return builder().open(directory);
    }

    /** Options for a new database: faults, latency, executor, completion, clock. */
    public static Builder builder() {
        return new Builder();
    }

    /** Configures a database before it is opened. Not thread-safe; use once. */
    public static final class Builder {
        private FaultPolicy faults = FaultPolicy.none();
        private LatencyModel latency = LatencyModel.none();
        /** -1: the engine's default. */
        private long memoryLimit = -1;
        private Executor executor;
        private LongSupplier nanoTime = System::nanoTime;
        private Durability durability = Durability.FSYNC;
        private long checkpointLogBytes = Checkpointer.DEFAULT_LOG_BYTES;
        /** Null: what created the directory, else memory. */
        private Storage storage;
        private long diskCacheBytes = -1;
        private Completion completion = Completion.IMMEDIATE;
        private MvccWindow mvccWindow = MvccWindow.FIVE_SECONDS;

        private Builder() {}

        /** Faults injected at commit (default: none). */
        public Builder faults(FaultPolicy faults) {
            this.faults = Objects.requireNonNull(faults);
            return this;
        }

        /** Latency added to read versions, reads and commits (default: none). */
        public Builder latency(LatencyModel latency) {
            this.latency = Objects.requireNonNull(latency);
            return this;
        }

        /** Executor of transaction callbacks (default: the engine's own pool of daemon threads). */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor);
            return this;
        }

        /**
         * Complete every future the way fdb-java does: through the transaction's executor, never
         * already complete when the call returns, even when the answer is known at once (see
         * {@link Completion#FDB_JAVA}). For code written against fdb-java that tells the two
         * apart — a polling loop of {@code AsyncUtil.whileTrue} that must yield, a check of
         * {@code isDone()} — at the price of one executor hand-off per call. strata-fdb's
         * databases always complete this way. Default: futures complete as soon as the engine
         * knows the answer.
         */
        public Builder completeLikeFdbJava() {
            this.completion = Completion.FDB_JAVA;
            return this;
        }

        /** Monotonic time source behind versions (default: {@link System#nanoTime()}); for tests. */
        public Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime);
            return this;
        }

        /** A new, empty database held in memory only; it disappears when closed. */
        public Database inMemory() {
            Engine engine = inMemoryEngine();
            return EngineDatabase.owning(engine, executor != null ? executor : engine.pool(), Connection.direct(MEMORY), completion);
        }

        /**
         * A new, empty engine held in memory only, for code that hands out several database
         * handles on one engine ({@link EngineDatabase#handle}); the caller closes it.
         */
        public Engine inMemoryEngine() {
            if (Storage.SSD.label().equals(System.getProperty(TEST_STORAGE_PROPERTY))) {
                return diskEngineForTests();
            }
            return limited(new Engine(faults, latency, nanoTime));
        }

        /**
         * {@link #inMemoryEngine} under {@code -Dstrata.inMemory.storage=ssd}: a disk-store
         * engine in a new temporary directory, deleted when the engine closes, so that a test
         * suite written against {@link Strata#inMemory()} runs unchanged on the disk engine.
         */
        private Engine diskEngineForTests() {
            Path directory;
            try {
                directory = java.nio.file.Files.createTempDirectory("strata-ssd-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a directory for the disk engine", e);
            }
            Storage asked = storage;
            Durability chosen = durability;
            storage = Storage.SSD;
            durability = Durability.OS_BUFFERED;
            try {
                return openEngine(directory, () -> deleteTree(directory));
            } finally {
                storage = asked;
                durability = chosen;
            }
        }

        private static void deleteTree(Path directory) throws IOException {
            try (var paths = java.nio.file.Files.walk(directory)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.deleteIfExists(p);
                }
            }
        }

        /**
         * The most the store may take on the Java heap (keys, values, the versions of the
         * 5-second window and the objects holding them, as the engine estimates them), 0 for
         * no limit; by default 60% of the heap's maximum. Past it, a commit that writes
         * anything but clears fails with {@code storage_quota_exceeded} (1225), as a
         * FoundationDB tenant over its storage quota does — commits that clear still go through
         * (with up to 1 KiB of other writes per clear, a layer's bookkeeping), so space can be
         * freed — rather than the process ending in an {@code OutOfMemoryError}.
         */
        public Builder memoryLimit(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("memory limit must be 0 (none) or positive, got " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /**
         * How long old versions stay readable (default {@link MvccWindow#FIVE_SECONDS},
         * FoundationDB's); {@link MvccWindow#OPEN_TRANSACTIONS} keeps them only for the open
         * transactions that may read them.
         */
        public Builder mvccWindow(MvccWindow window) {
            this.mvccWindow = Objects.requireNonNull(window);
            return this;
        }

        private Engine limited(Engine engine) {
            if (memoryLimit >= 0) {
                engine.pipeline().memoryLimit(memoryLimit);
            }
            if (mvccWindow == MvccWindow.OPEN_TRANSACTIONS) {
                engine.pipeline().keepVersionsForOpenTransactions();
            }
            return engine;
        }

        /** When commits are acknowledged relative to the disk (default {@link Durability#FSYNC}). */
        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability);
            return this;
        }

        /**
         * Where a new database directory keeps its data (see {@link Storage}); recorded in the
         * directory, so a later open needs no choice, and an open that asks for another
         * storage than the one that created the directory is refused. Default: what created
         * the directory; for a new one, {@link Storage#MEMORY}.
         */
        public Builder storage(Storage storage) {
            this.storage = Objects.requireNonNull(storage);
            return this;
        }

        /**
         * The disk store's block cache under {@link Storage#SSD}, in bytes, outside the Java
         * heap (default: an eighth of the heap's maximum, at least 32 MiB).
         */
        public Builder diskCacheBytes(long bytes) {
            if (bytes < 1 << 20) {
                throw new IllegalArgumentException("disk cache must be at least 1 MiB, got " + bytes);
            }
            this.diskCacheBytes = bytes;
            return this;
        }

        /**
         * Write a checkpoint whenever this many bytes of log accumulated since the last one
         * (default 64 MiB): smaller bounds restart time and disk use, larger costs fewer
         * checkpoints. Durable databases only.
         */
        public Builder checkpointEveryLogBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("checkpoint interval must be at least 1 byte, got " + bytes);
            }
            this.checkpointLogBytes = bytes;
            return this;
        }

        /**
         * Opens, or creates, the durable database in {@code directory}: takes the directory's
         * lock, recovers everything committed before (a torn tail of the log, from a crash
         * mid-write, is cut off), and logs every commit batch before acknowledging it.
         *
         * @throws IllegalStateException when the directory is already open, here or in another process
         * @throws UncheckedIOException  when it cannot be read or written; its cause is a
         *                               {@link io.strata.engine.durability.CorruptLogException}
         *                               naming the file and offset when data is damaged
         */
        public Database open(Path directory) {
            Engine engine = openEngine(directory);
            return EngineDatabase.owning(engine, executor != null ? executor : engine.pool(),
                    Connection.direct("strata:" + directory.toAbsolutePath().normalize()), completion);
        }

        /**
         * Opens the durable engine in {@code directory} as {@link #open(Path)} does, for code
         * that hands out several database handles on one engine ({@link EngineDatabase#handle});
         * the caller closes it, which releases the directory.
         */
        public Engine openEngine(Path directory) {
            return openEngine(directory, null);
        }

        /** {@link #openEngine(Path)}, running {@code afterClose} (if not null) once the engine released the directory. */
        private Engine openEngine(Path directory, AutoCloseable afterClose) {
            Objects.requireNonNull(directory);
            DatabaseDirectory.Opened opened;
            try {
                long cache = diskCacheBytes > 0 ? diskCacheBytes : Math.max(32L << 20, Runtime.getRuntime().maxMemory() / 8);
                opened = DatabaseDirectory.open(directory, durability, storage, cache);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the Strata database " + directory + ": " + e.getMessage(), e);
            }
            AutoCloseable release = afterClose == null ? opened.lock() : () -> {
                try {
                    opened.lock().close();
                } finally {
                    afterClose.close();
                }
            };
            Engine engine = new Engine(faults, latency, nanoTime, opened.store(), opened.baseVersion(), opened.log(), release);
            engine.runAlongside(opened.storage() == Storage.SSD
                    ? new LogTrimmer(directory, opened.log(), engine.pipeline(), opened.store(), checkpointLogBytes)
                    : new Checkpointer(directory, opened.log(), engine.pipeline(), opened.store(), checkpointLogBytes));
            return limited(engine);
        }
    }
}
