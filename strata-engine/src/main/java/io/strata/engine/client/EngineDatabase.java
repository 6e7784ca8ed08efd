package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.DatabaseOptions;
import com.apple.foundationdb.EventKeeper;
import com.apple.foundationdb.KeyRangeArrayResult;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Tenant;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.engine.Engine;
import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.cluster.ClientStatus;
import io.strata.engine.error.FdbError;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * fdb-java's {@link Database} on the embedded engine.
 *
 * <p>Transactions complete their futures on the executor they were created with (by
 * default the database's own cached pool of daemon threads, like fdb-java's
 * {@code FDB.DEFAULT_EXECUTOR}). The retry loops behave exactly like fdb-java's
 * {@code FDBDatabase}: {@code run} applies the function, commits, and on any
 * {@link RuntimeException} asks {@code onError}, whose failure propagates (as a
 * {@code CompletionException}, as in fdb-java: thrown by {@code run}, and stored in the future
 * of {@code runAsync}); the transaction is closed at the end.
 * {@code read} and {@code readAsync} are {@code run} and {@code runAsync}, commit included,
 * as in fdb-java (committing a read-only transaction costs nothing).
 *
 * <p>How the futures complete is the database's {@link Completion}: at once when the engine
 * knows the answer ({@link Completion#IMMEDIATE}, the default of {@code Strata}'s databases),
 * or always through the transaction's executor as fdb-java's do ({@link Completion#FDB_JAVA},
 * strata-fdb's handles; see {@link MarshalledFuture}). Under the second, {@code runAsync}
 * also decides each attempt's outcome on the executor, as fdb-java's loop does
 * ({@code composeHandleAsync}), so its future is never complete when it returns either.
 *
 * <p>Tenants and blob granules are not supported and fail with {@code tenants_disabled}
 * (2136) or {@code unsupported_operation} (2108).
 */
public final class EngineDatabase implements Database {
    final Engine engine;
    final DatabaseDefaults defaults;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    /** Whether closing this database stops the engine (false for one of several handles on it). */
    private final boolean ownsEngine;
    /** Records the events of every transaction created without one of its own; may be null. */
    private final EventKeeper eventKeeper;
    private final Connection connection;
    /** Run once when this database closes (a handle tells whoever shares the engine); may be null. */
    private final Runnable onClose;
    private final Completion completion;
    /**
     * What {@code \xff\xff/cluster_file_path} answers when the database was opened without a
     * cluster file: FoundationDB's in-memory connection record is named by a random {@code UID}
     * of its own, one per database handle ({@code ClusterConnectionMemoryRecord::getLocation}).
     */
    private final String connectionRecordId = io.strata.engine.cluster.ProcessInfo.uid();
    private volatile boolean closed;

    /**
     * A database that owns its engine: closing it stops the engine.
     *
     * @param engine        the running engine, closed with this database
     * @param executor      default executor of transactions
     * @param ownedExecutor shut down on close, or null when the caller owns {@code executor}
     */
    public EngineDatabase(Engine engine, Executor executor, ExecutorService ownedExecutor) {
        this(engine, executor, ownedExecutor, true, null, Connection.direct("strata:memory"), null, Completion.IMMEDIATE);
    }

    private EngineDatabase(Engine engine, Executor executor, ExecutorService ownedExecutor, boolean ownsEngine,
                           EventKeeper eventKeeper, Connection connection, Runnable onClose, Completion completion) {
        this.engine = engine;
        this.defaults = new DatabaseDefaults(engine.watches());
        this.executor = executor;
        this.ownedExecutor = ownedExecutor;
        this.ownsEngine = ownsEngine;
        this.eventKeeper = eventKeeper;
        this.connection = connection;
        this.onClose = onClose;
        this.completion = completion;
    }

    /** A database that owns its engine, reached as {@code connection} says. */
    public static EngineDatabase owning(Engine engine, Executor executor, Connection connection) {
        return owning(engine, executor, connection, Completion.IMMEDIATE);
    }

    /** A database that owns its engine, reached as {@code connection} says, whose futures complete as {@code completion} says. */
    public static EngineDatabase owning(Engine engine, Executor executor, Connection connection, Completion completion) {
        return new EngineDatabase(engine, executor, null, true, null, connection, null, Objects.requireNonNull(completion));
    }

    /**
     * One of several handles on a shared engine, as each {@code FDB.open} of the same cluster
     * is in fdb-java: its own options and default executor; closing it leaves the engine and
     * the other handles running (whoever shares the engine closes it).
     *
     * @param eventKeeper records the events of transactions created without one, or null
     * @param onClose     run once, when this handle is closed (the first time), or null
     * @param completion  how its futures complete ({@link Completion#FDB_JAVA} for fdb-java's users)
     */
    public static EngineDatabase handle(Engine engine, Executor executor, EventKeeper eventKeeper, Connection connection,
                                        Runnable onClose, Completion completion) {
        return new EngineDatabase(engine, executor, null, false, eventKeeper, connection, onClose, Objects.requireNonNull(completion));
    }

    /** The engine behind this database, for tools and tests of the engine itself. */
    public Engine engine() {
        return engine;
    }

    /** How the futures of this database and its transactions complete. */
    public Completion completion() {
        return completion;
    }

    /**
     * {@code f} as this database hands it to the caller: as it is under
     * {@link Completion#IMMEDIATE}, through {@code executor} under {@link Completion#FDB_JAVA}.
     * Public for strata-fdb's own calls that fdb-java answers with a native future
     * ({@code LocalityUtil.getAddressesForKey}).
     */
    public <T> CompletableFuture<T> handOut(CompletableFuture<T> f, Executor executor) {
        return completion == Completion.FDB_JAVA ? MarshalledFuture.of(f, executor) : f;
    }

    /** Whether futures are handed back complete when the engine knows the answer ({@link Completion#IMMEDIATE}). */
    boolean completesImmediately() {
        return completion == Completion.IMMEDIATE;
    }

    /** As {@link #handOut}, for a future the transaction shares among calls: cancelling what is handed out leaves it alone. */
    <T> CompletableFuture<T> handOutShared(CompletableFuture<T> f, Executor executor) {
        return completion == Completion.FDB_JAVA ? MarshalledFuture.ofShared(f, executor) : f;
    }

    /** How this database was reached (its connection string and cluster file). */
    public Connection connection() {
        return connection;
    }

    /** The ID of this handle's connection record, for a database opened without a cluster file. */
    String connectionRecordId() {
        return connectionRecordId;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Cannot access closed object");
        }
    }

    @Override
    public Transaction createTransaction(Executor e) {
        return createTransaction(e, eventKeeper);
    }

    /**
     * A transaction that records fdb-java's {@link EventKeeper.Events} in {@code eventKeeper}
     * (see {@link CountedTransaction}), or records nothing when it is null — whatever keeper
     * this database was opened with, as in fdb-java.
     */
    @Override
    public Transaction createTransaction(Executor e, EventKeeper eventKeeper) {
        checkOpen();
        EngineTransaction tx = new EngineTransaction(this, e, TxOptions.fromDefaults(defaults), System.nanoTime(), 0,
                RetryBackoff.INITIAL_BACKOFF_MILLIS);
        // Without a keeper, the bare transaction: instrumentation costs nothing when unused.
        return eventKeeper == null ? tx : new CountedTransaction(tx, eventKeeper);
    }

    @Override
    public DatabaseOptions options() {
        // As FDBDatabase: handed out even when closed; setting an option is what fails then.
        return new DatabaseOptions((code, param) -> {
            checkOpen();
            defaults.set(code, param);
        });
    }

    @Override
    public Executor getExecutor() {
        return executor;
    }

    @Override
    public double getMainThreadBusyness() {
        return 0.0;
    }

    // ---------------------------------------------------------------- retry loops

    @Override
    public <T> T run(Function<? super Transaction, T> retryable, Executor e) {
        Transaction t = createTransaction(e);
        try {
            while (true) {
                try {
                    T result = retryable.apply(t);
                    // This thread blocks on the commit: it may as well run its batch itself.
                    CommitPipeline.callerWaits(t::commit).join();
                    return result;
                } catch (RuntimeException err) {
                    t = t.onError(err).join();
                }
            }
        } finally {
            t.close();
        }
    }

    /** As fdb-java's {@code FDBDatabase.read}: the same loop as {@link #run}, commit included. */
    @Override
    public <T> T read(Function<? super ReadTransaction, T> retryable, Executor e) {
        return run(retryable, e);
    }

    @Override
    public <T> CompletableFuture<T> runAsync(Function<? super Transaction, ? extends CompletableFuture<T>> retryable, Executor e) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(createTransaction(e), retryable, e, result);
        return result;
    }

    /** As fdb-java's {@code FDBDatabase.readAsync}: the same loop as {@link #runAsync}, commit included. */
    @Override
    public <T> CompletableFuture<T> readAsync(Function<? super ReadTransaction, ? extends CompletableFuture<T>> retryable, Executor e) {
        return runAsync(retryable, e);
    }

    /** One try of an async retry loop; the next try is scheduled from the completion, never nested. */
    private <T> void attempt(Transaction t, Function<? super Transaction, ? extends CompletableFuture<T>> fn, Executor e,
                             CompletableFuture<T> result) {
        CompletableFuture<T> body = TransactionOverloads.applySafely(fn, t);
        CompletableFuture<T> done = body.thenCompose(v -> t.commit().thenApply(ignored -> v));
        // No extra hop: the commit's dependent stage already runs on the executor, and a retry
        // cannot recurse deeply because onError always completes asynchronously (after its delay).
        // Under FDB_JAVA the outcome is decided on the executor, as fdb-java's loop decides it
        // (AsyncUtil.composeHandleAsync(..., e)): a body that fails at once (a thrown exception,
        // which onError fails at once too) must not complete the loop's future before it returns.
        BiConsumer<T, Throwable> decide = (value, err) -> {
            if (err == null) {
                t.close();
                result.complete(value);
                return;
            }
            t.onError(err).whenComplete((next, fatal) -> {
                if (fatal != null) {
                    t.close();
                    result.completeExceptionally(asDependentStageFailure(fatal));
                } else {
                    attempt(next, fn, e, result);
                }
            });
        };
        if (completion == Completion.FDB_JAVA) {
            done.whenCompleteAsync(decide, e);
        } else {
            done.whenComplete(decide);
        }
    }

    /**
     * The failure as fdb-java's {@code runAsync} stores it: its future is a dependent stage
     * ({@code whileTrue(...).thenApply(...)}), so handlers see a {@code CompletionException}
     * around the cause, while {@code get} still reports the cause itself.
     */
    private static CompletionException asDependentStageFailure(Throwable failure) {
        return new CompletionException(EngineTransaction.unwrap(failure));
    }

    // ---------------------------------------------------------------- unsupported

    @Override
    public Tenant openTenant(Tuple tenantName) {
        throw FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
    }

    @Override
    public Tenant openTenant(byte[] tenantName, Executor e) {
        throw FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
    }

    @Override
    public Tenant openTenant(Tuple tenantName, Executor e) {
        throw FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
    }

    @Override
    public Tenant openTenant(byte[] tenantName, Executor e, EventKeeper eventKeeper) {
        throw FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
    }

    @Override
    public Tenant openTenant(Tuple tenantName, Executor e, EventKeeper eventKeeper) {
        throw FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
    }

    @Override
    public CompletableFuture<byte[]> purgeBlobGranules(byte[] beginKey, byte[] endKey, long purgeVersion, boolean force, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Void> waitPurgeGranulesComplete(byte[] purgeKey, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Boolean> blobbifyRange(byte[] beginKey, byte[] endKey, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Boolean> blobbifyRangeBlocking(byte[] beginKey, byte[] endKey, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Boolean> unblobbifyRange(byte[] beginKey, byte[] endKey, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<KeyRangeArrayResult> listBlobbifiedRanges(byte[] beginKey, byte[] endKey, int rangeLimit, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Long> verifyBlobRange(byte[] beginKey, byte[] endKey, long version, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<Boolean> flushBlobRange(byte[] beginKey, byte[] endKey, boolean compact, long version, Executor e) {
        return handOut(Unsupported.failed("blob granules"), e);
    }

    @Override
    public CompletableFuture<byte[]> getClientStatus(Executor e) {
        checkOpen();
        String report = ClientStatus.report(engine.process(), connection.connectionString(), connection.clusterFilePath());
        CompletableFuture<byte[]> result = new ExecutorBoundFuture<>(e);
        result.complete(report.getBytes(StandardCharsets.UTF_8));
        return handOut(result, e);
    }

    /**
     * Closes this database: later use throws {@link IllegalStateException}. A database that
     * owns its engine also stops it, failing transactions in flight; a {@linkplain #handle
     * handle} leaves the engine to whoever shares it.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ownsEngine) {
            engine.close();
        }
        if (onClose != null) {
            onClose.run();
        }
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
        }
    }
}
