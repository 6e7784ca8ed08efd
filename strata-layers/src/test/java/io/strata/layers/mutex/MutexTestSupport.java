package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shared fixtures: a subspace, clients whose heartbeats only run by hand, waiting helpers. */
final class MutexTestSupport implements AutoCloseable {
    static final Subspace LOCK = new Subspace(Tuple.from("lock"));
    /** So long that heartbeats never run by themselves during a test; tests beat by hand. */
    static final Duration MANUAL = Duration.ofHours(1);

    final Database db;
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "test-heartbeats");
        t.setDaemon(true);
        return t;
    });
    final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-client");
        t.setDaemon(true);
        return t;
    });

    MutexTestSupport(Database db) {
        this.db = db;
    }

    /** A client whose heartbeats run only when the test calls {@code heartbeat().beat()}. */
    DistributedMutex client(String name) {
        return new DistributedMutex(db, LOCK, name, scheduler, MANUAL);
    }

    /** A {@link #client} that has acquired the lock (the first of a test gets token 1). */
    DistributedMutex holding(String name) throws InterruptedException {
        DistributedMutex m = client(name);
        m.acquire();
        return m;
    }

    /** Runs {@code acquire()} of {@code m} on another thread. */
    CompletableFuture<MutexGrant> acquireAsync(DistributedMutex m) {
        return onAnotherThread(() -> m.acquire(Duration.ofSeconds(30)));
    }

    /** Runs {@code acquire()} of {@code s} on another thread. */
    CompletableFuture<MutexGrant> acquireAsync(DistributedSemaphore s) {
        return onAnotherThread(() -> s.acquire(Duration.ofSeconds(30)));
    }

    /**
     * Runs {@code acquire()} of {@code m} on another thread and waits until it is queued: until
     * the queue is {@code queue}, {@code m}'s name last.
     */
    CompletableFuture<MutexGrant> acquireQueued(DistributedMutex m, String... queue) {
        CompletableFuture<MutexGrant> grant = acquireAsync(m);
        awaitQueue(m::queue, List.of(queue));
        return grant;
    }

    /** {@link #acquireQueued(DistributedMutex, String...)} for a semaphore's client. */
    CompletableFuture<MutexGrant> acquireQueued(DistributedSemaphore s, String... queue) {
        CompletableFuture<MutexGrant> grant = acquireAsync(s);
        awaitQueue(s::queue, List.of(queue));
        return grant;
    }

    private CompletableFuture<MutexGrant> onAnotherThread(Acquisition.Blocking acquire) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return acquire.acquire();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, threads);
    }

    /** Queues {@code name} by its enqueue step alone: no thread waits for the grant. */
    void enqueue(String name) {
        WaitQueue queue = new WaitQueue(LOCK);
        db.run(tr -> {
            queue.enqueue(tr, name);
            return null;
        });
    }

    /** Commits {@code tr}, which must fail with not_committed (1020), and closes it. */
    static void assertConflicts(Transaction tr) {
        assertThatThrownBy(() -> tr.commit().join()).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(FDBException.class)
                .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
        tr.close();
    }

    /** Waits (by polling the test's view, not the mutex) until the queue is {@code names}. */
    void awaitQueue(DistributedMutex any, List<String> names) {
        awaitQueue(any::queue, names);
    }

    private static void awaitQueue(Supplier<List<String>> queue, List<String> names) {
        awaitTrue(() -> queue.get().equals(names), "queue " + names + ", is " + queue.get());
    }

    static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
        scheduler.shutdownNow();
        db.close();
    }
}
