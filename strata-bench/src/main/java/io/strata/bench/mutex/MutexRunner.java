package io.strata.bench.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.bench.run.ClosedLoop;
import io.strata.layers.mutex.DistributedMutex;
import io.strata.layers.mutex.MutexGrant;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One cell of {@code strata bench mutex}: {@code contenders} threads, each a client with its
 * own name, looping acquire, a tiny critical section (one increment of a shared counter),
 * release, on a fresh in-memory engine, through {@link ClosedLoop}.
 *
 * <p>Hand-off is matched by fencing token: a release of the grant with token {@code t} that
 * handed the lock on made the next owner's token {@code t + 1}. Each client notes, by token,
 * {@link System#nanoTime()} when it called release and when its acquire returned (one JVM,
 * one clock), and the runner pairs them after the run. Only grants that came from the queue
 * count (a direct acquisition of a free lock is no hand-off).
 *
 * <p>Why from the call of release rather than from its return: the engine fires watches
 * before it acknowledges the commits of the same batch, so the next owner usually runs
 * before the releaser's commit returns, and "release returned to acquire returned" is
 * negative for most hand-offs (a median of 0 says nothing). From the call, the figure is the
 * whole hand-off as an application sees it: the release transaction, the watch, and the new
 * owner's step that finds the lock its own. The figure from the return of release (negative
 * ones counted as 0) is kept too, for the console.
 */
public final class MutexRunner {
    private MutexRunner() {}

    public static MutexResult run(int contenders, Duration warmup, Duration measure) {
        try (Database db = Strata.inMemory()) {
            Subspace lock = new Subspace(Tuple.from("bench-mutex"));
            Map<Long, long[]> released = new ConcurrentHashMap<>();
            Map<Long, Long> queuedGrants = new ConcurrentHashMap<>();
            AtomicLong counter = new AtomicLong();
            List<ClosedLoop.Operation> clients = new ArrayList<>();
            for (int c = 0; c < contenders; c++) {
                DistributedMutex m = new DistributedMutex(db, lock, "contender-" + c);
                clients.add(() -> {
                    MutexGrant g = m.acquire();
                    long acquired = System.nanoTime();
                    counter.incrementAndGet(); // the critical section
                    long releaseCalled = System.nanoTime();
                    m.release();
                    long releaseReturned = System.nanoTime();
                    if (g.wasQueued()) {
                        queuedGrants.put(g.token(), acquired);
                    }
                    released.put(g.token(), new long[] {releaseCalled, releaseReturned});
                    return 0;
                });
            }
            long start = System.nanoTime();
            ClosedLoop.Result r = ClosedLoop.run(clients, warmup, measure, "mutex-contender");
            long measureStart = start + warmup.toNanos();
            Histogram handoff = new Histogram(3);
            Histogram afterCommit = new Histogram(3);
            for (Map.Entry<Long, Long> e : queuedGrants.entrySet()) {
                long[] previousRelease = released.get(e.getKey() - 1);
                if (previousRelease != null && e.getValue() >= measureStart) {
                    handoff.recordValue(Math.max(0, e.getValue() - previousRelease[0]));
                    afterCommit.recordValue(Math.max(0, e.getValue() - previousRelease[1]));
                }
            }
            return new MutexResult(contenders, r.seconds(), r.operations(), r.errors(), handoff, afterCommit, r.firstError());
        }
    }
}
