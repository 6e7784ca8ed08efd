package io.strata.redis.command;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.Reply;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs data commands many at a time: each command is routed to one of a few lanes by its
 * first key, and a lane runs everything queued on it — from every connection — one command
 * after another inside <em>one</em> transaction, then commits once and answers them all.
 *
 * <h2>Why</h2>
 * Redis clients hammer single keys (redis-benchmark's default keys are one key per test). As
 * separate transactions, fifty concurrent {@code INCR}s of one key all read it, and all but
 * one conflict and back off — throughput collapses to the retry back-off. In one lane they
 * run back to back in one transaction (each sees the previous one's write) and cost one
 * commit: Redis's own one-thread-per-key behaviour, and with a durable engine one fsync for
 * the whole batch. Lanes for different keys run in parallel; commands that touch keys of
 * different lanes are still serializable, they may conflict and retry.
 *
 * <h2>Order and atomicity</h2>
 * A unit is one connection's run of consecutive data requests; a unit is never split or
 * reordered, and a connection submits its next unit only after this one is answered, so each
 * connection's commands execute in the order sent. Every command is atomic: it runs whole
 * inside the batch's transaction, and an error reply leaves no write because handlers find
 * their errors before writing ({@link CommandHandler}). A batch whose transaction fails with
 * a non-retryable error (too large, too old) is run again one unit per transaction, so one
 * oversized command cannot fail its neighbours.
 *
 * <h2>Routing</h2>
 * A unit goes to the lane of its keys — every key of every request ({@link LaneRouting}). A
 * unit whose keys fall in several lanes (an MSET of random keys, a pipeline of SETs) goes to
 * its first key's lane, where it may conflict with other lanes' batches, or, once batches
 * conflict, to the one cross-lane lane, whose batch holds every lane its units touch while its
 * transaction runs ({@link LaneLocks}, {@link CrossLanePolicy}). Every batch holds its own
 * lane, so a cross-lane batch never runs beside a batch of a lane it touches. Routing by the
 * first key alone, MSETs of ten random keys made every lane's batch collide with every
 * other's: retried with back-off, 5–6k pipelined MSETs a second and a one-second p99.
 *
 * <h2>Concurrency</h2>
 * A lane's queue and its {@code running} flag are guarded by the lane's monitor. A lane with
 * work runs on a thread of the server's lane pool (started once per event-loop pass, see
 * {@code IterationHandOff}) and runs its batches one after another, each to its commit
 * ({@code db.run}, blocking), so a batch always reads what the previous one of its lane
 * committed and same-lane batches never conflict with each other. Blocking on the commit is
 * what lets the embedded engine run the commit on the lane's own thread, fsync included,
 * when no other batch is running, rather than hand it to its sequencer and wake the lane for
 * the next batch (measured: +12–25% unpipelined writes). A batch holds its lanes' locks from
 * before its transaction starts until it has committed or failed, and releases them before it
 * serves the clients its commit unblocked. Lanes whose queues hold only unpipelined light
 * requests may have their next batches run, as one, by the event loop that read them
 * ({@link LoopBatches}), by the same code under the same locks, with {@code running} set as
 * for a lane thread.
 */
public final class CommandLanes {
    /** Parallel lanes: enough to keep two cores and the sequencer busy, few enough to batch well. */
    public static final int LANES = 8;
    /** Requests in one batch: bounded so a batch stays far inside 5 s and 10 MB. */
    static final int MAX_BATCH_REQUESTS = 512;

    /** One connection's run of requests, answered together. */
    public static final class Unit {
        final List<Invocation> requests;
        final CompletableFuture<List<Reply>> replies = new CompletableFuture<>();
        /** The lanes its keys fall in ({@link LaneRouting}); set when submitted. */
        int lanes;
        /** Whether its keys fall in more than one lane (then {@link #lanes} may hold only the first). */
        boolean spansLanes;

        public Unit(List<Invocation> requests) {
            this.requests = requests;
        }

        public CompletableFuture<List<Reply>> replies() {
            return replies;
        }
    }

    /**
     * A lane's start, as handed to {@link ServerContext#laneExecutor}: {@link #run} runs the
     * lane's batches on a lane thread; the event loop that read every request queued on the
     * lanes it started may instead run their next batches itself ({@link #runOnLoop}).
     */
    public static final class Start implements Runnable {
        private final Lane lane;

        private Start(Lane lane) {
            this.lane = lane;
        }

        @Override
        public void run() {
            lane.runBatches();
        }

        /**
         * If every task of {@code pass} (what one event-loop pass handed over) starts a lane of
         * one server whose next batch may run on the calling loop ({@link LoopBatches}), and
         * together they hold at most one batch's requests, runs those batches there as one, to
         * its commit, and returns true; otherwise does nothing and returns false.
         */
        public static boolean runOnLoop(List<Runnable> pass) {
            if (pass.isEmpty() || !(pass.get(0) instanceof Start first)) {
                return false;
            }
            CommandLanes owner = first.lane.owner();
            List<Lane> started = new ArrayList<>(pass.size());
            int requests = 0;
            for (Runnable task : pass) {
                if (!(task instanceof Start start) || start.lane.owner() != owner) {
                    return false;
                }
                int queued = start.lane.queuedOnLoop();
                requests += queued;
                if (queued < 0 || requests > MAX_BATCH_REQUESTS) {
                    return false;
                }
                started.add(start.lane);
            }
            owner.runOnLoop(started);
            return true;
        }
    }

    private final ServerContext server;
    private final CommandExecutor executor;
    private final Lane[] lanes = new Lane[LANES];
    /** Units whose keys fall in more than one lane. */
    private final Lane crossLane = new Lane(-1);
    private final LaneLocks locks = new LaneLocks();
    private final CrossLanePolicy policy = new CrossLanePolicy();

    CommandLanes(ServerContext server, CommandExecutor executor) {
        this.server = server;
        this.executor = executor;
        for (int i = 0; i < LANES; i++) {
            lanes[i] = new Lane(i);
        }
    }

    /**
     * Queues a unit on the lane of its keys; one whose keys fall in several lanes on its first
     * key's lane or on the cross-lane lane, as {@link CrossLanePolicy} decides.
     */
    public void submit(Unit unit) {
        int mask = LaneRouting.lanesOf(unit.requests);
        Lane lane;
        if (LaneRouting.single(mask)) {
            lane = lanes[Integer.numberOfTrailingZeros(mask)];
            unit.lanes = mask;
        } else if (policy.exclusive()) {
            lane = crossLane;
            unit.lanes = mask;
            unit.spansLanes = true;
        } else {
            unit.spansLanes = true;
            int first = LaneRouting.firstKeyLane(unit.requests.get(0));
            lane = lanes[first];
            unit.lanes = 1 << first; // its other lanes are not held: optimistic
        }
        lane.enqueue(unit);
    }

    /**
     * Runs a unit of fast reads ({@link FastReads}) on the calling thread, in a transaction of
     * its own, holding no lane: a transaction that writes nothing cannot conflict with a lane's
     * batch, and cannot make one conflict. A failure the transaction's retries do not cure is
     * every request's error reply.
     */
    CompletableFuture<List<Reply>> runHere(Unit unit) {
        List<Unit> alone = List.of(unit);
        return executor.runInTransaction(tr -> runInOrder(alone, tr)).handle((replies, error) -> {
            if (error == null) {
                return replies.get(0);
            }
            Reply failed = executor.errorReply(CommandExecutor.unwrap(error));
            List<Reply> all = new ArrayList<>(unit.requests.size());
            for (int i = 0; i < unit.requests.size(); i++) {
                all.add(failed);
            }
            return all;
        });
    }

    private final class Lane {
        private final ArrayDeque<Unit> queue = new ArrayDeque<>();
        private boolean running;
        /** Its lock's index; the cross-lane lane's is -1 (it holds the locks of its units). */
        private final int index;

        Lane(int index) {
            this.index = index;
        }

        void enqueue(Unit unit) {
            synchronized (this) {
                queue.add(unit);
                if (running) {
                    return;
                }
                running = true;
            }
            // Off the connection's I/O thread: with one I/O thread for every connection (Redis's
            // io-threads 1), the lanes run in parallel on the server's lane threads. Started from
            // the event loop, a lane starts once the loop has read every ready connection, so
            // its first batch holds all of them (ServerContext#laneExecutor).
            server.laneExecutor().execute(new Start(this));
        }

        CommandLanes owner() {
            return CommandLanes.this;
        }

        /**
         * How many requests this lane's next batch holds if it may run on the event loop that
         * read them ({@link LoopBatches}); -1 if it may not.
         */
        int queuedOnLoop() {
            if (index < 0 || locks.isHeld(index)) {
                return -1;
            }
            synchronized (this) {
                return LoopBatches.runsOnLoop(server.settings().storage(), queue) ? queue.size() : -1;
            }
        }

        /** Puts a batch that did not run back at the head of the queue, in its order. */
        void putBack(List<Unit> batch) {
            synchronized (this) {
                for (int i = batch.size() - 1; i >= 0; i--) {
                    queue.addFirst(batch.get(i));
                }
            }
        }

        /** After a batch run off the lane's thread: the lane's thread takes what is queued, or the lane stops. */
        private void handOnOrStop() {
            synchronized (this) {
                if (queue.isEmpty()) {
                    running = false;
                    return;
                }
            }
            server.laneExecutor().execute(this::runBatches);
        }

        /** Runs batches, each to its commit, on this lane's thread until the queue is empty. */
        private void runBatches() {
            while (true) {
                List<Unit> batch = takeBatch();
                if (batch == null) {
                    return;
                }
                runBatchBlocking(batch);
            }
        }

        private List<Unit> takeBatch() {
            synchronized (this) {
                if (queue.isEmpty()) {
                    running = false;
                    return null;
                }
                List<Unit> batch = new ArrayList<>();
                int requests = 0;
                while (!queue.isEmpty() && (batch.isEmpty() || requests + queue.peek().requests.size() <= MAX_BATCH_REQUESTS)) {
                    Unit u = queue.poll();
                    batch.add(u);
                    requests += u.requests.size();
                }
                return batch;
            }
        }
    }

    /**
     * Runs the next batches of {@code started} (lanes it started, all running) on the calling
     * event loop as one batch, in one attempt: if that fails, each lane's batch goes back to
     * the head of its queue, so that its retries (and their back-off) happen on the lane's
     * thread. What is queued afterwards goes to the lanes' threads too.
     */
    private void runOnLoop(List<Lane> started) {
        List<Lane> taken = new ArrayList<>(started.size());
        List<List<Unit>> batches = new ArrayList<>(started.size());
        List<Unit> all = new ArrayList<>();
        for (Lane lane : started) {
            List<Unit> batch = lane.takeBatch();
            if (batch != null) {
                taken.add(lane);
                batches.add(batch);
                all.addAll(batch);
            }
        }
        if (all.isEmpty()) {
            return;
        }
        server.stats().loopBatches.increment();
        try {
            if (!runBatchBlocking(all, true)) {
                server.stats().loopBatchesHandedBack.increment();
                for (int i = 0; i < taken.size(); i++) {
                    taken.get(i).putBack(batches.get(i));
                }
            }
        } finally {
            for (Lane lane : taken) {
                lane.handOnOrStop();
            }
        }
    }

    /** Runs the batch in one transaction holding its lanes, blocking; on a non-retryable failure, runs each unit alone. */
    private void runBatchBlocking(List<Unit> batch) {
        runBatchBlocking(batch, false);
    }

    /**
     * As {@link #runBatchBlocking(List)}; with {@code oneAttempt} (on an event loop), a failure
     * of the database ends the run instead, with nothing answered, and false is returned: rerun
     * on a lane thread, the batch is retried, or split if the failure was not retryable (fdb-java's
     * {@code FDBException.isRetryable} asks the native client, which the embedded engine does
     * not load), as one more attempt would be.
     */
    private boolean runBatchBlocking(List<Unit> batch, boolean oneAttempt) {
        int mask = 0;
        for (Unit u : batch) {
            mask |= u.lanes;
        }
        List<List<Reply>> replies;
        LaneLocks.Hold hold = locks.acquire(mask);
        try {
            replies = executor.runInTransactionBlocking(tr -> {
                if (!oneAttempt) {
                    return runInOrder(batch, tr);
                }
                tr.options().setRetryLimit(0);
                CompletableFuture<List<List<Reply>>> ran = runInOrder(batch, tr);
                if (!ran.isDone()) {
                    // A command waits for more than the database's answers (PUBLISH for every
                    // event loop to poll): not on an event loop.
                    throw new WaitsOffLoop();
                }
                return ran;
            }, attempts -> {
                hold.release();
                policy.ended(attempts, requestsIn(batch));
            });
        } catch (RuntimeException error) {
            hold.release(); // released already, unless the failure came before the transaction ran
            Throwable cause = CommandExecutor.unwrap(error);
            if (oneAttempt && (cause instanceof FDBException || cause instanceof WaitsOffLoop)) {
                return false;
            }
            runApart(batch, error);
            return true;
        } finally {
            hold.release();
        }
        // One hand-off to the event loop for every connection answered (ReplyHandOff).
        List<List<Reply>> answered = replies;
        ReplyHandOff.collecting(() -> {
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).replies.complete(answered.get(i));
            }
        });
        return true;
    }

    /** After a non-retryable failure of {@code batch}: each unit alone, and a failing unit one request at a time. */
    private void runApart(List<Unit> batch, RuntimeException error) {
        if (batch.size() == 1 && batch.get(0).requests.size() == 1) {
            batch.get(0).replies.complete(List.of(executor.errorReply(error)));
        } else if (batch.size() == 1) {
            Unit unit = batch.get(0);
            List<Reply> all = new ArrayList<>();
            for (Invocation inv : unit.requests) {
                Unit single = new Unit(List.of(inv));
                single.lanes = unit.lanes; // the lanes it held: a lane's thread takes only its own
                runBatchBlocking(List.of(single));
                all.add(single.replies.join().get(0));
            }
            unit.replies.complete(all);
        } else {
            for (Unit u : batch) {
                runBatchBlocking(List.of(u));
            }
        }
    }

    /** Ends a batch's attempt on an event loop when a command would wait there. */
    private static final class WaitsOffLoop extends RuntimeException {
        WaitsOffLoop() {
            super("a command of the batch waits for more than the database", null, false, false);
        }
    }

    private static int requestsIn(List<Unit> batch) {
        int n = 0;
        for (Unit u : batch) {
            n += u.requests.size();
        }
        return n;
    }

    /** Every request of every unit, in order, in {@code tr}: the replies per unit. */
    private CompletableFuture<List<List<Reply>>> runInOrder(List<Unit> batch, Transaction tr) {
        List<List<Reply>> replies = new ArrayList<>(batch.size());
        for (Unit unit : batch) {
            replies.add(new ArrayList<>(unit.requests.size()));
        }
        return runFrom(batch, tr, replies, 0, 0);
    }

    /**
     * Runs the batch's requests from request {@code r} of unit {@code u} on, each after the
     * one before has answered: in a loop while each answers at once (on the embedded engine,
     * nearly all do), chained to the answer of one that does not. A reply is added to its
     * unit's list; a failure that is not a Redis error reply (a conflict, a database error)
     * fails the whole attempt, to be retried or split.
     */
    private CompletableFuture<List<List<Reply>>> runFrom(List<Unit> batch, Transaction tr, List<List<Reply>> replies,
                                                         int u, int r) {
        for (; u < batch.size(); u++, r = 0) {
            List<Invocation> requests = batch.get(u).requests;
            List<Reply> unitReplies = replies.get(u);
            for (; r < requests.size(); r++) {
                CompletableFuture<Reply> one;
                try {
                    one = requests.get(r).execute(tr);
                } catch (RuntimeException error) {
                    one = CompletableFuture.failedFuture(error);
                }
                if (!one.isDone()) {
                    int nextUnit = u;
                    int nextRequest = r + 1;
                    return one.handle((reply, error) -> {
                        answer(unitReplies, reply, error);
                        return null;
                    }).thenCompose(ignored -> runFrom(batch, tr, replies, nextUnit, nextRequest));
                }
                Reply reply = null;
                Throwable error = null;
                try {
                    reply = one.join();
                } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
                    error = e;
                }
                try {
                    answer(unitReplies, reply, error);
                } catch (java.util.concurrent.CompletionException failed) {
                    return CompletableFuture.failedFuture(failed.getCause());
                }
            }
        }
        return CompletableFuture.completedFuture(replies);
    }

    /** Adds a request's reply, or its Redis error's reply; any other failure is thrown, wrapped. */
    private void answer(List<Reply> unitReplies, Reply reply, Throwable error) {
        if (error == null) {
            unitReplies.add(reply);
            return;
        }
        Throwable cause = CommandExecutor.unwrap(error);
        if (!(cause instanceof io.strata.redis.protocol.RedisException)) {
            throw new java.util.concurrent.CompletionException(cause);
        }
        unitReplies.add(executor.errorReply(cause));
    }
}
