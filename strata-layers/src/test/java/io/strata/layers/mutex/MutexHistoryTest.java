package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.tuple.Versionstamp;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.strata.layers.mutex.MutexTestSupport.LOCK;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * History checks under concurrency and seeded commit faults (1020, 1021 committed and not,
 * 1007). Each client is a thread with its own name that loops acquire, enter the guarded
 * resource, write with its token, leave, release. Each test prints its seed; rerun with
 * {@code -Dstrata.seed=<seed>} to replay the fault draws (interleavings still vary).
 */
class MutexHistoryTest {
    private static long seed(String test) {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(MutexHistoryTest.class.getSimpleName() + "." + test + " seed=" + seed);
        return seed;
    }

    private static FaultPolicy faults(long seed) {
        return FaultPolicy.seeded(seed).notCommitted(0.05).unknownResultCommitted(0.03)
                .unknownResultNotCommitted(0.02).transactionTooOld(0.01).build();
    }

    private record Grant(String name, long token, Versionstamp queuedAt) {}

    /**
     * 8 clients x 300 rounds (2,400 grants), heartbeats every 2 ms so they race releases and
     * hand-offs all the time. The resource never sees two clients inside at once, accepts every
     * write (tokens strictly increase in grant order), grants from the queue come in queue
     * (versionstamp) order, and at the end nobody is queued or holds the lock.
     */
    @Test
    void mutualExclusionIncreasingTokensAndFifoUnderCommitFaults() throws Exception {
        long seed = seed("mutualExclusionIncreasingTokensAndFifoUnderCommitFaults");
        int clients = 8;
        int rounds = 300;
        ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
        try (Database db = Strata.builder().faults(faults(seed)).inMemory()) {
            FencedResource resource = new FencedResource();
            List<Callable<List<Grant>>> workers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                DistributedMutex m = new DistributedMutex(db, LOCK, "client-" + c, heartbeats, Duration.ofMillis(2));
                workers.add(() -> {
                    List<Grant> mine = new ArrayList<>();
                    for (int i = 0; i < rounds; i++) {
                        MutexGrant g = m.acquire(Duration.ofSeconds(20));
                        resource.enter(m.name(), g.token());
                        boolean accepted = resource.write(g.token());
                        Thread.yield(); // widen the window in which an overlap would show
                        resource.exit(m.name(), g.token());
                        m.release();
                        if (!accepted) {
                            throw new AssertionError(m.name() + "'s write with token " + g.token() + " was refused");
                        }
                        mine.add(new Grant(m.name(), g.token(), g.queuedAt()));
                    }
                    return mine;
                });
            }
            List<Grant> grants = runAll(workers);

            assertThat(resource.violations()).isEmpty();
            List<Long> accepted = resource.accepted();
            assertThat(accepted).hasSize(clients * rounds);
            for (int i = 1; i < accepted.size(); i++) {
                assertThat(accepted.get(i)).as("token order at the resource").isGreaterThan(accepted.get(i - 1));
            }
            List<Grant> queued = grants.stream().filter(g -> g.queuedAt() != null)
                    .sorted(Comparator.comparingLong(Grant::token)).toList();
            for (int i = 1; i < queued.size(); i++) {
                assertThat(queued.get(i).queuedAt()).as("grant %s after %s", queued.get(i), queued.get(i - 1))
                        .isGreaterThan(queued.get(i - 1).queuedAt());
            }
            System.out.println("  " + grants.size() + " grants, " + queued.size() + " from the queue, last token "
                    + accepted.get(accepted.size() - 1));
            assertThat(queued.size()).as("contention happened").isGreaterThan(grants.size() / 4);
            assertNothingLeft(db);
        } finally {
            heartbeats.shutdownNow();
        }
    }

    /**
     * The janitor hands the lock on as soon as it sees an owner twice (a timeout of 1 ns) while
     * nobody heartbeats, so owners lose the lock mid-round all the time and overlap at the
     * resource; fencing must then refuse their late writes. Every grant still has its own token,
     * nobody is stranded in the queue (all rounds finish), and at the end the state is clean.
     */
    @Test
    void underAnAggressiveJanitorTokensStayUniqueAndNobodyIsStranded() throws Exception {
        long seed = seed("underAnAggressiveJanitorTokensStayUniqueAndNobodyIsStranded");
        int clients = 6;
        int rounds = 150;
        ScheduledExecutorService never = Executors.newSingleThreadScheduledExecutor();
        AtomicBoolean running = new AtomicBoolean(true);
        try (Database db = Strata.builder().faults(faults(seed)).inMemory()) {
            MutexJanitor janitor = new MutexJanitor(db, LOCK, Duration.ofNanos(1), System::nanoTime);
            Thread janitorThread = new Thread(() -> {
                while (running.get()) {
                    try {
                        janitor.check();
                    } catch (RuntimeException e) {
                        // a non-retryable fault on a check: the next one starts over
                    }
                }
            }, "test-janitor");
            janitorThread.start();
            FencedResource resource = new FencedResource();
            List<Callable<List<Grant>>> workers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                DistributedMutex m = new DistributedMutex(db, LOCK, "client-" + c, never, MutexTestSupport.MANUAL);
                workers.add(() -> {
                    List<Grant> mine = new ArrayList<>();
                    for (int i = 0; i < rounds; i++) {
                        MutexGrant g = m.acquire(Duration.ofSeconds(20));
                        Thread.yield();
                        resource.write(g.token());
                        m.release();
                        mine.add(new Grant(m.name(), g.token(), g.queuedAt()));
                    }
                    return mine;
                });
            }
            List<Grant> grants;
            try {
                grants = runAll(workers);
            } finally {
                running.set(false);
                janitorThread.join(10_000);
            }
            Set<Long> tokens = new HashSet<>();
            for (Grant g : grants) {
                assertThat(tokens.add(g.token())).as("token %d granted twice", g.token()).isTrue();
            }
            assertThat(grants).hasSize(clients * rounds);
            System.out.println("  " + grants.size() + " grants, " + resource.refused() + " stale writes refused");
            assertNothingLeft(db);
        } finally {
            never.shutdownNow();
        }
    }

    /** No waiter, no ticket, no owner: every client released or was handed past. */
    private static void assertNothingLeft(Database db) {
        DistributedMutex probe = new DistributedMutex(db, LOCK, "probe");
        assertThat(probe.queue()).isEmpty();
        List<?> tickets = db.read(tr -> tr.getRange(LOCK.get("ticket").range()).asList().join());
        assertThat(tickets).isEmpty();
        assertThat(probe.owner()).isEmpty();
    }

    /** Runs the workers from a common start and gathers their results. */
    private static <T> List<T> runAll(List<Callable<List<T>>> workers) throws Exception {
        CyclicBarrier start = new CyclicBarrier(workers.size());
        ExecutorService pool = Executors.newFixedThreadPool(workers.size());
        try {
            List<Future<List<T>>> futures = new ArrayList<>();
            for (Callable<List<T>> worker : workers) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return worker.call();
                }));
            }
            List<T> all = new ArrayList<>();
            for (Future<List<T>> f : futures) {
                all.addAll(f.get(120, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
