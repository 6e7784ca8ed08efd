package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Versionstamp;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeoutException;

/**
 * A distributed mutex on FoundationDB (seed 003): one client of a named lock, with a FIFO queue
 * ordered by commit versionstamps, heartbeats, hand-off on release, a janitor
 * ({@link MutexJanitor}) that hands the lock on when its owner stops heartbeating, and fencing
 * tokens. Each client is a {@code DistributedMutex} object with its own name.
 *
 * <h2>Key layout</h2>
 * <pre>
 * subspace
 *   ("owner")              -&gt; (name, token): the holder and its fencing token; name "" = free,
 *                             and then token is the last one granted. Absent = never held
 *                             (free, last token 0). Changes on every grant and release only.
 *   ("beat")               -&gt; (token, sequence): written by the owner's heartbeat, never read
 *                             by clients; the janitor only compares successive values.
 *   ("queue", versionstamp) -&gt; name (UTF-8): a waiter; the key's versionstamp is the commit
 *                             versionstamp of the transaction that queued it, so key order is
 *                             commit order. The head is the next owner.
 *   ("ticket", name)       -&gt; empty: present exactly while name has a queue entry. It makes an
 *                             enqueue idempotent and is the key the waiter watches.
 * </pre>
 * There is no separate token counter: the owner value always carries the last token granted
 * (also when free), and every grant reads the owner key and writes {@code token + 1} to it, so
 * grants are serialized on that one key and tokens strictly increase across all grants, whoever
 * makes them (a direct acquisition, a release, the janitor or a cancellation).
 *
 * <h2>Operations (each one transaction)</h2>
 * <ul>
 *   <li><b>acquire</b>, a step at a time: read the owner (a snapshot read, see below). Ours:
 *       done (a new owner learns its token here). Free: add a read conflict on the owner; with
 *       an empty queue write {@code (me, token + 1)}, else hand on to the head (which may be
 *       us). Otherwise read our ticket; if absent, append a versionstamped queue entry, set the
 *       ticket, commit and take the next step at once; if present, watch the ticket, commit and
 *       sleep on the watch. A release, the janitor or a cancellation that grants us the lock
 *       clears our ticket in the granting transaction, which fires the watch; the next step
 *       finds the lock ours. Waiters never poll.</li>
 *   <li><b>release</b>: read the owner; if it is still our grant, hand on: the queue head
 *       becomes owner with {@code token + 1} (its entry and ticket cleared), or the lock
 *       becomes free. Never waits for anyone.</li>
 *   <li><b>timeout / cancellation</b> of a waiting acquire: read the owner; if the lock was
 *       granted to us meanwhile, hand it on as release does; otherwise remove our queue entry
 *       and ticket. The lock is never leaked to a client that stopped waiting.</li>
 *   <li><b>heartbeat</b> ({@link Heartbeat}), started by every acquisition that returns,
 *       queued or not: read the owner; if it is still our grant, write a new beat value.</li>
 *   <li><b>janitor</b> ({@link MutexJanitor}): if the owner and beat values it saw have not
 *       changed for the configured time on its own clock, re-read both and, if unchanged, hand
 *       on as release does.</li>
 * </ul>
 *
 * <h2>Why waiters watch their ticket rather than the owner key</h2>
 * Seed 003 (and the issue) has waiters watch the owner key. Here each waiter watches its own
 * ticket, which changes exactly once per wait: when the waiter is granted the lock (or
 * removed). Watching the owner key would wake every waiter on every hand-off to re-read the
 * owner and re-watch (a thundering herd: with N waiters, N - 1 useless transactions per
 * hand-off), and the hand-off to the head would queue behind them. Nothing else needs to wake
 * a waiter: every grant to a queued client clears its ticket in the granting transaction, and
 * a lock freed while clients are queued is repaired by the step that follows each enqueue (see
 * below). The step still reads the owner, and reads the ticket, in the transaction that
 * creates the watch, so no wake-up is lost: a grant that commits after that read clears the
 * ticket the watch saw present, and FoundationDB fires a watch whose key changed since its
 * transaction's read as soon as the watch is registered.
 *
 * <h2>Correctness under concurrency</h2>
 * <ul>
 *   <li>Mutual exclusion: every transaction that changes the owner has a read conflict on it
 *       (a serializable read, or an explicit conflict where the read was a snapshot), so two
 *       grants cannot both commit from the same owner value; the second aborts with
 *       {@code not_committed} and, retried, sees the first. A step that only waits writes
 *       nothing, so its snapshot read needs no conflict.</li>
 *   <li>No waiter is stranded behind a free lock. The acquire step reads the owner as a
 *       snapshot, so a waiter's enqueue and its wait never conflict with the grants and releases
 *       going on meanwhile (with a serializable read, a client releasing and re-acquiring in a
 *       tight loop kept the other out of the queue indefinitely: every enqueue attempt aborted).
 *       A release that frees the lock read the queue range serializably, and found it empty:
 *       if an enqueue commits after that read and before the release commits, the release
 *       aborts and, retried, hands the lock to the waiter. (FoundationDB gives a versionstamped
 *       key no write conflict range, so the enqueue adds a write conflict on a never-written
 *       key after all entries; a read of the empty queue covers that key. The history test
 *       found waiters stranded before this was added.) An enqueue can still commit just after a release freed the lock
 *       (it read the owner before); the enqueuer's next step, taken at once, reads the owner
 *       after its enqueue committed, finds it free and hands it to the head of the queue. Any
 *       later release sees the entry. So a free lock with waiters lasts at most until the
 *       newest waiter's next step, and {@link #tryAcquire} and every acquire step repair it
 *       the same way.</li>
 *   <li>FIFO: grants from the queue always take the head, queue keys are in commit order, and
 *       a direct grant happens only when the queue was read empty (serializably). A client
 *       has at most one entry, because the enqueue reads (serializably) the ticket it writes.
 *       No lost wake-up: the ticket is read in the transaction that creates its watch, and a
 *       grant clearing it after that read fires the watch as soon as it is registered.</li>
 *   <li>A heartbeat, a release and a janitor's hand-on each re-check the owner in the
 *       transaction that acts, so none acts on a lock that changed hands since it looked.</li>
 * </ul>
 *
 * <h2>Correctness under commit_unknown_result (1021)</h2>
 * Every operation is a check followed by the change it decides, retried by {@code db.run}: if
 * an attempt committed but reported 1021, the retry sees its effect and does nothing more. An
 * enqueue that did commit left a ticket, so the retry does not queue the client twice (it only
 * creates a new watch); a grant that did commit left the owner naming us; a release or
 * hand-on that did commit left an owner that is no longer ours, and the retry stops there.
 *
 * <h2>Fencing</h2>
 * A client that is paused (GC, a stopped VM) longer than the janitor's timeout loses the lock
 * without knowing; its later writes must be refused. Each grant's token is strictly larger
 * than every earlier grant's, so a resource that remembers the largest token it has accepted
 * refuses a write carrying a smaller one ({@link MutexGrant}). Data kept in the same database
 * can instead be fenced exactly with {@link #holds}: read in the writing transaction, the owner
 * key makes that transaction abort if the lock changes hands before it commits.
 *
 * <h2>Threads</h2>
 * One object is one client: run one {@code acquire} at a time on it. {@link #release},
 * {@link #isHeldByMe}, the inspection methods and {@link #close} may be called from any
 * thread. Heartbeats run on the given scheduler and never block it.
 */
public final class DistributedMutex implements AutoCloseable {
    /** The heartbeat interval of the short constructor: well below any sensible janitor timeout (seconds). */
    public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofMillis(500);

    private static final class DefaultScheduler {
        /** One daemon thread: a beat only starts a transaction, so one thread serves many mutexes. */
        static final ScheduledExecutorService INSTANCE = create();

        private static ScheduledExecutorService create() {
            ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "strata-mutex-heartbeat");
                t.setDaemon(true);
                return t;
            });
            s.setRemoveOnCancelPolicy(true);
            return s;
        }
    }

    private final Database db;
    private final MutexState state;
    private final String name;
    /** Our current grant and its heartbeat, as far as we know. */
    private final HeldGrant held;

    /**
     * A client named {@code name} of the mutex in {@code subspace}, heartbeating every
     * {@link #DEFAULT_HEARTBEAT_INTERVAL} on a shared daemon thread.
     */
    public DistributedMutex(Database db, Subspace subspace, String name) {
        this(db, subspace, name, DefaultScheduler.INSTANCE, DEFAULT_HEARTBEAT_INTERVAL);
    }

    /**
     * A client named {@code name} of the mutex in {@code subspace}. While it holds the lock it
     * heartbeats every {@code heartbeatInterval} on {@code scheduler}; the janitor's timeout
     * should be several intervals.
     *
     * @param name unique among the mutex's clients, non-empty; a client keeps its name
     */
    public DistributedMutex(Database db, Subspace subspace, String name, ScheduledExecutorService scheduler,
                            Duration heartbeatInterval) {
        this.db = Objects.requireNonNull(db);
        this.state = new MutexState(subspace);
        this.name = Objects.requireNonNull(name);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a client name must not be empty (the empty name marks a free lock)");
        }
        this.held = new HeldGrant(scheduler, heartbeatInterval);
    }

    public String name() {
        return name;
    }

    /**
     * Takes the lock if it is free and nobody is queued, in one transaction; never waits and
     * never queues.
     *
     * @return the grant (already ours counts), or empty when another client holds the lock
     */
    public Optional<MutexGrant> tryAcquire() {
        Long token = LockTransactions.run(db, tr -> {
            MutexOwner owner = state.owner(tr);
            if (owner.name().equals(name)) {
                return owner.token();
            }
            if (!MutexState.isFree(owner)) {
                return null;
            }
            if (state.queue.head(tr) == null) {
                state.grant(tr, name, owner.token() + 1);
                return owner.token() + 1;
            }
            // Free with waiters (an enqueue raced a release): FIFO, the head gets it.
            return name.equals(state.handOn(tr, owner.token())) ? owner.token() + 1 : null;
        });
        if (token == null) {
            return Optional.empty();
        }
        return Optional.of(granted(token, null));
    }

    /** {@link #acquire(Duration)} without a time limit. */
    public MutexGrant acquire() throws InterruptedException {
        return Acquisition.withoutTimeLimit(() -> acquire(null));
    }

    /**
     * Waits, in FIFO order, until this client holds the lock; returns at once if it already
     * does. Waiting costs no reads: the client sleeps on a watch.
     *
     * <p>Cancellation is by interrupting the waiting thread (or by cancelling the future of
     * {@link #acquireAsync}). On timeout or interrupt the client
     * leaves the queue in one transaction; if it was granted the lock in the meantime, that
     * transaction hands the lock on instead, so it is never leaked.
     *
     * @param timeout how long to wait at most; null for no limit
     * @throws TimeoutException     when the time is up, after leaving the queue
     * @throws InterruptedException when interrupted, after leaving the queue
     */
    public MutexGrant acquire(Duration timeout) throws InterruptedException, TimeoutException {
        MutexGrant g = Acquisition.await(db, this::step, this::abandon, name, timeout);
        return granted(g.token(), g.queuedAt());
    }

    /**
     * {@link #acquire(Duration)} on {@code executor}, as a future. Cancelling the future
     * ({@code cancel(true)} or {@code cancel(false)}) cancels the wait: the client leaves the
     * queue, and a grant that arrives as the caller cancels is released, never leaked. One
     * acquisition at a time per client still applies.
     */
    public CompletableFuture<MutexGrant> acquireAsync(Duration timeout, Executor executor) {
        return Acquisition.async(() -> acquire(timeout), this::release, executor);
    }

    /**
     * One step of acquire, in {@code tr}: the lock is ours, or we just queued, or we wait on
     * our ticket. See the class Javadoc for why the owner is read as a snapshot.
     */
    Acquisition.Step step(Transaction tr, boolean positionKnown) {
        // A snapshot read: a waiter must not conflict with the grants and releases it takes no
        // part in, or a client that releases and re-acquires in a tight loop could keep it out
        // of the queue for ever (each attempt aborted by the latest change of the owner).
        MutexOwner owner = MutexState.decodeOwner(tr.snapshot().get(state.ownerKey()).join());
        if (owner.name().equals(name)) {
            return Acquisition.Step.owned(owner.token());
        }
        if (MutexState.isFree(owner)) {
            // Taking the lock, or handing it on, decides on the owner: now it must conflict.
            tr.addReadConflictKey(state.ownerKey());
            if (state.queue.head(tr) == null) {
                state.grant(tr, name, owner.token() + 1);
                return Acquisition.Step.owned(owner.token() + 1);
            }
            // Free with waiters: an enqueue committed just after a release freed the lock. FIFO:
            // the head gets it, which may be us.
            if (name.equals(state.handOn(tr, owner.token()))) {
                return Acquisition.Step.owned(owner.token() + 1);
            }
        }
        return Acquisition.Step.queueOrWait(tr, state.queue, name, positionKnown);
    }

    /**
     * Leaves the queue after a timeout or interrupt, in one transaction: hands the lock on if
     * it was granted to us meanwhile, else removes our queue entry and ticket. Runs even when
     * the thread is interrupted (the interrupt status was cleared by the exception).
     */
    void abandon() {
        LockTransactions.run(db, tr -> {
            MutexOwner owner = state.owner(tr);
            if (owner.name().equals(name)) {
                state.handOn(tr, owner.token());
            } else {
                state.queue.remove(tr, name);
            }
            return null;
        });
    }

    /** Records a grant we learnt of and starts its heartbeat. */
    private MutexGrant granted(long token, Versionstamp queuedAt) {
        held.granted(token, t -> state.heartbeat(db, name, t));
        return new MutexGrant(token, queuedAt);
    }

    /**
     * Releases the lock if this client still holds the grant it last acquired, handing it to
     * the head of the queue (with the next token) in the same transaction, or leaving it free.
     * One transaction that never waits for another client; a no-op when the lock was already
     * lost (to the janitor) or released. Stops the heartbeat.
     */
    public void release() {
        held.release(db, this::holds, state::handOn);
    }

    /** Whether the database names this client, with the token of its last acquisition, as the owner (one read). */
    public boolean isHeldByMe() {
        return held.isConfirmed(db, this::holds);
    }

    /** The current owner, or empty when the lock is free. */
    public Optional<MutexOwner> owner() {
        MutexOwner owner = db.read(state::owner);
        return MutexState.isFree(owner) ? Optional.empty() : Optional.of(owner);
    }

    /** The names of the waiting clients, next owner first. */
    public List<String> queue() {
        return db.read(state.queue::names);
    }

    /**
     * Whether {@code token} is the current grant, read serializably in {@code tr}: a write made
     * in the same transaction commits only if the lock did not change hands before the commit,
     * which fences data kept in this database exactly. Does not wait.
     */
    public CompletableFuture<Boolean> holds(ReadTransaction tr, long token) {
        return tr.get(state.ownerKey()).thenApply(value -> {
            MutexOwner owner = MutexState.decodeOwner(value);
            return owner.name().equals(name) && owner.token() == token;
        });
    }

    /** Stops heartbeating without releasing (the janitor will hand the lock on if it is held). */
    @Override
    public void close() {
        held.close();
    }

    /** The heartbeat of the current grant, for tests that beat by hand. */
    Heartbeat heartbeat() {
        return held.heartbeat();
    }
}
