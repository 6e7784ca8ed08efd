package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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

    /** Runs {@code acquire()} of {@code m} on another thread. */
    CompletableFuture<MutexGrant> acquireAsync(DistributedMutex m) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return m.acquire(Duration.ofSeconds(30));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, threads);
    }

    /** Waits (by polling the test's view, not the mutex) until the queue is {@code names}. */
    void awaitQueue(DistributedMutex any, List<String> names) {
        awaitTrue(() -> any.queue().equals(names), "queue " + names + ", is " + any.queue());
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
