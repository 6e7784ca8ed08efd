package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Versionstamp;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The waiting loop shared by {@link DistributedMutex} and {@link DistributedSemaphore}: run a
 * step transaction; if it granted, return; if it just queued, take the next step at once; else
 * sleep on the watch it created until it fires, then step again. On timeout or interrupt the
 * caller's {@code abandon} leaves the queue (or hands on a grant made meanwhile) in one
 * transaction before the exception is thrown.
 */
final class Acquisition {
    /** {@code too_many_watches}: the database's watch limit is reached. */
    private static final int TOO_MANY_WATCHES = 1032;

    private Acquisition() {}

    /** What a lock's client contributes to the loop besides its way out: its step. */
    interface Steps {
        /** One step in {@code tr}; {@code positionKnown}: the caller already knows its queue position. */
        Step step(Transaction tr, boolean positionKnown);
    }

    /**
     * One step: the lock is ours ({@code watch} and {@code stamp} null), we just queued
     * ({@code stamp}: our versionstamp), or we wait on {@code watch} ({@code found}: our queue
     * position, when we had to look it up).
     */
    record Step(long token, CompletableFuture<Void> watch, CompletableFuture<byte[]> stamp, Versionstamp found) {
        static Step owned(long token) {
            return new Step(token, null, null, null);
        }

        static Step enqueued(CompletableFuture<byte[]> stamp) {
            return new Step(0, null, stamp, null);
        }

        static Step waiting(CompletableFuture<Void> watch, Versionstamp found) {
            return new Step(0, watch, null, found);
        }

        /**
         * The end of a step that did not get the lock: queue {@code name} if it has no ticket
         * (read serializably, so a client never has two entries), else watch the ticket. The
         * ticket is read in the transaction that creates the watch, so a grant that clears it
         * after that read fires the watch: no lost wake-up.
         */
        static Step queueOrWait(Transaction tr, WaitQueue queue, String name, boolean positionKnown) {
            if (queue.ticket(tr, name) == null) {
                queue.enqueue(tr, name);
                return enqueued(tr.getVersionstamp());
            }
            // Already queued: by an earlier step, or by an attempt that reported 1021 but
            // committed (then we learn our position from the queue, once).
            Versionstamp found = positionKnown ? null : queue.position(tr, name);
            return waiting(tr.watch(queue.ticketKey(name)), found);
        }
    }

    /** A blocking acquisition, as {@link DistributedMutex#acquire(Duration)}. */
    interface Blocking {
        MutexGrant acquire() throws InterruptedException, TimeoutException;
    }

    /** Runs {@code acquire}, an acquisition without a time limit, which cannot time out. */
    static MutexGrant withoutTimeLimit(Blocking acquire) throws InterruptedException {
        try {
            return acquire.acquire();
        } catch (TimeoutException e) {
            throw new AssertionError("no time limit", e);
        }
    }

    /**
     * Runs {@code acquire} on {@code executor} behind a future whose {@code cancel} interrupts
     * the wait (so the client leaves the queue) and never leaks the lock: a grant that arrives
     * after the caller cancelled is released at once.
     */
    static CompletableFuture<MutexGrant> async(Blocking acquire, Runnable release, Executor executor) {
        CompletableFuture<MutexGrant> result = new CompletableFuture<>();
        executor.execute(() -> {
            if (result.isDone()) {
                return; // cancelled before it started
            }
            Thread worker = Thread.currentThread();
            Object lock = new Object();
            boolean[] waiting = {true}; // guarded by lock: interrupt the worker only while it waits for us
            result.whenComplete((v, e) -> {
                if (result.isCancelled()) {
                    synchronized (lock) {
                        if (waiting[0]) {
                            worker.interrupt();
                        }
                    }
                }
            });
            try {
                MutexGrant g = acquire.acquire();
                synchronized (lock) {
                    waiting[0] = false;
                }
                if (!result.complete(g)) {
                    release.run(); // the caller gave up just as the lock came: hand it on
                }
            } catch (Throwable e) {
                synchronized (lock) {
                    waiting[0] = false;
                }
                result.completeExceptionally(e);
            } finally {
                Thread.interrupted(); // a cancel's interrupt is ours; do not leak it to the executor's next task
            }
        });
        return result;
    }

    /**
     * Steps until granted; see {@link DistributedMutex#acquire(Duration)} for the contract.
     *
     * @param abandon leaves the queue, or hands on a grant made meanwhile, in one transaction
     */
    static MutexGrant await(Database db, Steps steps, Runnable abandon, String name, Duration timeout)
            throws InterruptedException, TimeoutException {
        long deadline = timeout == null ? 0 : System.nanoTime() + timeout.toNanos();
        Versionstamp queuedAt = null;
        while (true) {
            boolean positionKnown = queuedAt != null;
            Step step = LockTransactions.run(db, tr -> steps.step(tr, positionKnown));
            if (step.stamp != null) {
                // Just queued: settle at once (the lock may have been freed before our entry
                // committed), no waiting.
                queuedAt = Versionstamp.complete(step.stamp.join(), 0);
                continue;
            }
            if (step.found != null) {
                queuedAt = step.found;
            }
            if (step.watch == null) {
                return new MutexGrant(step.token, queuedAt);
            }
            try {
                if (timeout == null) {
                    step.watch.get();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new TimeoutException();
                    }
                    step.watch.get(left, TimeUnit.NANOSECONDS);
                }
            } catch (TimeoutException e) {
                step.watch.cancel(false);
                abandon.run();
                throw new TimeoutException(name + " did not get the lock within " + timeout);
            } catch (InterruptedException e) {
                step.watch.cancel(false);
                abandon.run();
                throw e;
            } catch (ExecutionException | CancellationException e) {
                // The watch failed: look again (db.run fails for good if the database is
                // closed). Not a poll: this happens only on errors. Out of watches (1032) would
                // fail again at once, so give up, leaving the queue.
                if (e.getCause() instanceof FDBException f && f.getCode() == TOO_MANY_WATCHES) {
                    abandon.run();
                    throw f;
                }
            }
        }
    }
}
