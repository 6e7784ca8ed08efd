package io.strata.redis.blocking;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.Waiter.Outcome;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.ServerStats;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The clients of this server process that wait for keys (BLPOP, BRPOP, BLMOVE, BRPOPLPUSH,
 * BLMPOP), and what wakes them: FoundationDB watches, never polling.
 *
 * <h2>How a command waits</h2>
 * A blocking command first tries to pop in a transaction ({@link #block}). When none of its
 * keys can serve it, that same transaction sets a watch on each key's change stamp
 * ({@code Keyspace.stampKey}, which {@code KeyStore} moves on every change of the key) and
 * commits; a change made by any process after the transaction's read then fires the watch, so
 * no wake-up is lost between the read and the wait. The command waits in the queue of each of
 * its keys until a watch fires, its timeout passes, CLIENT UNBLOCK ends it, or its connection
 * closes.
 *
 * <h2>Serving in order</h2>
 * The process keeps one watch per key however many of its clients wait on it (a database
 * handle has a limited number of watches, 10,000 by default), and one queue per key, ordered
 * by the commands' arrival (numbered when they start, and in line from then on, their first
 * try included). When the key's watch fires, a pass over its queue retries the waiting
 * commands one at a time, first come first served, each in a transaction of its own: a
 * command served (or failed) leaves the queue and the pass goes on to the next; the first
 * that finds nothing to take ends the pass, and its transaction has set the key's next watch —
 * unless its command takes nothing from the others (XREAD, XREADGROUP: a reader waiting for
 * IDs past the new entries, or on a group whose entries another consumer took, says nothing
 * about a reader of another group), when the pass goes on to the next waiter.
 * A new blocking command does not take from a key that clients of this process already wait
 * on: it checks the key's type, passes it over, and if nothing else serves it joins the line
 * and starts a pass over that key, which hands out whatever the key holds in order.
 *
 * <h2>Hand-over before the push answers</h2>
 * Redis serves blocked clients in the same step as the push that feeds them, before it
 * answers the pusher. Here the pusher's transaction learns, as it changes a key
 * ({@code KeyStore}'s change listener, {@link ChangedKeys}), that clients of this process
 * wait on it; once it has committed ({@link #afterCommit}, called by the command executor),
 * passes over those keys run at once — without waiting for the watch — and the pusher's reply
 * goes out when they end, chains included (a served BLMOVE feeding another waiting client).
 * The watches stay the only way a change made by another process, or by anything that does
 * not go through the executor, wakes a client.
 *
 * <p>What this guarantees: blocking commands waiting on one key in one process are served in
 * the order they arrived, and a push made through this process answers after the hand-over,
 * as in Redis. What it does not: clients of different processes sharing the database race for
 * the elements (each process serves its own line in order, woken by watches, after the
 * pusher's reply); and a non-blocking pop (LPOP, LMOVE ...) running while an element is being
 * handed over may take it first.
 *
 * <h2>Ending a wait</h2>
 * If a retry is running when the wait ends (timeout, CLIENT UNBLOCK, disconnect), the retry
 * checks before it commits and drops its writes, so a client that has gone takes no element
 * (short of a commit already on its way). A watch that fails (the database refuses more
 * watches, say) is treated as fired after {@link #WATCH_ERROR_DELAY_MILLIS}, so a fault
 * degrades into slow retries rather than a busy loop or a lost client.
 *
 * <h2>Concurrency</h2>
 * Queue state and the waiters' state are guarded by this object's monitor; transactions run
 * outside it and their outcomes are settled under it. A waiter has at most one retry running
 * (two passes that reach it share that retry), so it is never served twice. Callbacks of
 * watches and passes run on one small scheduler thread, which only starts transactions.
 */
public final class BlockedClients implements AutoCloseable {
    static final long WATCH_ERROR_DELAY_MILLIS = 100;
    private static final CompletableFuture<Void> DELIVER_NOW = CompletableFuture.completedFuture(null);

    /** A key of a database. */
    record WaitKey(int db, ByteBuffer key) {
        byte[] bytes() {
            byte[] b = new byte[key.remaining()];
            key.duplicate().get(b);
            return b;
        }
    }

    /** The waiters of one key by arrival ({@link Waiter#arrival}), and the key's watch. */
    private static final class KeyQueue {
        final WaitKey key;
        final TreeMap<Long, Waiter> waiters = new TreeMap<>();
        CompletableFuture<Void> watch;
        boolean passing;
        boolean again;
        /**
         * The arrival of the last waiter this pass tried and left waiting because its command
         * takes nothing from the others ({@link BlockingAttempt#othersMayBeServed}): the pass
         * goes on after it. {@link Long#MIN_VALUE} at the start of a pass.
         */
        long after = Long.MIN_VALUE;
        /**
         * The key's change stamp as the try of that waiter ({@link #after}) read it: the next
         * waiter's try runs only if the key has not changed since, for what came meanwhile may
         * be that earlier waiter's (a consumer group's next entry), and it came first.
         */
        byte[] afterStamp;
        /** Whether {@link #afterStamp} was read (a try that did not read it leaves the next one unchecked). */
        boolean afterStampKnown;
        /** Times this pass started over because the key moved under a waiter after {@link #after}. */
        int restarts;
        /** Completes when the running pass ends (null when none runs). */
        CompletableFuture<Void> passEnded;

        KeyQueue(WaitKey key) {
            this.key = key;
        }
    }

    /** Times a pass starts over because its key changed under a waiter after one passed over, at most. */
    private static final int MAX_RESTARTS = 8;

    /** Rounds of {@link #passesStillRunning}: a chain's links in passes nobody else waited for. */
    private static final int CHAIN_ROUNDS = 3;

    private final Database database;
    private final Keyspace keyspace;
    private final ServerStats stats;
    private final Function<Throwable, Reply> errorReplies;
    private final ScheduledExecutorService scheduler;
    /** Changed under the monitor only; concurrent so that {@link ChangedKeys} may look keys up without it. */
    private final Map<WaitKey, KeyQueue> queues = new ConcurrentHashMap<>();
    private final ChangedKeys changed = new ChangedKeys(queues);
    private volatile java.util.function.Consumer<Transaction> onCommit = tr -> { };
    /** The last arrival number given; guarded by the monitor. */
    private long arrivals;

    /**
     * @param errorReplies the error reply for a failure of a retry (a RedisException's message,
     *     or a database error)
     */
    public BlockedClients(Database database, KeyStore keys, ServerStats stats, Function<Throwable, Reply> errorReplies) {
        this.database = database;
        this.keyspace = keys.keyspace();
        keys.listen(changed);
        this.stats = stats;
        this.errorReplies = errorReplies;
        ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "strata-redis-blocked-clients");
            t.setDaemon(true);
            return t;
        });
        s.setRemoveOnCancelPolicy(true);
        this.scheduler = s;
    }

    /**
     * Runs a blocking command of {@code session}: tries {@code attempt} at once and, if it finds
     * nothing, waits for one of {@code keys} of database {@code db} to change and tries again,
     * until served or {@code timeoutMillis} (0: no limit) have passed, when the reply is
     * {@code timeoutReply}. The first try's errors (WRONGTYPE) fail the returned future.
     */
    public CompletableFuture<Reply> block(ClientSession session, int db, List<byte[]> keys, long timeoutMillis,
                                          Reply timeoutReply, BlockingAttempt attempt) {
        long started = System.nanoTime();
        LinkedHashSet<WaitKey> distinct = new LinkedHashSet<>();
        for (byte[] k : keys) {
            distinct.add(new WaitKey(db, ByteBuffer.wrap(k.clone())));
        }
        Waiter w;
        Set<WaitKey> waitedOn;
        CompletableFuture<Outcome> firstSettled = new CompletableFuture<>();
        synchronized (this) {
            // Numbered and in line from now on, so that a command arriving during this one's
            // first try passes over its keys and waits behind it; a pass that reaches it waits
            // for the try.
            w = new Waiter(this, session, List.copyOf(distinct), attempt, timeoutReply, ++arrivals, started, timeoutMillis);
            waitedOn = waitedOn(w.keys);
            for (WaitKey k : w.keys) {
                queues.computeIfAbsent(k, KeyQueue::new).waiters.put(w.arrival, w);
            }
            w.retry = firstSettled;
        }
        session.firstTryRunning(firstSettled);
        Predicate<byte[]> inLine = waitedOn.isEmpty() ? BlockingAttempt.NOBODY
                : key -> waitedOn.contains(new WaitKey(db, ByteBuffer.wrap(key)));
        tryOnce(w, inLine).exceptionally(e -> Outcome.replied(errorReply(e))).thenAccept(first -> {
            settleFirst(w, first, waitedOn);
            firstSettled.complete(first);
        });
        return w.result;
    }

    /** Those of {@code keys} on which clients of this process wait now. Under the monitor. */
    private Set<WaitKey> waitedOn(List<WaitKey> keys) {
        Set<WaitKey> found = new HashSet<>();
        for (WaitKey k : keys) {
            KeyQueue q = queues.get(k);
            if (q != null && !q.waiters.isEmpty()) {
                found.add(k);
            }
        }
        return found;
    }

    /**
     * Called once a command's transaction has committed: clients of this process waiting on
     * keys it changed are served now, and the returned future completes when they have been
     * (or found nothing), so that the command answers after the hand-over, as Redis serves
     * blocked clients before it answers the command that pushed. The watches would wake those
     * clients too; this only saves waiting for them, and orders the replies.
     */
    /**
     * Sets what is told of every transaction this passes on as committed — a command's
     * ({@link #afterCommit}) or a blocked client's that was served — before its waiters are
     * served (client-side caching sends its invalidations there).
     */
    public void onCommit(java.util.function.Consumer<Transaction> hook) {
        this.onCommit = hook;
    }

    public CompletableFuture<Void> afterCommit(Transaction tr) {
        CompletableFuture<Void> joined = handOn(tr, true);
        if (joined.isDone()) {
            return joined;
        }
        return joined.thenCompose(ignored -> passesStillRunning(CHAIN_ROUNDS));
    }

    /**
     * Waits for the passes running once those a command joined have ended, for at most
     * {@code rounds} rounds. A chain (a served BLMOVE feeding another waiter) may continue in a
     * pass a watch started before the hand-on got there; the hand-on cannot wait for a running
     * pass (that pass may be waiting for it), so the chain's end is in a pass nobody waited
     * for. The command that started the chain is outside every pass, so it may wait for them
     * all; the rounds bound how long a steady stream of other clients' passes can hold its reply.
     */
    private CompletableFuture<Void> passesStillRunning(int rounds) {
        List<CompletableFuture<Void>> running = new ArrayList<>();
        synchronized (this) {
            for (KeyQueue q : queues.values()) {
                if (q.passEnded != null) {
                    running.add(q.passEnded);
                }
            }
        }
        if (running.isEmpty() || rounds == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.allOf(running.toArray(new CompletableFuture[0])).thenCompose(ignored -> passesStillRunning(rounds - 1));
    }

    /**
     * Starts passes over the waited-on keys {@code tr} changed. Waits for the passes it starts
     * and, if {@code joinRunning}, for those already running; a pass's own hand-on does not
     * wait for a running pass, which may be the one waiting for it.
     */
    private CompletableFuture<Void> handOn(Transaction tr, boolean joinRunning) {
        if (tr == null) {
            return CompletableFuture.completedFuture(null);
        }
        onCommit.accept(tr);
        Set<WaitKey> keys = changed.take(tr);
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> passes = new ArrayList<>();
        synchronized (this) {
            for (WaitKey k : keys) {
                KeyQueue q = queues.get(k);
                if (q == null) {
                    continue;
                }
                if (q.passing && !joinRunning) {
                    // The pass that served this change goes on to its next waiter anyway.
                    continue;
                }
                startPass(q);
                if (q.passEnded != null) {
                    passes.add(q.passEnded);
                }
            }
        }
        return CompletableFuture.allOf(passes.toArray(new CompletableFuture[0]));
    }

    /**
     * One try in a transaction of its own: the reply if served, else the watches it set. A
     * first try has {@code waitedOn} (keys to pass over), a retry null.
     */
    private CompletableFuture<Outcome> tryOnce(Waiter w, Predicate<byte[]> waitedOn) {
        return tryOnce(w, waitedOn, null, null);
    }

    /**
     * As {@link #tryOnce(Waiter, Predicate)}; with {@code unmovedKey}, only if that key's change
     * stamp is still {@code stamp} (read serializably: a change before the try commits makes it
     * conflict and try again), else it sets its watches and ends {@link Outcome#keyMoved}.
     */
    private CompletableFuture<Outcome> tryOnce(Waiter w, Predicate<byte[]> waitedOn, WaitKey unmovedKey, byte[] stamp) {
        boolean first = waitedOn != null;
        return database.runAsync(tr -> {
            if (w.stopWith != null) {
                return CompletableFuture.completedFuture(Outcome.STOPPED);
            }
            CompletableFuture<Boolean> unmoved = unmovedKey == null ? CompletableFuture.completedFuture(true)
                    : tr.get(keyspace.stampKey(unmovedKey.db(), unmovedKey.bytes())).thenApply(now -> Arrays.equals(now, stamp));
            return unmoved.thenCompose(still -> {
                if (!still) {
                    Outcome moved = Outcome.waiting(watch(tr, w));
                    moved.keyMoved = true;
                    return CompletableFuture.completedFuture(moved);
                }
                return w.attempt.attempt(tr, first, first ? waitedOn : BlockingAttempt.NOBODY).thenCompose(reply -> {
                    if (reply == null) {
                        Outcome waiting = Outcome.waiting(watch(tr, w));
                        return w.attempt.othersMayBeServed() ? withStamps(tr, w, waiting) : CompletableFuture.completedFuture(waiting);
                    }
                    if (w.stopWith != null) {
                        // Nobody will read the reply: abandon the transaction and its writes.
                        throw new Abandoned();
                    }
                    return CompletableFuture.completedFuture(Outcome.served(reply, tr));
                });
            });
        });
    }

    private List<CompletableFuture<Void>> watch(Transaction tr, Waiter w) {
        List<CompletableFuture<Void>> watches = new ArrayList<>(w.keys.size());
        for (WaitKey k : w.keys) {
            watches.add(tr.watch(keyspace.stampKey(k.db(), k.bytes())));
        }
        return watches;
    }

    /** {@code waiting} with the change stamps of the waiter's keys as {@code tr} reads them. */
    private CompletableFuture<Outcome> withStamps(Transaction tr, Waiter w, Outcome waiting) {
        Map<WaitKey, CompletableFuture<byte[]>> reads = new HashMap<>();
        for (WaitKey k : w.keys) {
            reads.put(k, tr.get(keyspace.stampKey(k.db(), k.bytes())));
        }
        return CompletableFuture.allOf(reads.values().toArray(new CompletableFuture[0])).thenApply(ignored -> {
            Map<WaitKey, byte[]> stamps = new HashMap<>();
            reads.forEach((k, f) -> stamps.put(k, f.join()));
            waiting.stamps = stamps;
            return waiting;
        });
    }

    /**
     * Settles a command's first try. Served or failed, it leaves the line, and its reply goes
     * out once what it changed has been handed on (BLMOVE pushing to a list others wait on).
     * Finding nothing, it is blocked now: counted, visible to CLIENT UNBLOCK, timed, and its
     * watches armed. A key it passed over because others wait on it may hold elements not yet
     * handed over: a pass over that key serves the line, this command included, in order.
     */
    private void settleFirst(Waiter w, Outcome first, Set<WaitKey> passedOver) {
        if (!first.isWaiting()) {
            CompletableFuture<Void> handedOn = new CompletableFuture<>();
            synchronized (this) {
                w.retry = null;
                finish(w, first.reply, handedOn);
            }
            afterCommit(first.committed).whenComplete((v, e) -> handedOn.complete(null));
            return;
        }
        synchronized (this) {
            w.retry = null;
            w.blocked = true;
            stats.blockedClients.incrementAndGet();
            w.session.blockedOn(w);
            arm(w, first.watches);
            if (w.timeoutMillis != 0) {
                long elapsed = System.nanoTime() - w.startedNanos;
                long delay = Math.max(0, TimeUnit.MILLISECONDS.toNanos(w.timeoutMillis) - elapsed);
                w.timer = scheduler.schedule(() -> w.unblock(null), delay, TimeUnit.NANOSECONDS);
            }
            if (w.session.disconnected()) {
                stop(w, w.timeoutReply);
            }
            for (WaitKey k : passedOver) {
                KeyQueue q = queues.get(k);
                if (q != null) {
                    startPass(q);
                }
            }
        }
    }

    /** Gives each of {@code w}'s keys the watch its last try set, unless the key already has one. */
    private void arm(Waiter w, List<CompletableFuture<Void>> watches) {
        for (int i = 0; i < w.keys.size(); i++) {
            CompletableFuture<Void> f = watches.get(i);
            KeyQueue q = queues.get(w.keys.get(i));
            if (q == null || q.watch != null) {
                // Nobody waits on the key any more, or an older watch covers it: any change
                // after the older watch's read fires that one too.
                f.cancel(false);
                continue;
            }
            q.watch = f;
            f.whenCompleteAsync((v, e) -> watchFired(q, f, e), scheduler);
        }
    }

    private void watchFired(KeyQueue q, CompletableFuture<Void> f, Throwable error) {
        synchronized (this) {
            if (q.watch != f) {
                return;
            }
            q.watch = null;
            if (error == null) {
                startPass(q);
                return;
            }
        }
        scheduler.schedule(() -> {
            synchronized (this) {
                startPass(q);
            }
        }, WATCH_ERROR_DELAY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Starts a pass over the key's queue, or asks the running one to go on. Under the monitor. */
    private void startPass(KeyQueue q) {
        if (queues.get(q.key) != q) {
            return;
        }
        if (q.passing) {
            q.again = true;
            return;
        }
        q.passing = true;
        q.after = Long.MIN_VALUE;
        q.restarts = 0;
        q.passEnded = new CompletableFuture<>();
        scheduler.execute(() -> step(q));
    }

    /** Retries the first waiter of the queue; {@link #afterStep} decides whether to go on. */
    private void step(KeyQueue q) {
        Waiter w;
        CompletableFuture<Outcome> settled;
        synchronized (this) {
            Map.Entry<Long, Waiter> first = q.waiters.higherEntry(q.after);
            if (first == null && q.after != Long.MIN_VALUE && q.again) {
                // Waiters passed over left waiting, and the key changed since: once more from the start.
                q.again = false;
                q.after = Long.MIN_VALUE;
                first = q.waiters.firstEntry();
            }
            if (first == null) {
                endPass(q);
                return;
            }
            w = first.getValue();
            // Past a waiter left waiting, the next one runs only on the key as that one found it.
            // (A key that keeps changing gets MAX_RESTARTS restarts; then the line goes on as it can.)
            boolean checked = q.after != Long.MIN_VALUE && q.afterStampKnown && q.restarts < MAX_RESTARTS;
            settled = w.retry != null ? w.retry : checked ? retry(w, q.key, q.afterStamp) : retry(w);
        }
        settled.whenCompleteAsync((o, e) -> afterStep(q, w, o), scheduler);
    }

    private void afterStep(KeyQueue q, Waiter w, Outcome o) {
        synchronized (this) {
            if (o != null && o.keyMoved) {
                // The key changed after an earlier waiter was passed over: from the start again.
                q.again = false;
                q.after = Long.MIN_VALUE;
                q.restarts++;
            } else if (o != null && o.isWaiting() && !w.done) {
                if (w.attempt.othersMayBeServed() && !q.again) {
                    // It takes nothing the others could have had (a stream read): try the next.
                    // Not when the key changed meanwhile: what came may be this waiter's (a
                    // consumer group's next entry), and it goes first, as it came first.
                    q.after = w.arrival;
                    q.afterStampKnown = o.stamps != null;
                    q.afterStamp = o.stamps == null ? null : o.stamps.get(q.key);
                } else if (!q.again) {
                    // The key had nothing for the first waiter, so nothing for the others; the
                    // try's watch now waits for the next change — unless one fired meanwhile.
                    endPass(q);
                    return;
                } else {
                    q.again = false;
                    q.after = Long.MIN_VALUE;
                }
            }
        }
        step(q);
    }

    private void endPass(KeyQueue q) {
        q.passing = false;
        q.again = false;
        CompletableFuture<Void> ended = q.passEnded;
        q.passEnded = null;
        dropIfIdle(q);
        if (ended != null) {
            scheduler.execute(() -> ended.complete(null));
        }
    }

    /**
     * Starts a retry of {@code w} and records it in {@code w.retry}, which completes once the
     * retry is settled (served, failed, stopped or re-armed), and returns that future. Under the
     * monitor. The record is made before the try starts, since a try may complete (and clear
     * the record) before it returns.
     */
    private CompletableFuture<Outcome> retry(Waiter w) {
        return retry(w, null, null);
    }

    /** As {@link #retry(Waiter)}, only while {@code unmovedKey}'s stamp is {@code stamp} (see {@link #tryOnce}). */
    private CompletableFuture<Outcome> retry(Waiter w, WaitKey unmovedKey, byte[] stamp) {
        CompletableFuture<Outcome> settled = new CompletableFuture<>();
        w.retry = settled;
        tryOnce(w, null, unmovedKey, stamp)
                .exceptionally(e -> unwrap(e) instanceof Abandoned ? Outcome.STOPPED : Outcome.replied(errorReply(e)))
                .thenAccept(o -> {
                    settle(w, o);
                    // What the served command changed (BLMOVE's destination) is handed on to
                    // its own waiters before this pass goes on, as Redis serves chains.
                    handOn(o.committed, false).whenComplete((v, e) -> settled.complete(o));
                });
        return settled;
    }

    private Reply errorReply(Throwable e) {
        return errorReplies.apply(unwrap(e));
    }

    private synchronized void settle(Waiter w, Outcome o) {
        w.retry = null;
        if (w.done) {
            cancel(o.watches);
        } else if (o.reply != null) {
            finish(w, o.reply, DELIVER_NOW);
        } else if (o == Outcome.STOPPED || w.stopWith != null) {
            cancel(o.watches);
            finish(w, w.stopWith, DELIVER_NOW);
        } else {
            arm(w, o.watches);
        }
    }

    /** Ends a wait with {@code reply} unless a retry is running, which then ends it. */
    synchronized boolean stop(Waiter w, Reply reply) {
        if (w.done || w.stopWith != null) {
            return false;
        }
        w.stopWith = reply;
        if (w.retry == null) {
            finish(w, reply, DELIVER_NOW);
        }
        return true;
    }

    /** Takes a waiter out of line for good; its reply goes out once {@code deliverAfter} completes. Under the monitor. */
    private void finish(Waiter w, Reply reply, CompletableFuture<Void> deliverAfter) {
        if (w.done) {
            return;
        }
        w.done = true;
        for (WaitKey k : w.keys) {
            KeyQueue q = queues.get(k);
            if (q != null) {
                q.waiters.remove(w.arrival);
                dropIfIdle(q);
            }
        }
        if (w.blocked) {
            stats.blockedClients.decrementAndGet();
        }
        if (w.timer != null) {
            w.timer.cancel(false);
        }
        w.session.unblocked(w);
        // Completed off the monitor: the reply's writer must not run under it.
        deliverAfter.whenComplete((v, e) -> {
            try {
                scheduler.execute(() -> w.result.complete(reply));
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                w.result.complete(reply);
            }
        });
    }

    private void dropIfIdle(KeyQueue q) {
        if (q.waiters.isEmpty() && !q.passing) {
            if (q.watch != null) {
                q.watch.cancel(false);
                q.watch = null;
            }
            queues.remove(q.key, q);
        }
    }

    private static void cancel(List<CompletableFuture<Void>> watches) {
        if (watches != null) {
            watches.forEach(f -> f.cancel(false));
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** Stops the timers; the connections' closing ends the waits. */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** Thrown inside a retry's transaction to drop its writes when its client no longer waits. */
    private static final class Abandoned extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Abandoned() {
            super(null, null, false, false);
        }
    }
}
