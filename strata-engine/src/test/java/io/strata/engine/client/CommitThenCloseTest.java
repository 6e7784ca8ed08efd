package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A transaction closed, cancelled, timed out or retried while its commit is in flight: its
 * future and what lands agree ({@link CommitFlight}). A commit still waiting for its reads or
 * on its way to the sequencer is withdrawn and fails with the reset's error; one the sequencer
 * has is reported as it decided.
 */
class CommitThenCloseTest {
    private Database db = Strata.inMemory();
    private final ExecutorService oneThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void close() throws InterruptedException {
        db.close();
        oneThread.shutdown();
        assertThat(oneThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    private void open(LatencyModel latency) {
        db.close();
        db = Strata.builder().latency(latency).inMemory();
    }

    /** What the store holds for {@code key} now, without a read (whose latency a test may have set). */
    private byte[] stored(String key) {
        return ((EngineDatabase) db).engine().store().latest(b(key));
    }

    /**
     * Returns once everything the engine scheduled before now has run: a commit made now, on the
     * same single-thread executor, is sent after any earlier read or submission on the timer
     * (one thread, in time order) and completes after their continuations on the executor.
     */
    private void drain() {
        Transaction later = db.createTransaction(oneThread);
        await(later.get(b("barrier")));
        later.set(b("barrier"), b("1"));
        await(later.commit());
        later.close();
    }

    // ---------------------------------------------------------------- the sequencer has it

    @Test
    void commitThenCloseAtOnceReportsTheCommitThatLanded() {
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion()); // FoundationDB's commit then leaves the client at once
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        await(commit);
        assertThat(stored("x")).isEqualTo(b("1"));
    }

    @Test
    void aWriteOnlyCommitStillQueuedIsDroppedByClose() throws InterruptedException {
        // FoundationDB's commit of a transaction without a read version first fetches one; a
        // transaction destroyed meanwhile never sends it. Here: still in the sequencer's queue.
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        engine().pipeline().execute(() -> {
            busy.countDown();
            awaitUninterruptibly(release);
        });
        busy.await();
        Transaction tr = db.createTransaction();
        tr.set(b("dropped"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        release.countDown();
        assertThat(errorOf(commit)).isEqualTo(1025);
        drain();
        assertThat(stored("dropped")).isNull();
    }

    @Test
    void aCommitWithAReadVersionStillQueuedIsReportedWhenClosed() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        engine().pipeline().execute(() -> {
            busy.countDown();
            awaitUninterruptibly(release);
        });
        busy.await();
        tr.set(b("sent"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        release.countDown();
        await(commit);
        assertThat(stored("sent")).isEqualTo(b("1"));
    }

    private io.strata.engine.Engine engine() {
        return ((EngineDatabase) db).engine();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean done = false;
        while (!done) {
            try {
                latch.await();
                done = true;
            } catch (InterruptedException ignored) {
                // the sequencer's task must not end early
            }
        }
    }

    @Test
    void commitThenCancelAtOnceReportsTheCommitThatLanded() {
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.cancel();
        await(commit);
        assertThat(tr.getCommittedVersion()).isPositive();
        assertThat(stored("x")).isEqualTo(b("1"));
        // The cancel still holds for what comes after.
        assertThat(errorOf(tr.getReadVersion())).isEqualTo(1025);
    }

    @Test
    void aConflictTheSequencerFoundIsReportedNotCancelled() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        tr.set(b("x"), b("1"));
        db.run(t -> {
            t.set(b("k"), b("theirs"));
            return null;
        });
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        assertThat(errorOf(commit)).isEqualTo(1020);
        assertThat(stored("x")).isNull();
    }

    @Test
    void closeOnceTheCommitIsAppliedReportsItCommitted() {
        // 400 ms of commit latency: applied after 200, answered after 400.
        open(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400)));
        Transaction tr = db.createTransaction();
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Fdb.WAIT_SECONDS);
        while (stored("x") == null) {
            if (System.nanoTime() > deadline) {
                fail("the commit was never applied");
            }
            LockSupport.parkNanos(1_000_000);
        }
        tr.close();
        await(commit);
    }

    @Test
    void theVersionstampAndWatchesFollowACommitThatLanded() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> watch = tr.watch(b("w"));
        tr.set(b("x"), b("1"));
        CompletableFuture<byte[]> stamp = tr.getVersionstamp();
        CompletableFuture<Void> commit = tr.commit();
        // Close once the commit has landed: closed earlier, a write-only commit may be withdrawn
        // instead (the tests below), and then there is no versionstamp to follow.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Fdb.WAIT_SECONDS);
        while (stored("x") == null) {
            if (System.nanoTime() > deadline) {
                fail("the commit was never applied");
            }
            LockSupport.parkNanos(1_000_000);
        }
        tr.close();
        await(commit);
        assertThat(await(stamp)).hasSize(10);
        db.run(t -> {
            t.set(b("w"), b("changed"));
            return null;
        });
        await(watch); // active, and fires
    }

    // ---------------------------------------------------------------- withdrawn

    @Test
    void closeWhileTheCommitWaitsForAReadWithdrawsIt() {
        open(LatencyModel.of(Duration.ZERO, Duration.ofMillis(200), Duration.ZERO));
        Transaction tr = db.createTransaction(oneThread);
        CompletableFuture<byte[]> read = tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        assertThat(errorOf(commit)).isEqualTo(1025);
        assertThat(errorOf(read)).isEqualTo(1025);
        drain(); // the read has ended since, and sent nothing
        assertThat(stored("x")).isNull();
    }

    @Test
    void closeWhileTheCommitIsOnItsWayWithdrawsIt() {
        open(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400)));
        Transaction tr = db.createTransaction();
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        tr.close();
        assertThat(errorOf(commit)).isEqualTo(1025);
        drain();
        assertThat(stored("x")).isNull();
    }

    @Test
    void onErrorWhileTheCommitWaitsForAReadWithdrawsIt() {
        open(LatencyModel.of(Duration.ZERO, Duration.ofMillis(200), Duration.ZERO));
        Transaction tr = db.createTransaction(oneThread);
        tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        Transaction retry = await(tr.onError(new FDBException("not_committed", 1020)));
        assertThat(errorOf(commit)).isEqualTo(1025);
        drain();
        assertThat(stored("x")).isNull();
        retry.close();
    }

    @Test
    void aTimeoutDuringTheCommitAgreesWithWhatLanded() {
        // The timeout (300 ms) falls between submission (200 ms) and the answer (400 ms), unless
        // this thread is slow; either way the future must say what happened.
        open(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400)));
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(300);
        tr.set(b("x"), b("1"));
        Throwable outcome = tr.commit().handle((v, e) -> e).join();
        drain();
        if (outcome == null) {
            assertThat(stored("x")).isEqualTo(b("1"));
        } else {
            assertThat(Fdb.code(outcome)).isEqualTo(1031);
            assertThat(stored("x")).isNull();
        }
    }

    // ---------------------------------------------------------------- under concurrency

    /**
     * Many commit-then-close pairs, closed at once, after a moment or from another thread,
     * some commits waiting for a read, all with commit latency: every future that succeeded
     * must have its write in the store, every one that failed (only with 1025) must not.
     */
    @Test
    void everyFutureAgreesWithTheData() throws Exception {
        long seed = System.nanoTime();
        System.out.println("CommitThenCloseTest.everyFutureAgreesWithTheData seed=" + seed);
        Random random = new Random(seed);
        open(LatencyModel.of(Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(2)));
        int pairs = 400;
        ExecutorService closers = Executors.newFixedThreadPool(2);
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        try {
            for (int i = 0; i < pairs; i++) {
                Transaction tr = db.createTransaction();
                if (random.nextBoolean()) {
                    tr.get(b("r" + i)); // the commit waits for it
                }
                tr.set(b(key(i)), b("v" + i));
                commits.add(tr.commit());
                int how = random.nextInt(3);
                long pause = random.nextInt(3_000_000);
                if (how == 0) {
                    tr.close();
                } else if (how == 1) {
                    LockSupport.parkNanos(pause);
                    tr.close();
                } else {
                    closers.execute(() -> {
                        LockSupport.parkNanos(pause);
                        tr.close();
                    });
                }
            }
        } finally {
            closers.shutdown();
            assertThat(closers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        int landed = 0;
        int withdrawn = 0;
        for (CompletableFuture<Void> c : commits) {
            c.handle((v, e) -> null).get(Fdb.WAIT_SECONDS, TimeUnit.SECONDS);
        }
        drain();
        for (int i = 0; i < pairs; i++) {
            Throwable e = commits.get(i).handle((v, t) -> t).join();
            if (e == null) {
                assertThat(stored(key(i))).as("committed %s", key(i)).isEqualTo(b("v" + i));
                landed++;
            } else {
                assertThat(Fdb.code(e)).as("failure of %s", key(i)).isEqualTo(1025);
                assertThat(stored(key(i))).as("withdrawn %s", key(i)).isNull();
                withdrawn++;
            }
        }
        System.out.println("landed " + landed + ", withdrawn " + withdrawn);
        assertThat(landed + withdrawn).isEqualTo(pairs);
    }

    private static String key(int i) {
        return String.format("x%04d", i);
    }
}
