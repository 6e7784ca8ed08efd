package io.strata.engine.commit;

import com.apple.foundationdb.FDBException;
import io.strata.engine.error.FdbError;
import io.strata.engine.mutation.AtomicOps;
import io.strata.engine.mutation.Versionstamps;
import io.strata.engine.resolver.ConflictWindow;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.TimeUnit;

/**
 * The sequencer: takes commit requests in batches and makes them history, in order.
 *
 * <h2>Design</h2>
 * Clients enqueue {@link CommitRequest}s; one thread drains the queue into a batch and, for
 * the whole batch:
 * <ol>
 *   <li>takes the next commit version {@code V} from the {@link VersionClock};</li>
 *   <li>resolves each request in arrival order: {@code transaction_too_old} (1007) if it has
 *       read conflict ranges and its read version fell out of the 5 s window; otherwise
 *       {@code not_committed} (1020) if any read range meets a write committed after its read
 *       version — including writes of requests accepted earlier in the same batch, which
 *       carry version {@code V};</li>
 *   <li>records an accepted request's write ranges at {@code V} and applies its mutations to
 *       the {@link VersionedStore} at {@code V}, evaluating atomic operations on the newest
 *       value and substituting versionstamps {@code (V, order in batch)};</li>
 *   <li>publishes {@code V} as the visible version (one volatile write), then fires
 *       watches and completes the requests.</li>
 * </ol>
 * This is FoundationDB's proxy + resolver + storage in one place. Batching is what gives
 * throughput: the per-batch costs (version, publication, wake-ups) are shared.
 *
 * <h2>Reporting conflicts</h2>
 * A request that asks ({@link CommitRequest#reportConflictingKeys()}, from
 * {@code report_conflicting_keys}) learns which of its read conflict ranges conflicted, as
 * FoundationDB's resolver reports them: before the batch writes anything, every range that meets
 * an earlier batch's write; failing that, the first range that meets a write accepted earlier in
 * the batch. Only batches holding such a request pay for the extra pass. The sequencer also
 * counts what it commits and refuses ({@link CommitCounters}), once per batch, for status.
 *
 * <h2>Invariants</h2>
 * Versions are strictly increasing; a reader at visible version {@code v} sees exactly the
 * batches with version {@code <= v}, complete. The conflict history and the store are
 * touched only by the holder of the leadership lock.
 *
 * <h2>Who runs a batch: the committer itself, when it can</h2>
 * Running a batch needs the {@linkplain #leadership leadership lock}; whoever holds it owns
 * the history, the store's writes and the log. A committer that finds the lock free and may
 * wait for its own batch ({@link #runsInline}: always for a database in memory, where a batch
 * is a few microseconds of work; with a log only when the caller blocks on the commit,
 * {@link #callerWaits}) takes it and runs the batch on its own thread — whatever is queued,
 * then its own request — so an uncontended commit costs a resolver check and an apply, with no
 * thread woken and none to wake it (RocksDB's write thread and flat combining work the same
 * way). A committer that finds the lock taken (in memory, when it blocks on the commit:
 * still taken after {@link #LEAD_SPIN_NANOS} of waiting) queues its request and the sequencer thread
 * runs it in a later batch, with everything else queued meanwhile: under contention,
 * batches form as before. A committer with a log that does not wait — many commits in flight
 * from one thread — always queues, so its commits still share fsyncs.
 *
 * <p>Order: requests leave the queue only under the lock, oldest first, and a leader runs
 * the queued ones before its own; so commits a client sends one after another without waiting
 * still get increasing versions.
 *
 * <h2>Idle</h2>
 * With nothing to do for {@link #IDLE_TICK_MILLIS}, the sequencer commits an empty batch,
 * as FoundationDB's proxies do, so that the visible version keeps up with time and new
 * read versions are never already old.
 *
 * <p>Concurrency: the history, the store's writes, the log, {@link #lastPruneVersion} and the
 * scratch arrays are touched only under {@link #leadership}. The queue is lock-free; a
 * submitter that queues wakes the sequencer only when it is parked ({@link #parked}, a
 * volatile flag each side writes before reading the other's state, so a wake-up is never lost).
 */
public final class CommitPipeline implements AutoCloseable {
    /** Bounds one batch so that a burst cannot starve the requests behind it of latency. */
    static final int MAX_BATCH = 2048;
    /** How stale the visible version may become while idle; small next to the 5 s window. */
    static final long IDLE_TICK_MILLIS = 20;
    /**
     * Batches up to this size are completed on the sequencer itself: waking a few committers
     * costs less than waking a pool worker to do it, and a lone committer saves a hand-off.
     * Larger batches go to the pool, so the sequencer is not stalled by many wake-ups.
     */
    static final int INLINE_COMPLETIONS = 8;
    /** How long the idle sequencer spins for new work before parking: about two wake-ups' cost. */
    static final long SPIN_NANOS = 20_000;
    /** Batches of others a committer leading in memory runs after its own before leaving the rest to the sequencer. */
    static final int HELPED_BATCHES = 4;
    /** How long a committer in memory waits for a running batch to end so that it can lead the next. */
    static final long LEAD_SPIN_NANOS = 10_000;
    /** Prune history and store at most this often (in versions): 50 ms amortises the walk. */
    static final long PRUNE_INTERVAL_VERSIONS = 50_000;

    private final VersionedStore store;
    private final VersionClock clock;
    private final WatchRegistry watches;
    private final ConflictWindow history = new ConflictWindow();
    private final CommitCounters counters = new CommitCounters();
    private final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
    /** Held while a batch runs, by the sequencer thread or by a committer running its own batch. */
    private final ReentrantLock leadership = new ReentrantLock();
    /** Set by the sequencer just before it parks for want of work; a submitter then unparks it. */
    private volatile boolean parked;
    private final Thread thread;
    private final Executor completions;
    private final BatchLog log;
    /** Set when the log failed: every later commit fails with it, nothing more becomes visible. */
    private volatile FDBException logFailure;

    private volatile long visibleVersion;
    private volatile boolean closed;
    /**
     * The most the store may take on the heap ({@link VersionedStore#bytes}); past it, commits
     * that write anything but clears fail with {@code storage_quota_exceeded} (1225). 0: none.
     */
    private volatile long memoryLimit = defaultMemoryLimit();
    /** Guarded by {@code leadership}. */
    private long lastPruneVersion;
    /**
     * Under {@link io.strata.MvccWindow#OPEN_TRANSACTIONS}, the transactions that may still
     * read; null under the five-second window. Set once, before the first transaction.
     */
    private volatile OpenReadVersions openReadVersions;
    /**
     * The oldest version an open transaction may read, as of the last pruning (with
     * {@link #openReadVersions} only). Guarded by {@code leadership}.
     */
    private long heldFloor = Long.MIN_VALUE;
    /** The batch being run, reused. Guarded by {@code leadership}. */
    private final List<Object> batch = new ArrayList<>(MAX_BATCH);
    /**
     * Leader-owned scratch: the keys of the batch's plain sets, in batch order, and their
     * hashes (see {@link #readyWrites}). Guarded by {@code leadership}.
     */
    private byte[][] setKeys = new byte[256][];
    private int[] setHashes = new int[256];

    /**
     * @param completions runs each batch's completions, so that waking the committers (an
     *                    unpark per blocked caller) costs the sequencer one hand-off per batch
     */
    public CommitPipeline(VersionedStore store, VersionClock clock, WatchRegistry watches, Executor completions, String name) {
        this(store, clock, watches, completions, null, name);
    }

    /**
     * @param log where each batch is made durable before it becomes visible, or null for a
     *            database held in memory only
     */
    public CommitPipeline(VersionedStore store, VersionClock clock, WatchRegistry watches, Executor completions,
                          BatchLog log, String name) {
        this.log = log;
        this.completions = completions;
        this.store = store;
        this.clock = clock;
        this.watches = watches;
        this.visibleVersion = clock.nextCommitVersion();
        this.lastPruneVersion = visibleVersion;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Keeps versions only while an open transaction may read them (see
     * {@link io.strata.MvccWindow#OPEN_TRANSACTIONS}), never longer than five seconds. Call
     * before the first transaction starts.
     */
    public void keepVersionsForOpenTransactions() {
        if (openReadVersions == null) {
            openReadVersions = new OpenReadVersions(visibleVersion);
        }
    }

    /** The open transactions' read versions, or null under the five-second window. Any thread. */
    public OpenReadVersions openReadVersions() {
        return openReadVersions;
    }

    /** Bytes of other writes each clear may carry past the memory limit (see {@link #memoryLimit(long)}). */
    public static final long WRITES_PER_CLEAR_WHEN_FULL = 1024;

    /** The fraction of the Java heap the store may take by default (see {@link #memoryLimit(long)}). */
    public static final double DEFAULT_MEMORY_FRACTION = 0.6;

    /**
     * {@link #DEFAULT_MEMORY_FRACTION} of the heap's maximum, or 0 (no limit) when the JVM has
     * none: the rest is left to what is not the store — transactions in flight, the conflict
     * window, caches, the young generation — so that a full store refuses commits instead of
     * ending the process with an {@code OutOfMemoryError}.
     */
    public static long defaultMemoryLimit() {
        long max = Runtime.getRuntime().maxMemory();
        return max == Long.MAX_VALUE ? 0 : (long) (max * DEFAULT_MEMORY_FRACTION);
    }

    /**
     * Sets the most the store may take on the heap, as {@link VersionedStore#bytes} estimates
     * it (0: no limit). Past it, a commit that writes anything but clears fails with
     * {@code storage_quota_exceeded} (1225, not retryable), as a FoundationDB tenant over its
     * storage quota does; commits that clear still go through, with up to
     * {@link #WRITES_PER_CLEAR_WHEN_FULL} bytes of other writes per clear, so space can be
     * freed, and reads are unaffected. Any thread; applies from the next batch.
     */
    public void memoryLimit(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("memory limit must be 0 (none) or positive, got " + bytes);
        }
        memoryLimit = bytes;
    }

    /**
     * Whether the store is past its memory limit, as of the last batch: commits that add
     * data are refused meanwhile (see {@link #memoryLimit(long)}). Any thread.
     */
    public boolean isFull() {
        long limit = memoryLimit;
        return limit > 0 && store.bytes() > limit;
    }

    /** What the store takes on the heap as the memory limit measures it ({@link VersionedStore#bytes}), as of the last batch. Any thread. */
    public long storeBytes() {
        return store.bytes();
    }

    /** What the store takes below the MVCC window ({@link VersionedStore#settledBytes}). Any thread. */
    public long settledBytes() {
        return store.settledBytes();
    }

    /** The newest version whose clears {@link #storeBytes()} has counted out ({@link VersionedStore#settledVersion}). Any thread. */
    public long settledVersion() {
        return store.settledVersion();
    }

    /** The limit {@link #memoryLimit(long)} set (or the default); 0: none. */
    public long memoryLimit() {
        return memoryLimit;
    }

    /** The newest version whose batch is completely applied: the read version new transactions get. */
    public long visibleVersion() {
        return visibleVersion;
    }

    /** What the sequencer has committed and refused so far. */
    public CommitCounters counters() {
        return counters;
    }

    /**
     * Marks the commits this thread sends while {@code body} runs as ones it will block on
     * ({@code db.run}): with a log, only such a commit runs its batch on its own thread,
     * fsync included.
     */
    public static <T> T callerWaits(java.util.function.Supplier<T> body) {
        boolean outer = CALLER_WAITS.get();
        CALLER_WAITS.set(true);
        try {
            return body.get();
        } finally {
            CALLER_WAITS.set(outer);
        }
    }

    private static final ThreadLocal<Boolean> CALLER_WAITS = ThreadLocal.withInitial(() -> false);

    /**
     * Commits {@code request}: in a batch of its own thread when it may lead (see "Who runs a
     * batch"), else in the sequencer's. Its {@link CommitRequest#result()} completes on the
     * thread that ran its batch — possibly before this method returns.
     */
    public void submit(CommitRequest request) {
        FDBException failure = logFailure;
        if (failure != null) {
            request.result.completeExceptionally(failure);
            return;
        }
        if (closed) {
            request.result.completeExceptionally(FdbError.OPERATION_CANCELLED.exception("the database is closed"));
            return;
        }
        if (runsInline() && tryLead()) {
            try {
                if (closed) {
                    request.result.completeExceptionally(FdbError.OPERATION_CANCELLED.exception("the database is closed"));
                    return;
                }
                takeQueued(MAX_BATCH - 1);
                batch.add(request);
                runBatch();
                // In memory a batch is microseconds: run what queued meanwhile too, rather than
                // wake the sequencer for it. With a log, each would cost this caller an fsync.
                for (int i = 0; log == null && i < HELPED_BATCHES && !queue.isEmpty(); i++) {
                    takeQueued(MAX_BATCH);
                    runBatch();
                }
            } finally {
                leadership.unlock();
            }
            // Queued after the last look: submitters saw the lock held and left it to us.
            if (!queue.isEmpty()) {
                wakeSequencer();
            }
            return;
        }
        enqueue(request);
    }

    /**
     * Takes the leadership lock if it is free or — in memory, for a caller that blocks on its
     * commit — becomes free within {@link #LEAD_SPIN_NANOS}: a batch there lasts microseconds,
     * and waiting that long costs less than parking on the commit and being woken for it. A
     * caller with commits in flight queues at once and goes on sending.
     */
    private boolean tryLead() {
        if (leadership.tryLock()) {
            return true;
        }
        if (log != null || !CALLER_WAITS.get()) {
            return false;
        }
        long deadline = System.nanoTime() + LEAD_SPIN_NANOS;
        do {
            Thread.onSpinWait();
            if (!leadership.isLocked() && leadership.tryLock()) {
                return true;
            }
        } while (System.nanoTime() < deadline);
        return false;
    }

    /** Whether a commit of the calling thread may run its batch itself when nobody else is. */
    private boolean runsInline() {
        // Not from inside a batch (a completion that commits again, on a direct executor):
        // the batch in progress is not finished.
        return (log == null || CALLER_WAITS.get()) && !leadership.isHeldByCurrentThread();
    }

    /**
     * Runs {@code task} after the current batch, with the store and watches quiescent (under
     * the leadership lock, on the sequencer or a leading committer). Also forces a batch, so the
     * visible version advances.
     */
    public void execute(Runnable task) {
        if (!closed) {
            enqueue(task);
        }
    }

    /**
     * Queues an item. While a leading committer holds the lock it will take the item or, once
     * it has unlocked, see it and wake the sequencer: each side writes (the queue, the lock)
     * before it reads the other's, so one of them always sees the other.
     */
    private void enqueue(Object item) {
        queue.add(item);
        if (!leadership.isLocked()) {
            wakeSequencer();
        }
    }

    private void wakeSequencer() {
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        while (!closed) {
            boolean work = awaitWork();
            if (closed) {
                break;
            }
            leadership.lock();
            try {
                takeQueued(MAX_BATCH);
                if (!batch.isEmpty() || !work) {
                    // An empty batch when idle: the tick that keeps the visible version current.
                    runBatch();
                }
            } finally {
                leadership.unlock();
            }
        }
        failPending();
    }

    /** Moves up to {@code max} queued items, oldest first, into the batch (leadership held). */
    private void takeQueued(int max) {
        Object o;
        while (batch.size() < max && (o = queue.poll()) != null) {
            batch.add(o);
        }
    }

    /** Runs the batch (leadership held), failing its requests rather than wedging on a bug. */
    private void runBatch() {
        try {
            // A request its client withdrew while it waited here is not part of the batch.
            batch.removeIf(o -> o instanceof CommitRequest && !((CommitRequest) o).take());
            processBatch(batch);
        } catch (Throwable t) {
            for (Object o : batch) {
                if (o instanceof CommitRequest) {
                    ((CommitRequest) o).result.completeExceptionally(t);
                }
            }
        } finally {
            batch.clear();
        }
    }

    /**
     * Waits until something is queued, at most {@link #IDLE_TICK_MILLIS}: false when the wait
     * ended without work (time for an idle tick).
     */
    private boolean awaitWork() {
        if (pollBriefly()) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IDLE_TICK_MILLIS);
        parked = true;
        try {
            long left;
            while (queue.isEmpty() && !closed && (left = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(this, left);
            }
        } finally {
            parked = false;
        }
        return !queue.isEmpty();
    }

    /**
     * Looks for work for a few microseconds before parking: a committer that sends its next
     * commit right after the last one completed then needs no wake-up of this thread, which
     * on a VM costs tens of microseconds.
     */
    private boolean pollBriefly() {
        long deadline = System.nanoTime() + SPIN_NANOS;
        while (queue.isEmpty()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private void processBatch(List<Object> batch) {
        long version = clock.nextCommitVersion();
        long oldestReadable = Math.max(version - VersionClock.MAX_READ_TRANSACTION_LIFE_VERSIONS, heldFloor);
        boolean checkWatches = !watches.isEmpty();
        int order = 0;
        List<CommitRequest> done = null;
        // Refused requests hear only once the batch is durable and visible, as FoundationDB's
        // proxies answer a batch's conflicts with its commits, after logging: a client that
        // retries at once then reads what the winner of the conflict wrote.
        Refusals refused = new Refusals();
        List<Mutation> effects = log != null ? new ArrayList<>() : null;
        if (readyWrites(batch)) {
            findHistoryConflicts(batch, oldestReadable);
        }
        long mutationCount = 0;
        long mutationBytes = 0;
        for (Object item : batch) {
            if (!(item instanceof CommitRequest)) {
                continue;
            }
            CommitRequest req = (CommitRequest) item;
            if (!req.readConflicts.isEmpty() && req.readVersion < oldestReadable) {
                // Counted before the client hears, so that a status read after the failure sees it.
                counters.addRefused(0, 1);
                refused.add(req, FdbError.TRANSACTION_TOO_OLD.exception());
                continue;
            }
            FDBException full = overMemoryLimit(req);
            if (full != null) {
                refused.add(req, full);
                continue;
            }
            if (req.reportsConflictingKeys() ? conflictsReporting(req) : conflicts(req)) {
                counters.addRefused(1, 0);
                refused.add(req, FdbError.NOT_COMMITTED.exception());
                continue;
            }
            if (req.countedMutations >= 0) {
                mutationCount += req.countedMutations;
                mutationBytes += req.countedMutationBytes;
            } else {
                mutationCount += req.mutations.size();
                for (Mutation m : req.mutations) {
                    mutationBytes += m.size();
                }
            }
            ConflictRanges writes = req.writeConflicts;
            for (int i = 0; i < writes.size(); i++) {
                if (writes.isSingleKey(i)) {
                    history.addKeyWrite(writes.begin(i), version);
                } else {
                    history.addWrite(writes.begin(i), writes.end(i), version);
                }
            }
            apply(req.mutations, req.firstSet, version, order, checkWatches, effects);
            if (done == null) {
                done = new ArrayList<>();
            }
            done.add(req);
            req.orderInBatch = order++;
        }
        if (done != null && log != null && !logged(version, effects, done)) {
            refused.answer();
            return;
        }
        if (logFailure == null) {
            visibleVersion = version;
        }
        // else: a batch the log refused left its writes in the store at a version never
        // published, and a later batch (one with nothing to commit, which needs no log record)
        // must not publish a newer version over them: they would become readable.
        // Over a disk store, what the catch-up wrote leaves memory at once, not at the next
        // pruning: a store past its memory limit must not wait for the floor to move again.
        store.dropWrittenToDisk();
        store.publishBytes();
        counters.addCommitted(done == null ? 0 : done.size(), mutationCount, mutationBytes);
        if (version - lastPruneVersion >= PRUNE_INTERVAL_VERSIONS) {
            OpenReadVersions open = openReadVersions;
            if (open != null) {
                // Every transaction that begins from here on reads at visibleVersion or later.
                heldFloor = open.floor(visibleVersion, version - VersionClock.MAX_READ_TRANSACTION_LIFE_VERSIONS);
                oldestReadable = Math.max(oldestReadable, heldFloor);
            }
            store.pruneBefore(oldestReadable);
            history.pruneBefore(oldestReadable);
            lastPruneVersion = version;
        }
        for (Object item : batch) {
            if (item instanceof Runnable) {
                ((Runnable) item).run();
            }
        }
        watches.fireChanged();
        refused.answer();
        if (done != null) {
            List<CommitRequest> accepted = done;
            Runnable complete = () -> {
                for (CommitRequest req : accepted) {
                    req.result.complete(new CommitResult(version, req.orderInBatch));
                }
            };
            if (accepted.size() <= INLINE_COMPLETIONS) {
                complete.run();
            } else {
                completions.execute(complete);
            }
        }
    }

    /**
     * The error refusing {@code req} because the store is past its memory limit and the
     * request would add to it; null when it may commit. A request that clears may carry up to
     * {@link #WRITES_PER_CLEAR_WHEN_FULL} bytes of other writes per clear — the bookkeeping a
     * layer does when it deletes (a change stamp, a count, an index entry) — so that deleting
     * frees space on a full database; nothing else is let through.
     */
    private FDBException overMemoryLimit(CommitRequest req) {
        long limit = memoryLimit;
        long used = store.bytesNow();
        if (limit == 0 || used <= limit) {
            return null;
        }
        long clears = 0;
        long written = 0;
        for (Mutation m : req.mutations) {
            if (m.type() == Mutation.CLEAR_RANGE) {
                clears++;
            } else {
                written += m.size();
            }
        }
        if (written == 0 || written <= clears * WRITES_PER_CLEAR_WHEN_FULL) {
            return null;
        }
        if (!store.onDisk()) {
            // What left the window may still be on its way to the packed store: count it there.
            try {
                store.catchUpForMemoryLimit(CATCH_UP_BEFORE_REFUSING_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = store.bytesNow();
            if (used <= limit) {
                return null;
            }
        }
        if (store.onDisk()) {
            // Memory holds only the window and what the disk store has not caught up with:
            // it drains by itself, so the commit may be retried (with onError's backoff).
            return FdbError.COMMIT_PROXY_MEMORY_LIMIT_EXCEEDED.exception("the window's versions take about "
                    + mebibytes(used) + " of memory, past the limit of " + mebibytes(limit)
                    + " while the disk store catches up; retry (Strata.builder().memoryLimit raises the limit)");
        }
        return FdbError.STORAGE_QUOTA_EXCEEDED.exception("the database holds about " + mebibytes(used)
                + ", past its memory limit of " + mebibytes(limit) + "; clear data, or raise the limit "
                + "(Strata.builder().memoryLimit; by default " + Math.round(DEFAULT_MEMORY_FRACTION * 100)
                + "% of the Java heap)");
    }

    /** How long a leader over the memory limit waits for the catch-up before refusing. */
    private static final long CATCH_UP_BEFORE_REFUSING_MILLIS = 1_000;

    private static String mebibytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /** The requests a batch refused, each with its error, failed once the batch is visible. */
    private static final class Refusals {
        private List<CommitRequest> requests;
        private List<FDBException> errors;

        void add(CommitRequest req, FDBException error) {
            if (requests == null) {
                requests = new ArrayList<>();
                errors = new ArrayList<>();
            }
            requests.add(req);
            errors.add(error);
        }

        void answer() {
            if (requests != null) {
                for (int i = 0; i < requests.size(); i++) {
                    requests.get(i).result.completeExceptionally(errors.get(i));
                }
            }
        }
    }

    /**
     * Makes the batch durable before it becomes visible. On failure its commits fail with
     * {@code io_error} (1510) and so does every later one: the batch's writes sit in the store
     * at a version that must never be published, and nothing unpersisted is acknowledged.
     * Reads continue at the last published version.
     */
    private boolean logged(long version, List<Mutation> effects, List<CommitRequest> accepted) {
        try {
            log.append(version, effects);
            return true;
        } catch (IOException | RuntimeException e) {
            FDBException failure = FdbError.IO_ERROR.exception(
                    "the commit log could not be written, so this database accepts no more commits (" + e + ")");
            logFailure = failure;
            for (CommitRequest req : accepted) {
                req.result.completeExceptionally(failure);
            }
            return false;
        }
    }

    /**
     * Gathers the keys of the batch's plain sets and lets the store hash them and load their
     * hash-index slots all at once ({@link VersionedStore#prefetch}): a batch of new keys
     * then waits for those cache misses side by side rather than one per set. Requests that
     * fail their conflict check keep their place; their keys are simply not written.
     *
     * @return whether a request of the batch asks to report its conflicting keys
     */
    private boolean readyWrites(List<Object> batch) {
        int n = 0;
        boolean reporting = false;
        for (Object item : batch) {
            if (item instanceof CommitRequest) {
                CommitRequest req = (CommitRequest) item;
                reporting |= req.reportsConflictingKeys();
                req.firstSet = n;
                for (Mutation m : req.mutations) {
                    if (m.type() == Mutation.SET_VALUE) {
                        if (n == setKeys.length) {
                            setKeys = Arrays.copyOf(setKeys, n * 2);
                            setHashes = new int[n * 2];
                        }
                        setKeys[n++] = m.key();
                    }
                }
            }
        }
        store.prefetch(setKeys, setHashes, n);
        Arrays.fill(setKeys, 0, n, null); // the hashes are what apply needs
        return reporting;
    }

    /**
     * For each request that reports its conflicting keys, the read conflict ranges that meet a
     * write of an earlier batch — all of them, found before this batch writes anything, as
     * FoundationDB's resolver checks every read range against its history
     * ({@code ConflictBatch::checkReadConflictRanges}) before it looks within the batch. A
     * request too old to be checked is left alone: it fails with {@code transaction_too_old}.
     */
    private void findHistoryConflicts(List<Object> batch, long oldestReadable) {
        for (Object item : batch) {
            if (item instanceof CommitRequest && ((CommitRequest) item).reportsConflictingKeys()) {
                CommitRequest req = (CommitRequest) item;
                ConflictRanges reads = req.readConflicts;
                if (reads.isEmpty() || req.readVersion < oldestReadable) {
                    continue;
                }
                int[] hits = new int[reads.size()];
                int found = 0;
                for (int i = 0; i < reads.size(); i++) {
                    if (conflicts(reads, i, req.readVersion)) {
                        hits[found++] = i;
                    }
                }
                if (found > 0) {
                    req.conflictingReads = Arrays.copyOf(hits, found);
                }
            }
        }
    }

    /**
     * {@link #conflicts} for a request that reports its conflicting keys: the ranges found
     * against earlier batches, or else the first range that meets a write of a request
     * accepted earlier in this batch (FoundationDB's {@code checkIntraBatchConflicts} stops at
     * the first). Before this request, the history holds only those two kinds of writes.
     */
    private boolean conflictsReporting(CommitRequest req) {
        if (req.conflictingReads != null) {
            return true;
        }
        ConflictRanges reads = req.readConflicts;
        for (int i = 0; i < reads.size(); i++) {
            if (conflicts(reads, i, req.readVersion)) {
                req.conflictingReads = new int[] {i};
                return true;
            }
        }
        return false;
    }

    private boolean conflicts(ConflictRanges reads, int i, long readVersion) {
        return reads.isSingleKey(i) ? history.conflictsKey(reads.begin(i), readVersion)
                                    : history.conflicts(reads.begin(i), reads.end(i), readVersion);
    }

    private boolean conflicts(CommitRequest req) {
        ConflictRanges reads = req.readConflicts;
        for (int i = 0; i < reads.size(); i++) {
            boolean hit = reads.isSingleKey(i) ? history.conflictsKey(reads.begin(i), req.readVersion)
                                               : history.conflicts(reads.begin(i), reads.end(i), req.readVersion);
            if (hit) {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies one transaction's mutations at {@code version}; when {@code effects} is not
     * null, adds what each one did as a plain set or clear, for the log. {@code nextSet} is
     * where the hashes of its plain sets begin in {@link #setHashes}.
     */
    private void apply(List<Mutation> mutations, int nextSet, long version, int order, boolean checkWatches,
                       List<Mutation> effects) {
        byte[] stamp = null;
        for (Mutation m : mutations) {
            byte[] key = m.key();
            switch (m.type()) {
                case Mutation.SET_VALUE:
                    store.set(key, setHashes[nextSet++], m.param(), version);
                    if (effects != null) {
                        effects.add(m);
                    }
                    if (checkWatches) {
                        watches.onWrite(key, m.param());
                    }
                    break;
                case Mutation.CLEAR_RANGE:
                    if (effects != null) {
                        effects.add(m);
                    }
                    if (ByteKeys.isKeyAfter(key, m.param())) {
                        store.clear(key, version);
                        if (checkWatches) {
                            watches.onWrite(key, null);
                        }
                    } else {
                        store.clearRange(key, m.param(), version);
                        if (checkWatches) {
                            watches.onClearRange(key, m.param());
                        }
                    }
                    break;
                case Mutation.SET_VERSIONSTAMPED_KEY: {
                    stamp = stamp != null ? stamp : Versionstamps.versionstamp(version, order);
                    byte[] stampedKey = Versionstamps.substitute(key, stamp);
                    store.set(stampedKey, m.param(), version);
                    if (effects != null) {
                        effects.add(new Mutation(Mutation.SET_VALUE, stampedKey, m.param()));
                    }
                    if (checkWatches) {
                        watches.onWrite(stampedKey, m.param());
                    }
                    break;
                }
                case Mutation.SET_VERSIONSTAMPED_VALUE: {
                    stamp = stamp != null ? stamp : Versionstamps.versionstamp(version, order);
                    byte[] stampedValue = Versionstamps.substitute(m.param(), stamp);
                    store.set(key, stampedValue, version);
                    if (effects != null) {
                        effects.add(new Mutation(Mutation.SET_VALUE, key, stampedValue));
                    }
                    if (checkWatches) {
                        watches.onWrite(key, stampedValue);
                    }
                    break;
                }
                default: {
                    byte[] result = AtomicOps.apply(m.type(), store.latest(key), m.param());
                    if (result == null) {
                        store.clear(key, version);
                    } else {
                        store.set(key, result, version);
                    }
                    if (effects != null) {
                        effects.add(result == null ? new Mutation(Mutation.CLEAR_RANGE, key, ByteKeys.keyAfter(key))
                                                   : new Mutation(Mutation.SET_VALUE, key, result));
                    }
                    if (checkWatches) {
                        watches.onWrite(key, result);
                    }
                }
            }
        }
    }

    private void failPending() {
        Object o;
        while ((o = queue.poll()) != null) {
            if (o instanceof CommitRequest) {
                ((CommitRequest) o).result.completeExceptionally(
                        FdbError.OPERATION_CANCELLED.exception("the database is closed"));
            }
        }
    }

    /**
     * Stops the sequencer after the batch in progress; requests not yet taken fail with
     * {@code operation_cancelled}. Then closes the log, which flushes and syncs it.
     */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A committer may be running its own batch: the log closes after it.
        leadership.lock();
        try {
            failPending();
            if (log != null) {
                try {
                    log.close();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("closing the commit log failed", e);
                }
            }
        } finally {
            leadership.unlock();
        }
    }
}
