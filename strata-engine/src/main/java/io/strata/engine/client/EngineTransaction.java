package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeyRangeArrayResult;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.TransactionOptions;
import com.apple.foundationdb.async.AsyncIterable;
import io.strata.engine.Engine;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.commit.CommitRequest;
import io.strata.engine.commit.CommitResult;
import io.strata.engine.commit.ConflictRanges;
import io.strata.engine.commit.Mutation;
import io.strata.engine.commit.OpenReadVersions;
import io.strata.engine.error.FdbError;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.util.ByteKeys;
import io.strata.engine.version.VersionClock;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * fdb-java's {@link Transaction} on the embedded engine, with FoundationDB's
 * read-your-writes semantics ({@code fdbclient/ReadYourWrites.actor.cpp}).
 *
 * <h2>State</h2>
 * A read version taken at the first read the store must answer; the {@link WriteMap} that
 * reads see; the {@link ReadCache} of what reads found, which with the writes answers later
 * reads without the store (RYW's snapshot cache); the mutations in issue order; read and
 * write conflict ranges. {@code commit} sends them to
 * the commit pipeline. Errors of {@code void} calls ({@code set}, {@code clear},
 * {@code mutate}, conflict ranges) are deferred, as the C client defers them: the call
 * returns, and the next read, watch or commit fails with the error.
 *
 * <h2>Concurrency</h2>
 * Like FoundationDB's, a transaction is meant for one thread at a time; its methods are
 * synchronized so that a commit completing on another thread, a timeout or a cancel never
 * races the user's calls. Completions run on the transaction's executor, never on the
 * sequencer.
 *
 * <h2>Lifecycle</h2>
 * active → committing → committed / failed. {@code commit} first waits for the reads already
 * issued, then sends; a read that failed fails it with the read's error instead
 * ({@link OutstandingReads}). From the moment it is called every operation but
 * {@code getReadVersion} and {@code getApproximateSize} is {@code used_during_commit} (2017);
 * it resets the transaction too unless {@code used_during_commit_protection_disable} is set,
 * which fdb-java does for a new transaction but not for a retry. {@code onError}
 * hands back a fresh transaction and closes this one, or fails with the reset error;
 * {@code cancel} and the timeout reset the transaction, failing everything pending and
 * future with 1025 / 1031 — except a commit the sequencer already has, which reports what the
 * sequencer decides, while one still on its way is withdrawn ({@link CommitFlight});
 * {@code close} makes any further use an {@link IllegalStateException}, as fdb-java does for a
 * disposed native object.
 *
 * <h2>Arrays</h2>
 * fdb-java copies every array a call takes before the call returns, and every array a read
 * returns is the caller's own. So here: a call copies what it keeps (a written key and value,
 * a conflict range's ends, a key a read will use later), and a read hands out copies of what
 * it found. What the transaction keeps is therefore never shared with the caller, and the
 * store, the write map and the conflict ranges can hold those arrays by reference.
 *
 * <h2>Watches</h2>
 * A watch reads its key as a serializable read (a read conflict range unless its own writes
 * answer it), fires at once if this transaction then writes the key differently, and becomes
 * active at commit, comparing what it read with the key's value from then on.
 *
 * <h2>Helpers</h2>
 * This class keeps the state and the decisions that need its monitor. What needs neither lives
 * beside it: key and value rules in {@link KeyRules}, the conflict range of a read in
 * {@link ReadConflicts}, retry arithmetic in {@link RetryBackoff}, the trip to the commit
 * pipeline in {@link CommitDelivery}, per-watch bookkeeping in {@link TransactionWatches}
 * (guarded by this monitor), what a mapped range batch reads in {@link MappedRangeRead} and
 * {@link Mapper}, calls that reduce to others in {@link TransactionOverloads}, and
 * the special key space {@code \xff\xff/…} in {@link TransactionSpecialKeys}: {@code get},
 * {@code getRange}, {@code set} and {@code clear} hand special keys over to it before their own
 * checks, as RYW does.
 */
final class EngineTransaction extends TransactionOverloads {

    enum State { ACTIVE, COMMITTING, COMMITTED, FAILED }

    final EngineDatabase db;
    final Engine engine;
    final Executor executor;
    final TxOptions options;
    /** When the first attempt started (nanoTime): the timeout counts from here across retries. */
    final long startNanos;
    final int retries;
    final double backoffMillis;

    /**
     * What reads see of this transaction's writes. A read that must wait (for the read
     * version) keeps the map as it was when issued, as RYW's iterator snapshots the write
     * map: the map is then marked shared, and the next write copies it first.
     */
    WriteMap writes = new WriteMap();
    boolean writesShared;
    /** What reads found in the store (RYW's snapshot cache); null until the first such read. */
    ReadCache readCache;
    final List<Mutation> mutations = new ArrayList<>();
    /**
     * Indices in {@link #mutations} of mutations a later set, clear or versionstamped value of
     * the same key made dead; null until the first. The commit sends the others only: the
     * dead ones would be applied and then overwritten within the same version, where no reader
     * sees them (a lane of the Redis server sets one key hundreds of times in a transaction).
     */
    BitSet deadMutations;
    final ConflictRanges readConflicts = new ConflictRanges();
    final ConflictRanges writeConflicts = new ConflictRanges();
    final TransactionWatches watches;
    final List<CompletableFuture<?>> pending = new ArrayList<>(0);
    /** The reads a commit waits for, and the read failure it reports (RYW's {@code reading}). */
    final OutstandingReads reading = new OutstandingReads();
    /** The commit from {@code commit()} until the sequencer has it; null before {@code commit()}. */
    CommitFlight commitFlight;

    long readVersion = -1;
    CompletableFuture<Long> readVersionFuture;
    /**
     * Keeps this transaction's read version readable (see {@link OpenReadVersions}) until it
     * ends: released once, by {@link #releaseReadHold}. Null without one.
     */
    OpenReadVersions.ReadHold readHold;
    /** The running commit-size estimate (see {@link CommitSize#worthComputing}): every write and conflict range. */
    long mutationBytes;
    long conflictBytes;
    /**
     * What {@code getApproximateSize} answers: RYW's {@code approximateSize}, which counts as
     * {@code ReadYourWrites.actor.cpp} does call by call. It differs from the estimate above:
     * {@code clear(key)} counts its mutation as a {@code KeyRangeRef}, and nothing at all with
     * read-your-writes disabled; an empty {@code clear(begin, end)} counts; reads with
     * read-your-writes disabled leave their conflict ranges to NativeAPI, uncounted.
     */
    long approximateSize;
    /** Whether a read was issued; read_your_writes_disable is refused after one, as after a write. */
    boolean readIssued;
    /** Whether any clear was issued: only then can the exact commit size exceed the running one. */
    boolean clearedRanges;
    State state = State.ACTIVE;
    FDBException deferred;
    /** Set by cancel or timeout: every later operation fails with it. */
    FDBException reset;
    boolean closed;
    long committedVersion = -1;
    CompletableFuture<byte[]> versionstamp;
    ScheduledFuture<?> timeoutTask;
    private final SnapshotView snapshotView = new SnapshotView(this);
    /** Reads and writes of {@code \xff\xff/…}, and what they remember (conflicting keys, error message). */
    final TransactionSpecialKeys special = new TransactionSpecialKeys(this);

    EngineTransaction(EngineDatabase db, Executor executor, TxOptions options, long startNanos, int retries, double backoffMillis) {
        this.db = db;
        this.engine = db.engine;
        this.executor = executor;
        this.options = options;
        this.startNanos = startNanos;
        this.retries = retries;
        this.backoffMillis = backoffMillis;
        this.watches = new TransactionWatches(this, engine, executor);
        armTimeout();
    }

    // ---------------------------------------------------------------- options and lifecycle

    @Override
    public TransactionOptions options() {
        return new TransactionOptions((code, param) -> {
            synchronized (this) {
                checkOpen();
                // FoundationDB checks a value-less option's value first (before the checks below).
                TxOptions.validateValueNotPresent(code, param);
                if (code == TxOptions.READ_YOUR_WRITES_DISABLE && (readIssued || !mutations.isEmpty() || !writeConflicts.isEmpty())) {
                    // FoundationDB refuses to switch read-your-writes off once reads or writes were made.
                    throw FdbError.CLIENT_INVALID_OPERATION.exception("read_your_writes_disable must be set before any read or write");
                }
                if (code == TxOptions.READ_YOUR_WRITES_DISABLE) {
                    // What read conflict ranges there are now, RYW recorded itself (explicit ranges,
                    // mapped range reads); a commit with read-your-writes off sends only NativeAPI's
                    // (RYWImpl::commit), so they are dropped. No write conflict range exists yet.
                    readConflicts.clear();
                    conflictBytes = 0;
                }
                if (code == TxOptions.INITIALIZE_NEW_DATABASE) {
                    // NativeAPI Transaction::setOption: refused once there is a read version,
                    // else the read version becomes 0, which every read then refuses.
                    if (readVersionFuture != null) {
                        throw FdbError.READ_VERSION_ALREADY_SET.exception();
                    }
                    readVersion = 0;
                    readVersionFuture = CompletableFuture.completedFuture(0L);
                }
                if (options.set(code, param)) {
                    armTimeout();
                }
            }
        });
    }

    void armTimeout() {
        if (timeoutTask != null) {
            timeoutTask.cancel(false);
            timeoutTask = null;
        }
        if (options.timeoutMillis <= 0) {
            return;
        }
        long deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(options.timeoutMillis);
        long delay = deadlineNanos - System.nanoTime();
        if (delay <= 0) {
            abort(FdbError.TRANSACTION_TIMED_OUT.exception());
        } else {
            timeoutTask = engine.timer().schedule(() -> abort(FdbError.TRANSACTION_TIMED_OUT.exception()), delay, TimeUnit.NANOSECONDS);
        }
    }

    /** Cancel and timeout: fail everything pending and everything to come with {@code error}. */
    void abort(FDBException error) {
        List<CompletableFuture<?>> toFail;
        synchronized (this) {
            if (reset != null || closed) {
                return;
            }
            if (state == State.COMMITTED && error.getCode() == FdbError.TRANSACTION_TIMED_OUT.code()) {
                return;
            }
            reset = error;
            releaseReadHold(); // every later read fails with the error
            toFail = new ArrayList<>(pending);
            pending.clear();
            if (keepsCommitInFlight(toFail)) {
                // The sequencer has the commit: its future, versionstamp and watches report
                // what it decides, not this reset (CommitFlight).
                pending.add(commitFlight.result);
            } else {
                watches.drainFuturesInto(toFail);
                if (versionstamp != null && state != State.COMMITTED) {
                    toFail.add(versionstamp);
                }
            }
            if (timeoutTask != null) {
                timeoutTask.cancel(false);
            }
        }
        for (CompletableFuture<?> f : toFail) {
            executor.execute(() -> f.completeExceptionally(error));
        }
    }

    /**
     * Withdraws the commit in flight if it is still on its way; true (removing its future from
     * {@code futures}) if the sequencer already has it, so that it must be left to report.
     */
    private boolean keepsCommitInFlight(List<CompletableFuture<?>> futures) {
        return commitFlight != null && futures.contains(commitFlight.result) && !commitFlight.withdraw()
                && futures.remove(commitFlight.result);
    }

    @Override
    public void cancel() {
        checkOpen();
        abort(FdbError.TRANSACTION_CANCELLED.exception());
    }

    @Override
    public void close() {
        boolean idle;
        synchronized (this) {
            if (closed) {
                return;
            }
            // The common case — nothing outstanding — must not pay for an exception's stack trace.
            // A committed transaction's versionstamp is known, only maybe not yet handed over
            // (finishCommit completes it just after leaving this monitor): closing keeps it.
            idle = pending.isEmpty() && watches.isEmpty()
                    && (versionstamp == null || versionstamp.isDone() || state == State.COMMITTED);
            if (idle) {
                closed = true;
                releaseReadHold();
                if (timeoutTask != null) {
                    timeoutTask.cancel(false);
                }
            }
        }
        if (!idle) {
            abort(FdbError.TRANSACTION_CANCELLED.exception());
            synchronized (this) {
                closed = true;
                releaseReadHold();
            }
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Cannot access closed object");
        }
    }

    /**
     * Every future this transaction hands its caller passes here: as it is under
     * {@link Completion#IMMEDIATE}, through the executor under {@link Completion#FDB_JAVA}
     * ({@link MarshalledFuture}). The calls that do are those
     * fdb-java answers with a native future; the engine's own uses of its reads (a watch's read,
     * the special keys') take the futures before this.
     */
    <T> CompletableFuture<T> handOut(CompletableFuture<T> f) {
        return db.handOut(f, executor);
    }

    /** {@link #handOut} of the read version's or the versionstamp's future, which every call that asks shares. */
    <T> CompletableFuture<T> handOutShared(CompletableFuture<T> f) {
        return db.handOutShared(f, executor);
    }

    /**
     * The error every operation must fail with now, or null: used-during-commit, reset, deferred.
     *
     * <p>Once commit has been called, every operation is {@code used_during_commit}, even after
     * the commit ended (RYW {@code checkUsedDuringCommit} returns {@code commitStarted}).
     */
    FDBException blockingError() {
        if (state != State.ACTIVE) {
            return usedDuringCommit();
        }
        if (reset != null) {
            return reset;
        }
        return deferred;
    }

    /**
     * RYW {@code checkUsedDuringCommit}, for a use after {@code commit} was called: the use fails
     * with {@code used_during_commit} and, unless {@code used_during_commit_protection_disable}
     * is set, first resets the transaction with that error, failing the commit in flight, the
     * reads pending and a later {@code onError}. fdb-java sets the option on the transactions
     * {@code createTransaction} makes, but not again on those {@code onError} hands back: RYW's
     * reset clears every option {@code fdb.options} does not mark persistent.
     */
    FDBException usedDuringCommit() {
        FDBException e = FdbError.USED_DURING_COMMIT.exception();
        if (!options.usedDuringCommitProtectionDisabled) {
            abort(e);
        }
        return e;
    }

    /** Records the first error of a void call, to surface at the next read, watch or commit. */
    void defer(FDBException e) {
        if (deferred == null) {
            deferred = e;
        }
    }

    /** Like {@link #blockingError()} for void calls: true when the call must be dropped. */
    boolean voidCallBlocked() {
        checkOpen();
        if (state != State.ACTIVE) {
            // Deferred like any void-call error; a reset only without the protection option.
            defer(usedDuringCommit());
            return true;
        }
        return reset != null;
    }

    // ---------------------------------------------------------------- read version

    @Override
    public CompletableFuture<Long> getReadVersion() {
        return handOutShared(TransactionReadVersion.readVersionNow(this));
    }

    @Override
    public void setReadVersion(long version) {
        TransactionReadVersion.setReadVersion(this, version);
    }

    // ---------------------------------------------------------------- reads

    byte[] maxReadKey() {
        return KeyRules.maxReadKey(options);
    }

    byte[] maxWriteKey() {
        return KeyRules.maxWriteKey(options);
    }

    boolean rywFor(boolean snapshot) {
        return !options.readYourWritesDisabled && !(snapshot && options.snapshotRywEnabled <= 0);
    }

    ReadCache readCache() {
        if (readCache == null) {
            readCache = new ReadCache();
        }
        return readCache;
    }

    /** Marks the mutation that made {@code replaced} (a write map entry a new write of its key replaced) dead. */
    void overwrote(WriteMap.Entry replaced) {
        if (replaced != null && replaced.mutation >= 0) {
            if (deadMutations == null) {
                deadMutations = new BitSet();
            }
            deadMutations.set(replaced.mutation);
        }
    }

    /** The mutations the commit sends: all but the dead ones, in issue order. */
    List<Mutation> liveMutations() {
        if (deadMutations == null) {
            return mutations;
        }
        List<Mutation> live = new ArrayList<>(mutations.size() - deadMutations.cardinality());
        for (int i = 0; i < mutations.size(); i++) {
            if (!deadMutations.get(i)) {
                live.add(mutations.get(i));
            }
        }
        return live;
    }

    /** The write map, ready to change: copied first if a waiting read still holds it. */
    WriteMap writesForUpdate() {
        if (writesShared) {
            writes = writes.copy();
            writesShared = false;
        }
        return writes;
    }

    boolean rywActive() {
        return !options.readYourWritesDisabled;
    }

    CompletableFuture<byte[]> get(byte[] key, boolean snapshot) {
        return handOut(TransactionReads.get(this, key, snapshot, ReadKind.READ));
    }

    CompletableFuture<byte[]> getKey(KeySelector selector, boolean snapshot) {
        return handOut(TransactionReads.getKey(this, selector, snapshot));
    }

    /**
     * One range read as FoundationDB's RYW {@code getRange} does it: validate, normalise the
     * selectors ({@code removeOrEqual}, here {@link KeyRules#ownWithoutOrEqual}), read, then record the conflict range the result
     * depended on ({@code addConflictRange} for forward and reverse reads).
     */
    CompletableFuture<ReadView.Rows> readRange(KeySelector begin, KeySelector end, int limit, boolean reverse, boolean snapshot) {
        return handOut(TransactionReads.readRange(this, begin, end, limit, reverse, snapshot));
    }

    @Override
    public CompletableFuture<byte[]> get(byte[] key) {
        return get(key, false);
    }

    @Override
    public CompletableFuture<byte[]> getKey(KeySelector selector) {
        return getKey(selector, false);
    }

    @Override
    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode) {
        return range(begin, end, limit, reverse, mode, false);
    }

    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode, boolean snapshot) {
        return range(begin, end, limit, reverse, mode, snapshot, null);
    }

    /** A range read whose batches and rows {@code events} counts (null: a transaction without a keeper). */
    AsyncIterable<KeyValue> range(KeySelector begin, KeySelector end, int limit, boolean reverse, StreamingMode mode, boolean snapshot,
                                  RangeQueryEvents events) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        return RangeIterable.keyValues(this, begin, end, limit, reverse, mode, snapshot, events);
    }

    /**
     * fdb-java's {@code getMappedRange}, serializable only (its snapshot view throws, see
     * {@link SnapshotView}). Batches are read by {@link #readMappedRange}.
     */
    @Override
    public AsyncIterable<MappedKeyValue> getMappedRange(KeySelector begin, KeySelector end, byte[] mapper, int limit, boolean reverse,
                                                        StreamingMode mode) {
        return getMappedRange(begin, end, mapper, limit, reverse, mode, null);
    }

    /** A mapped range read whose batches and rows {@code events} counts (null: a transaction without a keeper). */
    AsyncIterable<MappedKeyValue> getMappedRange(KeySelector begin, KeySelector end, byte[] mapper, int limit, boolean reverse,
                                                 StreamingMode mode, RangeQueryEvents events) {
        if (mapper == null) {
            throw new IllegalArgumentException("Mapper must be non-null"); // FDBTransaction.getMappedRange
        }
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        return RangeIterable.mapped(this, begin, end, mapper, limit, reverse, mode, events);
    }

    /** One batch of a mapped range read: see {@link TransactionMappedReads#readBatch}. */
    CompletableFuture<MappedRangeRead.Result> readMappedRange(KeySelector begin, KeySelector end, byte[] callersMapper, int limit,
                                                             StreamingMode mode, int iteration, boolean reverse) {
        return handOut(TransactionMappedReads.readBatch(this, begin, end, callersMapper, limit, mode, iteration, reverse));
    }

    @Override
    public CompletableFuture<Long> getEstimatedRangeSizeBytes(byte[] begin, byte[] end) {
        KeyRules.requireArguments(begin, end);
        return handOut(TransactionReads.estimatedRangeSize(this, begin, end));
    }


    @Override
    public CompletableFuture<KeyArrayResult> getRangeSplitPoints(byte[] begin, byte[] end, long chunkSize) {
        KeyRules.requireArguments(begin, end);
        return handOut(TransactionReads.splitPoints(this, begin, end, chunkSize));
    }


    @Override
    public CompletableFuture<KeyRangeArrayResult> getBlobGranuleRanges(byte[] begin, byte[] end, int rowLimit) {
        return handOut(super.getBlobGranuleRanges(begin, end, rowLimit));
    }

    @Override
    public ReadTransaction snapshot() {
        return snapshotView;
    }

    // ---------------------------------------------------------------- writes (TransactionWrites)

    @Override
    public void addReadConflictRange(byte[] begin, byte[] end) {
        TransactionWrites.addReadConflictRange(this, begin, end);
    }

    @Override
    public void addReadConflictKey(byte[] key) {
        TransactionWrites.addReadConflictKey(this, key);
    }

    @Override
    public void addWriteConflictRange(byte[] begin, byte[] end) {
        TransactionWrites.addWriteConflictRange(this, begin, end);
    }

    @Override
    public void set(byte[] key, byte[] value) {
        TransactionWrites.set(this, key, value);
    }

    @Override
    public void clear(byte[] key) {
        TransactionWrites.clear(this, key);
    }

    @Override
    public void clear(byte[] begin, byte[] end) {
        TransactionWrites.clear(this, begin, end);
    }

    @Override
    public void mutate(MutationType type, byte[] key, byte[] param) {
        TransactionWrites.mutate(this, type, key, param);
    }

    // ---------------------------------------------------------------- watches

    @Override
    public CompletableFuture<Void> watch(byte[] key) throws FDBException {
        KeyRules.requireArgument(key);
        return handOut(watchNow(key));
    }

    private synchronized CompletableFuture<Void> watchNow(byte[] key) {
        checkOpen();
        FDBException e = blockingError();
        if (e != null) {
            return CompletableFuture.failedFuture(e);
        }
        if (options.readYourWritesDisabled) {
            return CompletableFuture.failedFuture(FdbError.WATCHES_DISABLED.exception());
        }
        if (ByteKeys.compare(key, maxReadKey()) >= 0 && !Arrays.equals(key, ByteKeys.METADATA_VERSION_KEY)) {
            return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
        }
        if (key.length > KeyRules.keySizeLimit(key)) {
            return CompletableFuture.failedFuture(FdbError.KEY_TOO_LARGE.exception());
        }
        if (!engine.watches().tryReserve()) {
            return CompletableFuture.failedFuture(FdbError.TOO_MANY_WATCHES.exception());
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        future.whenComplete((v, t) -> engine.watches().release());
        key = key.clone(); // kept for the watch's life
        TransactionWatches.PendingWatch p = watches.add(key, future);
        // RYWImpl::watch reads the key as a serializable read (Snapshot::False): own writes
        // included, and a read conflict range when the value comes from the database.
        // Not a read that fails the commit: RYW's watch adds a promise it always keeps.
        p.read = TransactionReads.get(this, key, false, ReadKind.WATCH);
        p.read.whenComplete((value, error) -> watches.onWatchRead(p, value, error));
        return future;
    }


    // ---------------------------------------------------------------- commit

    @Override
    public CompletableFuture<Void> commit() {
        CompletableFuture<Void> commit = commitNow();
        if (db.completesImmediately() && commit.isDone()) {
            // Answered on this thread (a read-only commit, a refusal): handed back as a plain
            // complete future, so that the caller's next stage runs here rather than after a
            // hop to the executor, which costs more than the commit.
            return settled(commit);
        }
        return handOut(commit);
    }

    /** A plain future with the outcome of {@code done}, which is complete. */
    private static <T> CompletableFuture<T> settled(CompletableFuture<T> done) {
        try {
            return CompletableFuture.completedFuture(done.getNow(null));
        } catch (CompletionException e) {
            return CompletableFuture.failedFuture(e.getCause());
        } catch (CancellationException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletableFuture<Void> commitNow() {
        CompletableFuture<Void> result = new ExecutorBoundFuture<>(executor);
        boolean sendNow;
        synchronized (this) {
            checkOpen();
            if (state != State.ACTIVE) {
                return CompletableFuture.failedFuture(usedDuringCommit());
            }
            FDBException e = reset != null ? reset : deferred;
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            state = State.COMMITTING;
            // RYW commit sets commitStarted, then waits for ryw->reading: a read that failed
            // fails the commit with its error (OutstandingReads); otherwise the reads still in
            // flight are waited for, so their conflict ranges and the values of watches are
            // part of what is committed.
            Throwable failedRead = reading.failure();
            if (failedRead != null) {
                state = State.FAILED;
                return CompletableFuture.failedFuture(failedRead);
            }
            pending.add(result);
            commitFlight = new CommitFlight(result);
            // A read ends on an engine thread: the commit goes on from the executor.
            sendNow = reading.awaitAll(failure -> executor.execute(() -> {
                if (failure == null) {
                    send(result);
                } else {
                    failOnRead(result, failure);
                }
            }));
        }
        if (sendNow) {
            send(result);
        }
        return result;
    }

    /** A read failed while the commit waited for it: the commit fails with the read's error, unsent. */
    private void failOnRead(CompletableFuture<Void> result, Throwable failure) {
        synchronized (this) {
            if (!pending.remove(result)) {
                return; // withdrawn by a reset, which already failed it
            }
            state = State.FAILED;
        }
        // Watches and the versionstamp wait for the reset, as in RYW (nothing reached NativeAPI).
        result.completeExceptionally(failure);
    }

    /** The second half of {@link #commit()}, once no read is in flight: resolve, or answer at once. */
    private void send(CompletableFuture<Void> result) {
        CommitRequest request;
        FaultPolicy.Fault fault;
        CommitFlight flight;
        synchronized (this) {
            if (!pending.contains(result)) {
                return; // cancelled or timed out meanwhile; that already failed the commit
            }
            FDBException specialFailure = special.commitFailure();
            if (specialFailure != null) {
                // RYW commit runs the special keys' commands before anything else.
                refuseCommit(result, specialFailure);
                return;
            }
            flight = commitFlight;
            if (mutations.isEmpty() && writeConflicts.isEmpty()) {
                // Read-only: nothing to resolve; FoundationDB reports committed version -1.
                pending.remove(result);
                state = State.COMMITTED;
                committedVersion = -1;
                if (versionstamp != null) {
                    CompletableFuture<byte[]> vs = versionstamp;
                    executor.execute(() -> vs.completeExceptionally(FdbError.NO_COMMIT_VERSION.exception()));
                }
                watches.activate(watches.takeAll());
                if (timeoutTask != null) {
                    timeoutTask.cancel(false);
                }
                result.complete(null);
                return;
            }
            if (options.readOnly) {
                // NativeAPI commitMutations: after the read-only shortcut, before the size check.
                refuseCommit(result, FdbError.TRANSACTION_READ_ONLY.exception());
                return;
            }
            long estimate = mutationBytes + conflictBytes;
            if (CommitSize.worthComputing(estimate, options.sizeLimit, clearedRanges)
                    && CommitSize.of(mutations, readConflicts, writeConflicts) > options.sizeLimit) {
                refuseCommit(result, FdbError.TRANSACTION_TOO_LARGE.exception());
                return;
            }
            long rv = readVersion;
            if (rv < 0 && !readConflicts.isEmpty()) {
                rv = engine.pipeline().visibleVersion();
            }
            ConflictRanges reads = readConflicts;
            if (rv >= 0 && reads.isEmpty() && !options.causalWriteRisky) {
                reads = ReadConflicts.selfConflictRange();
            }
            if (options.reportConflictingKeys) {
                reads = TransactionSpecialKeys.reportableReads(reads, rywActive());
            }
            request = new CommitRequest(rv, reads, writeConflicts, liveMutations());
            if (deadMutations != null) {
                request.countMutationsAs(mutations);
            }
            if (options.reportConflictingKeys) {
                request.reportConflictingKeys();
            }
            fault = engine.faults().nextCommitFault();
        }
        CommitRequest sent = request;
        CommitDelivery.deliver(engine, request, fault, flight, (committed, error) -> {
            special.afterCommit(sent, committed, error);
            finishCommit(result, committed, error);
        });
    }

    private void finishCommit(CompletableFuture<Void> result, CommitResult committed, Throwable error) {
        List<TransactionWatches.PendingWatch> list;
        CompletableFuture<byte[]> vs;
        synchronized (this) {
            if (!pending.remove(result)) {
                return; // cancelled or timed out meanwhile; those already failed the futures
            }
            list = watches.takeAll();
            vs = versionstamp;
            if (committed != null) {
                state = State.COMMITTED;
                committedVersion = committed.version();
                if (timeoutTask != null) {
                    timeoutTask.cancel(false);
                }
            } else {
                state = State.FAILED;
            }
        }
        if (committed != null) {
            watches.activate(list);
            if (vs != null) {
                vs.complete(committed.versionstamp());
            }
            result.complete(null);
        } else {
            Throwable e = unwrap(error);
            watches.fail(list, e);
            if (vs != null) {
                vs.completeExceptionally(FdbError.TRANSACTION_INVALID_VERSION.exception());
            }
            result.completeExceptionally(e);
        }
    }

    /** Fails a commit before it reaches the sequencer: the transaction, its watches and its versionstamp. */
    private void refuseCommit(CompletableFuture<Void> result, FDBException e) {
        pending.remove(result);
        state = State.FAILED;
        failCommitFollowers(e);
        result.completeExceptionally(e);
    }

    /**
     * A failed commit fails the pending watches with its error, and the versionstamp with
     * {@code transaction_invalid_version} whatever the error (NativeAPI {@code commitAndWatch}).
     */
    private void failCommitFollowers(FDBException e) {
        watches.failAll(e);
        if (versionstamp != null) {
            CompletableFuture<byte[]> vs = versionstamp;
            executor.execute(() -> vs.completeExceptionally(FdbError.TRANSACTION_INVALID_VERSION.exception()));
        }
    }

    @Override
    public synchronized Long getCommittedVersion() {
        checkOpen();
        return committedVersion;
    }

    @Override
    public CompletableFuture<byte[]> getVersionstamp() {
        return handOutShared(versionstampNow());
    }

    private synchronized CompletableFuture<byte[]> versionstampNow() {
        checkOpen();
        // Asked for once the commit started, even after it ended, it is used_during_commit
        // (RYW getVersionstamp checks checkUsedDuringCommit first): ask before committing.
        if (state != State.ACTIVE) {
            return CompletableFuture.failedFuture(usedDuringCommit());
        }
        if (versionstamp == null) {
            versionstamp = new ExecutorBoundFuture<>(executor);
            if (reset != null) {
                versionstamp.completeExceptionally(reset);
            }
        }
        return versionstamp;
    }

    @Override
    public CompletableFuture<Long> getApproximateSize() {
        return handOut(approximateSizeNow());
    }

    private synchronized CompletableFuture<Long> approximateSizeNow() {
        checkOpen();
        // RYW answers its running size in every state; only the client's deferred error comes first.
        if (deferred != null) {
            return CompletableFuture.failedFuture(deferred);
        }
        return CompletableFuture.completedFuture(approximateSize);
    }

    // ---------------------------------------------------------------- retries

    @Override
    public CompletableFuture<Transaction> onError(Throwable error) {
        // FDBTransaction.onError takes the cause of one wrapper, no deeper.
        Throwable e = (error instanceof CompletionException || error instanceof ExecutionException)
                && error.getCause() != null ? error.getCause() : error;
        if (!(e instanceof FDBException)) {
            // fdb-java answers without reaching the native transaction, which stays usable.
            return CompletableFuture.failedFuture(e);
        }
        int code = ((FDBException) e).getCode();
        TxOptions next;
        long delayMicros;
        synchronized (this) {
            checkOpen();
            if (reset != null) {
                // RYW onError: a cancelled or timed-out transaction fails with that, whatever e is.
                FDBException fail = reset;
                closeAfterRetryDecision();
                return handOut(CompletableFuture.failedFuture(fail));
            }
            if (!RetryBackoff.shouldRetry(code, options.retryLimit, retries)) {
                closeAfterRetryDecision();
                return handOut(CompletableFuture.failedFuture(e));
            }
            next = options.retryCopy(db.defaults);
            delayMicros = RetryBackoff.delayMicros(code, backoffMillis, options.maxRetryDelayMillis);
            closeAfterRetryDecision();
        }
        double nextBackoff = RetryBackoff.nextBackoffMillis(backoffMillis, options.maxRetryDelayMillis);
        Supplier<Transaction> fresh = () -> {
            EngineTransaction t = new EngineTransaction(db, executor, next, startNanos, retries + 1, nextBackoff);
            t.special.inheritFrom(special);
            FDBException timedOut;
            synchronized (t) {
                timedOut = t.reset;
            }
            if (timedOut != null) {
                // The timeout expired during the backoff: RYW onError waits on the reset promise
                // as well as on the delay, so onError itself fails with transaction_timed_out.
                t.close();
                throw timedOut;
            }
            return t;
        };
        if (delayMicros <= 0) {
            return CompletableFuture.supplyAsync(fresh, executor);
        }
        CompletableFuture<Transaction> f = new CompletableFuture<>();
        engine.timer().schedule(() -> executor.execute(() -> {
            try {
                f.complete(fresh.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        }), delayMicros, TimeUnit.MICROSECONDS);
        return f;
    }

    /** onError always consumes this transaction, as fdb-java transfers it to a new object. */
    private void closeAfterRetryDecision() {
        FDBException cancelled = FdbError.TRANSACTION_CANCELLED.exception();
        if (reset == null) {
            reset = cancelled;
        }
        // RYW's reset fails a commit still waiting with transaction_cancelled; one the
        // sequencer has reports what it decides (CommitFlight).
        if (commitFlight != null && pending.contains(commitFlight.result) && commitFlight.withdraw()) {
            CompletableFuture<Void> withdrawn = commitFlight.result;
            pending.remove(withdrawn);
            withdrawn.completeExceptionally(cancelled);
        }
        watches.failAll(cancelled);
        if (timeoutTask != null) {
            timeoutTask.cancel(false);
        }
        closed = true;
        releaseReadHold();
    }

    /** Lets the window drop what only this transaction could still read. Called with the monitor held. */
    private void releaseReadHold() {
        if (readHold != null) {
            readHold.release();
            readHold = null;
        }
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    // ---------------------------------------------------------------- special key space (TransactionSpecialKeys)
    // What the special keys read of this transaction; each is read under this monitor.

    TxOptions currentOptions() {
        assert Thread.holdsLock(this);
        return options;
    }

    long readVersionForSpecialKeys() {
        assert Thread.holdsLock(this);
        return readVersion;
    }

    ConflictRanges readConflictsForSpecialKeys() {
        assert Thread.holdsLock(this);
        return readConflicts;
    }

    ConflictRanges writeConflictsForSpecialKeys() {
        assert Thread.holdsLock(this);
        return writeConflicts;
    }

    List<Mutation> mutationsForSpecialKeys() {
        assert Thread.holdsLock(this);
        return mutations;
    }

    /** Completes once the operations in flight now have ended, however they ended. */
    synchronized CompletableFuture<Void> readsSettled() {
        CompletableFuture<?>[] inFlight = pending.stream().map(f -> f.handle((v, t) -> null)).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(inFlight);
    }

    /**
     * A special-key read that did not answer at once becomes a pending read, so that cancel,
     * timeout and close fail it, as RYW's reset fails the special-key reads in flight
     * ({@code SpecialKeySpace::checkRYWValid}); a transaction already reset fails it now.
     */
    synchronized <T> CompletableFuture<T> trackSpecialRead(CompletableFuture<T> read) {
        if (read.isDone()) {
            return read;
        }
        if (reset != null) {
            return CompletableFuture.failedFuture(reset);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        pending.add(result);
        read.whenComplete((value, error) -> finishSpecialRead(result, value, error == null ? null : unwrap(error)));
        return result;
    }

    /**
     * Completes a special-key read unless a reset failed it first. Special-key reads are not
     * among RYW's {@code reading}: a commit neither waits for them nor fails by them.
     */
    private <T> void finishSpecialRead(CompletableFuture<T> f, T value, Throwable error) {
        synchronized (this) {
            if (!pending.remove(f)) {
                return; // already failed by cancel or timeout
            }
        }
        executor.execute(() -> {
            if (error != null) {
                f.completeExceptionally(error);
            } else {
                f.complete(value);
            }
        });
    }

    // ---------------------------------------------------------------- contexts

    @Override
    public Database getDatabase() {
        return db;
    }

    @Override
    public Executor getExecutor() {
        return executor;
    }
}
