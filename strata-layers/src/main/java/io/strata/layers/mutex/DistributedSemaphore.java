package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeoutException;

/**
 * A counting semaphore on FoundationDB: at most {@code permits} clients hold it at once; the
 * others wait in one FIFO queue. The design of {@link DistributedMutex} with a set of holders
 * instead of one owner: the same queue and tickets ({@link WaitQueue}), the same waiting loop
 * on watches, heartbeats per holder, hand-off of a released permit to the head of the queue in
 * the releasing transaction, strictly increasing tokens, and {@link SemaphoreJanitor} to take
 * permits from holders that stopped heartbeating. Read {@link DistributedMutex} first; this
 * Javadoc states only what differs.
 *
 * <h2>Key layout</h2>
 * <pre>
 * subspace
 *   ("holder", name)        -&gt; (token): name holds a permit, granted with token
 *   ("last")                -&gt; (token): the last token granted; absent = 0
 *   ("beat", name)          -&gt; (token, sequence): name's heartbeat
 *   ("queue", versionstamp) -&gt; name;  ("ticket", name) -&gt; empty: as in the mutex
 * </pre>
 * Every client of one semaphore must be built with the same {@code permits}.
 *
 * <h2>Correctness</h2>
 * <ul>
 *   <li>At most {@code permits} holders: a permit is taken without the queue only by a
 *       transaction that counted the holders below {@code permits} with a read conflict on the
 *       whole holder range and wrote a holder key in it, so of two such transactions racing
 *       for the last permit the second aborts. A release, a timeout and the janitor give the
 *       permit they free to the head of the queue in the same transaction, which keeps the
 *       count.</li>
 *   <li>Tokens: every grant reads {@code ("last")} serializably and writes it plus one, so
 *       grants are serialized on that key and tokens strictly increase.</li>
 *   <li>No stranded waiter, FIFO, idempotence under {@code commit_unknown_result}: as in the
 *       mutex. A waiter's step reads the holders as a snapshot; a step that finds a free
 *       permit adds the read conflict and gives free permits to the queue in order (which may
 *       include itself) before it may take one directly, and only when the queue is empty.</li>
 *   <li>Fencing: tokens, as in the mutex; or exactly, in the writing transaction, with
 *       {@link #holds}, whose serializable read of the client's holder key makes that
 *       transaction abort if the permit is released, taken or granted again before it
 *       commits.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * As the mutex: one acquisition at a time per object; the rest from any thread.
 */
public final class DistributedSemaphore implements AutoCloseable {
    private final Database db;
    private final String name;
    private final int permits;
    private final Subspace holders;
    private final Subspace beats;
    private final byte[] lastKey;
    private final WaitQueue queue;
    /** Our current grant and its heartbeat, as far as we know. */
    private final HeldGrant held;

    /**
     * A client named {@code name} of the semaphore with {@code permits} permits in
     * {@code subspace}, heartbeating every {@code heartbeatInterval} on {@code scheduler} while
     * it holds a permit.
     */
    public DistributedSemaphore(Database db, Subspace subspace, String name, int permits,
                                ScheduledExecutorService scheduler, Duration heartbeatInterval) {
        this.db = Objects.requireNonNull(db);
        this.name = Objects.requireNonNull(name);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a client name must not be empty");
        }
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, got " + permits);
        }
        this.permits = permits;
        this.held = new HeldGrant(scheduler, heartbeatInterval);
        SemaphoreKeys keys = new SemaphoreKeys(subspace);
        this.holders = keys.holders;
        this.beats = keys.beats;
        this.lastKey = keys.lastKey;
        this.queue = keys.queue;
    }

    public String name() {
        return name;
    }

    /** {@link #acquire(Duration)} without a time limit. */
    public MutexGrant acquire() throws InterruptedException {
        return Acquisition.withoutTimeLimit(() -> acquire(null));
    }

    /**
     * Waits, in FIFO order, until this client holds a permit; the contract of
     * {@link DistributedMutex#acquire(Duration)}.
     */
    public MutexGrant acquire(Duration timeout) throws InterruptedException, TimeoutException {
        MutexGrant g = Acquisition.await(db, this::step, this::abandon, name, timeout);
        held.granted(g.token(), this::heartbeat);
        return g;
    }

    /** {@link #acquire(Duration)} on {@code executor}; the contract of {@link DistributedMutex#acquireAsync}. */
    public CompletableFuture<MutexGrant> acquireAsync(Duration timeout, Executor executor) {
        return Acquisition.async(() -> acquire(timeout), this::release, executor);
    }

    private Acquisition.Step step(Transaction tr, boolean positionKnown) {
        byte[] mine = tr.snapshot().get(holders.pack(Tuple.from(name))).join();
        if (mine != null) {
            return Acquisition.Step.owned(Tuple.fromBytes(mine).getLong(0));
        }
        int count = tr.snapshot().getRange(holders.range(), permits).asList().join().size();
        if (count < permits) {
            // Deciding on the count: conflict with every change of the holders from here on.
            Range range = holders.range();
            tr.addReadConflictRange(range.begin, range.end);
            Long ours = null;
            for (; count < permits; count++) {
                WaitQueue.Waiter head = queue.head(tr);
                if (head == null) {
                    if (ours == null) {
                        ours = grant(tr, name);
                    }
                    break;
                }
                queue.pop(tr, head);
                long token = grant(tr, head.name());
                if (head.name().equals(name)) {
                    ours = token;
                }
            }
            if (ours != null) {
                return Acquisition.Step.owned(ours);
            }
        }
        return Acquisition.Step.queueOrWait(tr, queue, name, positionKnown);
    }

    /** Gives {@code who} a permit with the next token, in {@code tr}; returns the token. */
    private long grant(Transaction tr, String who) {
        return SemaphoreKeys.grant(tr, holders, lastKey, who);
    }

    /** The permit {@code who} held is free: it goes to the head of the queue, if any. */
    private void handOn(Transaction tr, String who) {
        SemaphoreKeys.handOn(tr, holders, beats, lastKey, queue, who);
    }

    void abandon() {
        LockTransactions.run(db, tr -> {
            if (tr.get(holders.pack(Tuple.from(name))).join() != null) {
                handOn(tr, name);
            } else {
                queue.remove(tr, name);
            }
            return null;
        });
    }

    /**
     * Releases this client's permit if it still holds the grant it last acquired, giving it to
     * the head of the queue in the same transaction; a no-op otherwise. Stops the heartbeat.
     */
    public void release() {
        held.release(db, this::holds, (tr, token) -> handOn(tr, name));
    }

    /** Whether the database records this client's last grant as holding a permit (one read). */
    public boolean isHeldByMe() {
        return held.isConfirmed(db, this::holds);
    }

    /**
     * Whether this client holds a permit with {@code token}, read serializably in {@code tr}:
     * a write made in the same transaction commits only if the permit was not released or
     * taken (by the janitor) before the commit, which fences data kept in this database
     * exactly, as {@link DistributedMutex#holds} does for the mutex. Does not wait.
     */
    public CompletableFuture<Boolean> holds(ReadTransaction tr, long token) {
        return tr.get(holders.pack(Tuple.from(name))).thenApply(value -> SemaphoreKeys.isGrant(value, token));
    }

    /** The holders, by name. */
    public List<MutexOwner> holders() {
        return db.read(tr -> holders(tr, holders));
    }

    static List<MutexOwner> holders(ReadTransaction tr, Subspace holders) {
        List<MutexOwner> all = new ArrayList<>();
        for (KeyValue kv : tr.getRange(holders.range()).asList().join()) {
            all.add(new MutexOwner(holders.unpack(kv.getKey()).getString(0), Tuple.fromBytes(kv.getValue()).getLong(0)));
        }
        return all;
    }

    /** The names of the waiting clients, next holder first. */
    public List<String> queue() {
        return db.read(queue::names);
    }

    /** Stops heartbeating without releasing. */
    @Override
    public void close() {
        held.close();
    }

    private Heartbeat heartbeat(long token) {
        return new Heartbeat(db, holders.pack(Tuple.from(name)),
                value -> SemaphoreKeys.isGrant(value, token), beats.pack(Tuple.from(name)), token);
    }

    /** The heartbeat of the current grant, for tests that beat by hand. */
    Heartbeat heartbeat() {
        return held.heartbeat();
    }
}
