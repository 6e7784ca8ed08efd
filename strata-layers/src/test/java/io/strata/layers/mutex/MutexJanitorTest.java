package io.strata.layers.mutex;

import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.strata.layers.mutex.MutexTestSupport.LOCK;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Owner failure: an owner that stops heartbeating loses the lock once its heartbeat has been
 * unchanged for the configured time on the janitor's clock, and a paused owner that wakes up
 * has its stale token refused. The janitor's clock is manual except in the one test that runs
 * the whole thing in real time.
 */
class MutexJanitorTest {
    private static final Duration STALE = Duration.ofSeconds(10);

    private final MutexTestSupport t = new MutexTestSupport(Strata.inMemory());
    private final ManualClock clock = new ManualClock();
    private final MutexJanitor janitor = new MutexJanitor(t.db, LOCK, STALE, clock);

    @AfterEach
    void close() {
        janitor.close();
        t.close();
    }

    @Test
    void handsOnOnlyOnceTheHeartbeatWasUnchangedForTheWholeTimeout() throws Exception {
        DistributedMutex a = t.holding("a");
        DistributedMutex b = t.client("b");
        CompletableFuture<MutexGrant> bGrant = t.acquireQueued(b, "b");

        assertThat(janitor.check()).isNull(); // first sight: the timer starts
        clock.advance(STALE.minusNanos(1));
        assertThat(janitor.check()).isNull();
        assertThat(a.owner()).contains(new MutexOwner("a", 1));

        clock.advance(Duration.ofNanos(1));
        assertThat(janitor.check()).isEqualTo("a");
        MutexGrant bg = bGrant.get();
        assertThat(bg.token()).isEqualTo(2);
        assertThat(a.owner()).contains(new MutexOwner("b", 2));
        assertThat(a.isHeldByMe()).isFalse();
        assertThat(b.isHeldByMe()).isTrue();
    }

    @Test
    void aHeartbeatRestartsTheTimer() throws Exception {
        DistributedMutex a = t.holding("a");
        assertThat(janitor.check()).isNull();
        clock.advance(STALE.minusSeconds(1));
        assertThat(a.heartbeat().beat().join()).isTrue();
        assertThat(janitor.check()).isNull(); // a new beat value: seen now
        clock.advance(STALE.minusSeconds(1));
        assertThat(janitor.check()).isNull();
        assertThat(a.isHeldByMe()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(janitor.check()).isEqualTo("a");
        assertThat(a.owner()).as("nobody waiting: the lock is freed").isEmpty();
        assertThat(t.client("b").tryAcquire().orElseThrow().token()).as("tokens go on increasing").isEqualTo(2);
    }

    @Test
    void aStaleObservationIsNotActedOnWhenTheOwnerChangedMeanwhile() throws Exception {
        DistributedMutex a = t.holding("a");
        DistributedMutex b = t.client("b");
        assertThat(janitor.check()).isNull();
        a.release();
        b.acquire();
        clock.advance(STALE);
        assertThat(janitor.check()).as("b is a new owner: its timer starts now").isNull();
        assertThat(b.isHeldByMe()).isTrue();
    }

    @Test
    void theLostOwnersHeartbeatStopsAndCannotResurrectTheLock() throws Exception {
        DistributedMutex a = t.holding("a");
        DistributedMutex b = t.client("b");
        CompletableFuture<MutexGrant> bGrant = t.acquireQueued(b, "b");
        janitor.check();
        clock.advance(STALE);
        assertThat(janitor.check()).isEqualTo("a");
        bGrant.get();

        Heartbeat aBeat = a.heartbeat();
        assertThat(aBeat.beat().join()).isFalse();
        assertThat(aBeat.beat().join()).as("stopped").isFalse();
        a.release(); // a no-op: a's grant is gone
        assertThat(a.owner()).contains(new MutexOwner("b", 2));
    }

    /**
     * Real time end to end: a's heartbeats are frozen (its scheduler is blocked, as in a long
     * GC pause), a janitor checks every 20 ms with a 300 ms timeout, and b waits. b gets the
     * lock; a wakes up, writes with its old token and is refused; a's heartbeat, once it runs,
     * finds the lock gone and changes nothing. The only time bound is generous: b's acquire
     * gives up after 20 s.
     */
    @Test
    void aPausedOwnerLosesTheLockAndItsStaleTokenIsRefused() throws Exception {
        ScheduledExecutorService aScheduler = Executors.newSingleThreadScheduledExecutor();
        ScheduledExecutorService janitorThread = Executors.newSingleThreadScheduledExecutor();
        try (MutexJanitor realJanitor = new MutexJanitor(t.db, LOCK, Duration.ofMillis(300), System::nanoTime)) {
            DistributedMutex a = new DistributedMutex(t.db, LOCK, "a", aScheduler, Duration.ofMillis(50));
            DistributedMutex b = new DistributedMutex(t.db, LOCK, "b", t.scheduler, Duration.ofMillis(50));
            FencedResource resource = new FencedResource();
            long aToken = a.acquire().token();
            assertThat(resource.write(aToken)).isTrue();

            CountDownLatch pause = new CountDownLatch(1);
            aScheduler.execute(() -> {
                try {
                    pause.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            realJanitor.start(janitorThread, Duration.ofMillis(20));

            long bToken = b.acquire(Duration.ofSeconds(20)).token();
            // Stop the janitor before looking: on a loaded machine b's own heartbeat could be
            // late enough for it to take the lock from b too, which is not what this test is about.
            realJanitor.close();
            janitorThread.shutdown();
            assertThat(janitorThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(bToken).isGreaterThan(aToken);
            assertThat(resource.write(bToken)).isTrue();

            pause.countDown(); // a wakes up
            assertThat(resource.write(aToken)).as("a's stale write").isFalse();
            assertThat(a.isHeldByMe()).isFalse();
            MutexTestSupport.awaitTrue(() -> a.heartbeat() == null || a.heartbeat().beat().join() == Boolean.FALSE,
                    "a's heartbeat to notice");
            assertThat(a.owner()).contains(new MutexOwner("b", bToken));
            assertThat(b.isHeldByMe()).isTrue();
            assertThat(resource.accepted()).containsExactly(aToken, bToken);
        } finally {
            aScheduler.shutdownNow();
            janitorThread.shutdownNow();
            aScheduler.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
