package io.strata;

import com.apple.foundationdb.Database;
import io.strata.engine.Engine;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;

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
    private Strata() {}

    /** A new, empty database held in memory only; it disappears when closed. */
    public static Database inMemory() {
        return builder().inMemory();
    }

    /**
     * A durable database in {@code directory}. Durable storage is not available yet: this
     * always throws, so that no one mistakes an in-memory database for a durable one.
     *
     * @throws UnsupportedOperationException always, until durable storage lands
     */
    public static Database open(Path directory) {
        return builder().open(directory);
    }

    /** Options for a new database: faults, latency, executor, clock. */
    public static Builder builder() {
        return new Builder();
    }

    /** Configures a database before it is opened. Not thread-safe; use once. */
    public static final class Builder {
        private FaultPolicy faults = FaultPolicy.none();
        private LatencyModel latency = LatencyModel.none();
        private Executor executor;
        private LongSupplier nanoTime = System::nanoTime;

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

        /** Monotonic time source behind versions (default: {@link System#nanoTime()}); for tests. */
        public Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime);
            return this;
        }

        public Database inMemory() {
            Engine engine = new Engine(faults, latency, nanoTime);
            return new EngineDatabase(engine, executor != null ? executor : engine.pool(), null);
        }

        public Database open(Path directory) {
            Objects.requireNonNull(directory);
            throw new UnsupportedOperationException("Strata.open(" + directory + "): durable databases are not available in this "
                    + "version of Strata; use Strata.inMemory() (data is lost on close)");
        }

    }
}
