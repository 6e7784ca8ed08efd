package com.apple.foundationdb;

import io.strata.ClusterFile;
import io.strata.ConnectionString;
import io.strata.engine.Engine;
import io.strata.engine.client.Completion;
import io.strata.engine.client.Connection;
import io.strata.engine.client.EngineDatabase;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The databases {@link FDB#open} hands out: one engine per target, shared by every handle
 * opened on it, as every {@code FDB.open} of one cluster reaches the same data.
 *
 * <h2>Lifetimes</h2>
 * An in-memory engine lives until the network stops: its data must outlive the handles, as a
 * cluster's outlives its clients (test suites open, close and reopen the default database
 * many times and expect what they wrote). A durable engine is closed when its last handle
 * closes, which releases its directory to other processes; the next open recovers it.
 * Transactions of a handle's engine that was closed fail from then on. When the network
 * stops, every handle and engine is closed.
 *
 * <h2>Completion</h2>
 * Every handle completes its futures as fdb-java does ({@link Completion#FDB_JAVA}): through the
 * transaction's executor, never already complete when the call returns. Code written for
 * fdb-java depends on it — the Record Layer's polling loops, its wait timers and its store-state
 * cache among others. A connection string's {@code ?completion=immediate} opts a handle out, for
 * code that does not depend on it and wants reads without an executor hand-off each.
 *
 * <h2>Concurrency</h2>
 * Every method is synchronized on the class: opening, the last close of a target and
 * {@link #closeAll} never interleave, so a handle never reaches an engine being closed.
 */
final class StrataDatabases {
    /** One engine and the handles open on it. */
    private static final class Target {
        final ConnectionString connection;
        final Engine engine;
        final Set<Database> handles = new HashSet<>();

        Target(ConnectionString connection, Engine engine) {
            this.connection = connection;
            this.engine = engine;
        }
    }

    // Guarded by StrataDatabases.class.
    private static final Map<String, Target> targets = new HashMap<>();

    private StrataDatabases() {}

    /** Opens a handle on the database {@code clusterFilePath} (or the default rules) name. */
    static synchronized Database open(String clusterFilePath, Executor executor, EventKeeper eventKeeper) {
        Optional<ClusterFile.Found> found = ClusterFile.ofThisProcess().locate(clusterFilePath);
        if (found.isPresent() && !ConnectionString.isStrata(found.get().contents())
                && ConnectionString.looksLikeFoundationDb(found.get().contents())) {
            // As fdb-java, open without contacting the cluster; its first use fails with what to do.
            ClusterFile.Found f = found.get();
            return RefusedCluster.open(f.contents(), f.file() == null ? "" : f.file().toString(), executor, foundationDbCluster(f));
        }
        ConnectionString connection = parse(found);
        Target target = targets.get(connection.target());
        if (target == null) {
            target = new Target(connection, start(connection));
            targets.put(connection.target(), target);
        } else if (!target.connection.sameOptions(connection)) {
            throw new FDBException("Invalid API call: the Strata database " + connection.target()
                    + " is already open in this JVM as '" + target.connection.text() + "'; '" + connection.text()
                    + "' asks for other options", 2000);
        }
        Target opened = target;
        String file = found.map(f -> f.file() == null ? null : f.file().toString()).orElse(null);
        AtomicReference<Database> self = new AtomicReference<>();
        Database handle = EngineDatabase.handle(target.engine, executor, eventKeeper, new Connection(connection.text(), file),
                () -> released(opened, self.get()), connection.completion());
        self.set(handle);
        target.handles.add(handle);
        return handle;
    }

    /** Closes every handle and every engine: the network stopped. */
    static synchronized void closeAll() {
        List<Target> all = new ArrayList<>(targets.values());
        targets.clear();
        RuntimeException failure = null;
        for (Target target : all) {
            try {
                for (Database handle : List.copyOf(target.handles)) {
                    handle.close();
                }
                target.engine.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static synchronized void released(Target target, Database handle) {
        target.handles.remove(handle);
        if (target.handles.isEmpty() && !target.connection.inMemory() && targets.get(target.connection.target()) == target) {
            targets.remove(target.connection.target());
            target.engine.close();
        }
    }

    private static ConnectionString parse(Optional<ClusterFile.Found> found) {
        if (found.isEmpty()) {
            return ConnectionString.parse("strata:memory", Path.of("").toAbsolutePath());
        }
        ClusterFile.Found f = found.get();
        String contents = f.contents();
        if (!ConnectionString.isStrata(contents)) {
            throw new FDBException("Connection string invalid: " + f.source() + " holds neither a Strata connection string "
                    + "('strata:memory', 'strata:memory:NAME', 'strata:PATH') nor a FoundationDB one", 2104);
        }
        try {
            return ConnectionString.parse(contents, f.baseDirectory());
        } catch (IllegalArgumentException e) {
            throw new FDBException("Connection string invalid: " + f.source() + ": " + e.getMessage(), 2104);
        }
    }

    /** The error every use of a FoundationDB cluster fails with: what strata-fdb is, and what to do. */
    private static FDBException foundationDbCluster(ClusterFile.Found f) {
        return new FDBException("Operation is not supported: " + f.source() + " names a FoundationDB cluster, and this is "
                + "strata-fdb, which runs Strata's embedded engine in this process and cannot reach a cluster. To use the "
                + "cluster, depend on org.foundationdb:fdb-java (FoundationDB's native client) instead of strata-fdb; to use "
                + "Strata, point the cluster file at a Strata database (e.g. 'strata:memory' or 'strata:/path/to/dir') or set "
                + "-D" + ClusterFile.DATABASE_PROPERTY + "=strata:memory", 2108);
    }

    private static Engine start(ConnectionString connection) {
        if (connection.inMemory()) {
            return connection.builder().inMemoryEngine();
        }
        try {
            return connection.builder().openEngine(connection.directory());
        } catch (IllegalStateException | UncheckedIOException e) {
            FDBException error = new FDBException("A disk i/o operation failed: cannot open the Strata database in "
                    + connection.directory() + ": " + e.getMessage(), 1510);
            error.initCause(e);
            throw error;
        }
    }
}
