package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static io.strata.layers.mutex.MutexTestSupport.LOCK;
import static io.strata.layers.mutex.MutexTestSupport.MANUAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The counting semaphore: permits, FIFO hand-off of a released permit, timeouts, the janitor, and a history check under faults. */
class DistributedSemaphoreTest {
    private final MutexTestSupport t = new MutexTestSupport(Strata.inMemory());

    @AfterEach
    void close() {
        t.close();
    }

    private DistributedSemaphore client(Database db, String name, int permits) {
        return new DistributedSemaphore(db, LOCK, name, permits, t.scheduler, MANUAL);
    }

    @Test
    void twoPermitsTwoHoldersThenTheQueueInFifoOrder() throws Exception {
        DistributedSemaphore a = client(t.db, "a", 2);
        DistributedSemaphore b = client(t.db, "b", 2);
        DistributedSemaphore c = client(t.db, "c", 2);
        DistributedSemaphore d = client(t.db, "d", 2);
        assertThat(a.acquire().token()).isEqualTo(1);
        assertThat(b.acquire().token()).isEqualTo(2);
        CompletableFuture<MutexGrant> cGrant = t.acquireQueued(c, "c");
        CompletableFuture<MutexGrant> dGrant = t.acquireQueued(d, "c", "d");

        b.release();
        assertThat(a.holders()).as("handed on in release's transaction")
                .containsExactly(new MutexOwner("a", 1), new MutexOwner("c", 3));
        assertThat(cGrant.get().token()).isEqualTo(3);
        assertThat(dGrant).isNotDone();
        a.release();
        assertThat(dGrant.get().token()).isEqualTo(4);
        assertThat(a.queue()).isEmpty();
        c.release();
        d.release();
        assertThat(a.holders()).isEmpty();
    }

    @Test
    void timeoutLeavesTheQueue() throws Exception {
        DistributedSemaphore a = client(t.db, "a", 1);
        DistributedSemaphore b = client(t.db, "b", 1);
        a.acquire();
        assertThatThrownBy(() -> b.acquire(Duration.ofMillis(50))).isInstanceOf(TimeoutException.class);
        assertThat(a.queue()).isEmpty();
        assertThat(a.holders()).containsExactly(new MutexOwner("a", 1));
    }

    @Test
    void theJanitorTakesTheStaleHoldersPermitOnly() throws Exception {
        ManualClock clock = new ManualClock();
        SemaphoreJanitor janitor = new SemaphoreJanitor(t.db, LOCK, Duration.ofSeconds(10), clock);
        DistributedSemaphore a = client(t.db, "a", 2);
        DistributedSemaphore b = client(t.db, "b", 2);
        DistributedSemaphore c = client(t.db, "c", 2);
        a.acquire();
        b.acquire();
        CompletableFuture<MutexGrant> cGrant = t.acquireQueued(c, "c");

        assertThat(janitor.check()).isEmpty();
        clock.advance(Duration.ofSeconds(5));
        assertThat(b.heartbeat().beat().join()).isTrue(); // b is alive, a is not
        assertThat(janitor.check()).isEmpty();
        clock.advance(Duration.ofSeconds(5));
        assertThat(janitor.check()).containsExactly("a");
        assertThat(cGrant.get().token()).isEqualTo(3);
        assertThat(a.isHeldByMe()).isFalse();
        assertThat(a.heartbeat().beat().join()).as("a's late beat").isFalse();
        assertThat(b.isHeldByMe()).isTrue();
        assertThat(a.holders()).extracting(MutexOwner::name).containsExactly("b", "c");
    }

    /**
     * The holder key read by {@code holds} fences a write in the same transaction against the
     * client's own permit only: another holder's release does not abort it, but a release and
     * a new grant to the same client do.
     */
    @Test
    void holdsFencesAWriteAgainstTheClientsOwnPermit() throws Exception {
        DistributedSemaphore a = client(t.db, "a", 2);
        DistributedSemaphore b = client(t.db, "b", 2);
        long token = a.acquire().token();
        b.acquire();
        byte[] data = "data".getBytes();

        Transaction kept = t.db.createTransaction();
        assertThat(a.holds(kept, token).join()).isTrue();
        kept.set(data, "first".getBytes());
        b.release();
        kept.commit().join();
        kept.close();

        Transaction fenced = t.db.createTransaction();
        assertThat(a.holds(fenced, token).join()).isTrue();
        fenced.set(data, "second".getBytes());
        a.release();
        long again = a.acquire().token();
        MutexTestSupport.assertConflicts(fenced);

        assertThat(holds(a, token)).as("the old grant").isFalse();
        assertThat(holds(a, again)).isTrue();
        assertThat(holds(b, again)).as("another client's token").isFalse();
        byte[] written = t.db.run(tr -> tr.get(data).join());
        assertThat(written).isEqualTo("first".getBytes());
    }

    private boolean holds(DistributedSemaphore s, long token) {
        return t.db.run(tr -> s.holds(tr, token).join());
    }

    /**
     * 6 clients, 2 permits, 200 rounds each under seeded commit faults: never more than 2
     * inside, every grant its own token, queued grants in queue order, nothing left at the end.
     */
    @Test
    void neverMoreHoldersThanPermitsUnderCommitFaults() throws Exception {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println("DistributedSemaphoreTest.neverMoreHoldersThanPermitsUnderCommitFaults seed=" + seed);
        FaultPolicy faults = FaultPolicy.seeded(seed).notCommitted(0.05).unknownResultCommitted(0.03)
                .unknownResultNotCommitted(0.02).transactionTooOld(0.01).build();
        int clients = 6;
        int rounds = 200;
        int permits = 2;
        ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            List<Future<List<MutexGrant>>> futures = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                DistributedSemaphore s = new DistributedSemaphore(db, LOCK, "client-" + c, permits, beats, Duration.ofMillis(2));
                futures.add(pool.submit(() -> {
                    List<MutexGrant> mine = new ArrayList<>();
                    for (int i = 0; i < rounds; i++) {
                        MutexGrant g = s.acquire(Duration.ofSeconds(20));
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.yield();
                        inside.decrementAndGet();
                        s.release();
                        mine.add(g);
                    }
                    return mine;
                }));
            }
            List<MutexGrant> grants = new ArrayList<>();
            for (Future<List<MutexGrant>> f : futures) {
                grants.addAll(f.get(120, TimeUnit.SECONDS));
            }
            assertThat(most.get()).isLessThanOrEqualTo(permits);
            Set<Long> tokens = new HashSet<>();
            grants.forEach(g -> assertThat(tokens.add(g.token())).as("token %d twice", g.token()).isTrue());
            List<MutexGrant> queued = grants.stream().filter(MutexGrant::wasQueued)
                    .sorted(Comparator.comparingLong(MutexGrant::token)).toList();
            for (int i = 1; i < queued.size(); i++) {
                assertThat(queued.get(i).queuedAt()).isGreaterThan(queued.get(i - 1).queuedAt());
            }
            System.out.println("  " + grants.size() + " grants, " + queued.size() + " from the queue, at most "
                    + most.get() + " inside");
            DistributedSemaphore probe = new DistributedSemaphore(db, LOCK, "probe", permits, beats, MANUAL);
            assertThat(probe.holders()).isEmpty();
            assertThat(probe.queue()).isEmpty();
        } finally {
            pool.shutdownNow();
            beats.shutdownNow();
        }
    }
}
