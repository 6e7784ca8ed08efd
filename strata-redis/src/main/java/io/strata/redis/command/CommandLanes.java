package io.strata.redis.command;

import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.Reply;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <h2>Concurrency</h2>
 * A lane's queue and its {@code running} flag are guarded by the lane's monitor. A lane with
 * work runs on a thread of the server's lane pool (started once per event-loop pass, see
 * {@code IterationHandOff}) and runs its batches one after another, each to its commit
 * ({@code db.run}, blocking), so a batch always reads what the previous one of its lane
 * committed and same-lane batches never conflict with each other. Blocking on the commit is
 * what lets the embedded engine run the commit on the lane's own thread, fsync included,
 * when no other batch is running, rather than hand it to its sequencer and wake the lane for
 * the next batch (measured: +12–25% unpipelined writes).
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

        public Unit(List<Invocation> requests) {
            this.requests = requests;
        }

        public CompletableFuture<List<Reply>> replies() {
            return replies;
        }
    }

    private final ServerContext server;
    private final CommandExecutor executor;
    private final Lane[] lanes = new Lane[LANES];

    CommandLanes(ServerContext server, CommandExecutor executor) {
        this.server = server;
        this.executor = executor;
        for (int i = 0; i < LANES; i++) {
            lanes[i] = new Lane();
        }
    }

    /** Queues a unit on the lane of its first request's first key (keyless: the connection's lane). */
    public void submit(Unit unit) {
        lanes[laneOf(unit.requests.get(0))].enqueue(unit);
    }

    private static int laneOf(Invocation first) {
        CommandSpec spec = first.spec();
        int h;
        if (spec.firstKey() > 0 && spec.firstKey() < first.argc()) {
            h = Arrays.hashCode(first.arg(spec.firstKey())) * 31 + first.db();
        } else {
            h = Long.hashCode(first.session().id());
        }
        return Math.floorMod(h ^ (h >>> 16), LANES);
    }

    private final class Lane {
        private final ArrayDeque<Unit> queue = new ArrayDeque<>();
        private boolean running;

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

    /** Runs the batch in one transaction, blocking; on a non-retryable failure, runs each unit alone. */
    private void runBatchBlocking(List<Unit> batch) {
        List<List<Reply>> replies;
        try {
            replies = executor.runInTransactionBlocking(tr -> runInOrder(batch, tr));
        } catch (RuntimeException error) {
            if (batch.size() == 1 && batch.get(0).requests.size() == 1) {
                batch.get(0).replies.complete(List.of(executor.errorReply(error)));
            } else if (batch.size() == 1) {
                Unit unit = batch.get(0);
                List<Reply> all = new ArrayList<>();
                for (Invocation inv : unit.requests) {
                    Unit single = new Unit(List.of(inv));
                    runBatchBlocking(List.of(single));
                    all.add(single.replies.join().get(0));
                }
                unit.replies.complete(all);
            } else {
                for (Unit u : batch) {
                    runBatchBlocking(List.of(u));
                }
            }
            return;
        }
        // One hand-off to the event loop for every connection answered (ReplyHandOff).
        List<List<Reply>> answered = replies;
        ReplyHandOff.collecting(() -> {
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).replies.complete(answered.get(i));
            }
        });
    }

    /** Every request of every unit, in order, in {@code tr}: the replies per unit. */
    private CompletableFuture<List<List<Reply>>> runInOrder(List<Unit> batch, Transaction tr) {
        List<List<Reply>> replies = new ArrayList<>(batch.size());
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (Unit unit : batch) {
            List<Reply> unitReplies = new ArrayList<>(unit.requests.size());
            replies.add(unitReplies);
            for (Invocation inv : unit.requests) {
                chain = chain.thenCompose(ignored -> {
                    CompletableFuture<Reply> one = inv.execute(tr);
                    return one.handle((reply, error) -> {
                        if (error == null) {
                            unitReplies.add(reply);
                            return null;
                        }
                        Throwable cause = CommandExecutor.unwrap(error);
                        if (!(cause instanceof io.strata.redis.protocol.RedisException)) {
                            // A conflict or database error: the whole attempt is retried or split.
                            throw new java.util.concurrent.CompletionException(cause);
                        }
                        unitReplies.add(executor.errorReply(cause));
                        return null;
                    });
                });
            }
        }
        return chain.thenApply(ignored -> replies);
    }
}
