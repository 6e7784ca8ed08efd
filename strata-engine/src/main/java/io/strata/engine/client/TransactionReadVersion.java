package io.strata.engine.client;

import io.strata.engine.commit.OpenReadVersions;

import com.apple.foundationdb.FDBException;
import io.strata.engine.Engine;
import io.strata.engine.commit.OpenReadVersions;
import io.strata.engine.error.FdbError;
import io.strata.engine.version.VersionClock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A transaction's read version, and how a read of the store is run at it: waiting for the
 * version, the MVCC window checks before and after, the read latency, and the bookkeeping of
 * a read in flight — its place among the transaction's pending futures (which a reset fails)
 * and its ticket in {@link OutstandingReads} (which a commit waits for, and fails by).
 *
 * <h2>What it owns</h2>
 * No state: the read version ({@code readVersion}, {@code readVersionFuture}), the pending
 * futures, {@code reading} and the write map handed to a waiting read are
 * {@link EngineTransaction}'s. This class owns the order of events for a read: a read whose
 * version is known and which pays no latency runs at once under the monitor; any other read
 * keeps the write map as it was issued ({@code writesShared}), waits, runs under the monitor
 * unless a reset came first, and completes on the executor after its latency.
 * What the read computes is the caller's ({@link TransactionReads}, {@link TransactionMappedReads}).
 *
 * <h2>Concurrency</h2>
 * Everything here reads and writes the transaction's fields under its monitor; a read's
 * future is completed outside it, on the transaction's executor, and the continuation
 * {@link OutstandingReads#finish} hands back (a waiting commit) runs outside it too. The read
 * version's own timer task takes the monitor to publish the version.
 *
 * <h2>Why separate</h2>
 * Every kind of read goes through it, and each kind decides something different about what
 * it reads; keeping the waiting and the window apart from the answers keeps both short. A
 * point read's immediate path uses {@link #readVersionFuture}, {@link #checkReadVersion},
 * {@link #checkStillReadable} and {@link #failedRead} directly, without
 * {@link #readAtVersion}'s lambda or boxed version: static calls, inlined like the private
 * methods they were.
 */
final class TransactionReadVersion {
    private TransactionReadVersion() {
    }

    /** {@code getReadVersion}, before it is handed out. */
    static CompletableFuture<Long> readVersionNow(EngineTransaction tx) {
        synchronized (tx) {
            tx.checkOpen();
            // RYW getReadVersion checks the reset but not checkUsedDuringCommit: the read version
            // stays available during and after commit.
            FDBException e = tx.reset != null ? tx.reset : tx.deferred;
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            return readVersionFuture(tx);
        }
    }

    /**
     * The read version's future, taken now if this is the first time: at once without a read
     * version latency, else after it (a commit waits for it, as {@code tryCommit} for its read
     * version). Called with the monitor held.
     */
    static CompletableFuture<Long> readVersionFuture(EngineTransaction tx) {
        if (tx.readVersionFuture == null) {
            Engine engine = tx.engine;
            engine.workload().transactionStarted();
            OpenReadVersions open = engine.pipeline().openReadVersions();
            if (open != null) {
                tx.readHold = open.hold(); // before the version is taken (see OpenReadVersions)
            }
            long delay = engine.latency().readVersionMicros();
            if (delay == 0) {
                tx.readVersion = engine.pipeline().visibleVersion();
                tx.readVersionFuture = CompletableFuture.completedFuture(tx.readVersion);
            } else {
                CompletableFuture<Long> f = new CompletableFuture<>();
                tx.readVersionFuture = f;
                tx.pending.add(f);
                long ticket = tx.reading.start(); // a commit waits for it, as tryCommit for its read version
                engine.timer().schedule(() -> {
                    long v = engine.pipeline().visibleVersion();
                    Runnable next;
                    synchronized (tx) {
                        if (tx.readVersion < 0) {
                            tx.readVersion = v;
                        }
                        tx.pending.remove(f);
                        next = tx.reading.finish(ticket, null, false);
                    }
                    if (next != null) {
                        next.run();
                    }
                    tx.executor.execute(() -> f.complete(v));
                }, delay, TimeUnit.MICROSECONDS);
            }
        }
        return tx.readVersionFuture;
    }

    /** {@code setReadVersion}: a void call, its errors deferred. */
    static void setReadVersion(EngineTransaction tx, long version) {
        synchronized (tx) {
            tx.checkOpen();
            if (tx.readVersionFuture != null) {
                tx.defer(FdbError.READ_VERSION_ALREADY_SET.exception());
                return;
            }
            if (version <= 0) {
                tx.defer(FdbError.VERSION_INVALID.exception());
                return;
            }
            tx.readVersion = version;
            tx.readVersionFuture = CompletableFuture.completedFuture(version);
        }
    }

    /**
     * Runs a read at the read version: waits for the version if needed, checks that it is
     * neither too old nor in the future, runs {@code read}, and re-checks the window
     * afterwards (pruning may have raced the read). Applies read latency. {@code read} gets
     * the write map as it was when the read was issued, for read-your-writes.
     */
    static <T> CompletableFuture<T> readAtVersion(EngineTransaction tx, BiFunction<Long, WriteMap, T> read) {
        return readAtVersion(tx, read, ReadKind.READ);
    }

    /**
     * {@link #readAtVersion(EngineTransaction, BiFunction)} of a read of the given kind: what it
     * counts for in RYW (a watch's and a mapped range's reads differ from the others; see
     * {@link ReadKind}).
     */
    static <T> CompletableFuture<T> readAtVersion(EngineTransaction tx, BiFunction<Long, WriteMap, T> read, ReadKind kind) {
        CompletableFuture<T> result;
        WriteMap seen;
        long ticket;
        synchronized (tx) {
            tx.checkOpen();
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            if (kind.marksRead) {
                tx.readIssued = true;
            }
            CompletableFuture<Long> rv = readVersionFuture(tx);
            if (rv.isDone() && tx.engine.latency().readMicros() == 0) {
                WriteMap now = tx.writes;
                try {
                    return CompletableFuture.completedFuture(readAt(tx, rv.join(), version -> read.apply(version, now)));
                } catch (FDBException ex) {
                    return failedRead(tx, ex, kind);
                }
            }
            // The read may run after later writes: keep the map as it is now.
            seen = tx.writes;
            tx.writesShared = true;
            result = new CompletableFuture<>();
            tx.pending.add(result);
            ticket = tx.reading.start();
        }
        tx.readVersionFuture.whenComplete((version, err) -> {
            if (err != null) {
                finishPending(tx, result, null, EngineTransaction.unwrap(err), ticket, kind);
                return;
            }
            T value = null;
            FDBException failure = null;
            FDBException resetError;
            synchronized (tx) {
                // Only a reset stops a read already issued: a commit called meanwhile waits
                // for it (RYW commit waits for ryw->reading), and later void-call errors
                // concern later calls.
                resetError = tx.reset;
                if (resetError == null) {
                    try {
                        value = readAt(tx, version, v -> read.apply(v, seen));
                    } catch (FDBException ex) {
                        failure = ex;
                    }
                }
            }
            if (resetError != null) {
                finishPending(tx, result, null, resetError, ticket, kind);
                return;
            }
            // An answer or an error (transaction_too_old, future_version come from the storage
            // server), it arrives after the read's latency.
            T answer = value;
            FDBException error = failure;
            long delay = tx.engine.latency().readMicros();
            if (delay == 0) {
                finishPending(tx, result, answer, error, ticket, kind);
            } else {
                tx.engine.timer().schedule(() -> finishPending(tx, result, answer, error, ticket, kind), delay, TimeUnit.MICROSECONDS);
            }
        });
        return result;
    }

    /** A read that failed as it was issued: its error is kept for the commit (RYW {@code reading}). */
    static <T> CompletableFuture<T> failedRead(EngineTransaction tx, FDBException e, ReadKind kind) {
        if (kind.failsCommit) {
            tx.reading.failedAtOnce(e);
        }
        return CompletableFuture.failedFuture(e);
    }

    /**
     * Ends a read started by {@link #readAtVersion}: tells a waiting commit first (the read has
     * ended even if its future was cancelled or already failed by a reset), then completes the
     * future unless a reset already failed it.
     */
    private static <T> void finishPending(EngineTransaction tx, CompletableFuture<T> f, T value, Throwable error, long ticket,
                                          ReadKind kind) {
        Runnable next;
        boolean ours;
        synchronized (tx) {
            next = tx.reading.finish(ticket, error, kind.failsCommit);
            ours = tx.pending.remove(f);
        }
        if (next != null) {
            next.run();
        }
        if (!ours) {
            return; // already failed by cancel or timeout
        }
        tx.executor.execute(() -> {
            if (error != null) {
                f.completeExceptionally(error);
            } else {
                f.complete(value);
            }
        });
    }

    private static <T> T readAt(EngineTransaction tx, long version, Function<Long, T> read) {
        checkReadVersion(tx.engine, version);
        T value = read.apply(version);
        checkStillReadable(tx.engine, version);
        return value;
    }

    /** Before a read at {@code version}: neither older than the MVCC window nor newer than what is published. */
    static void checkReadVersion(Engine engine, long version) {
        if (version == 0) {
            // DatabaseContext::validateVersion: only initialize_new_database gives version 0,
            // and no read may use it.
            throw FdbError.CLIENT_INVALID_OPERATION.exception("cannot read at version 0 (initialize_new_database)");
        }
        long now = engine.clock().currentVersion();
        if (version < now - VersionClock.MAX_READ_TRANSACTION_LIFE_VERSIONS) {
            throw FdbError.TRANSACTION_TOO_OLD.exception();
        }
        if (version > engine.pipeline().visibleVersion()) {
            throw FdbError.FUTURE_VERSION.exception();
        }
    }

    /** After a read at {@code version}: pruning may have raced it, and then what it saw is not to be trusted. */
    static void checkStillReadable(Engine engine, long version) {
        if (version < engine.store().oldestReadableVersion()) {
            throw FdbError.TRANSACTION_TOO_OLD.exception();
        }
    }
}
