package io.strata.engine;

import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * One running engine: the versioned store, the version clock, the commit pipeline, the
 * watches, and the timer that schedules timeouts and injected latency. The client side
 * ({@code io.strata.engine.client}) reaches all server-side state through this class.
 */
public final class Engine implements AutoCloseable {
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final VersionedStore store = new VersionedStore();
    private final WatchRegistry watches = new WatchRegistry();
    private final VersionClock clock;
    private final CommitPipeline pipeline;
    private final ScheduledExecutorService timer;
    private final FaultPolicy faults;
    private final LatencyModel latency;

    public Engine(FaultPolicy faults, LatencyModel latency, LongSupplier nanoTime) {
        this.faults = faults;
        this.latency = latency;
        int id = INSTANCES.incrementAndGet();
        this.clock = new VersionClock(nanoTime, 0);
        this.pipeline = new CommitPipeline(store, clock, watches, "strata-sequencer-" + id);
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = Executors.defaultThreadFactory().newThread(r);
            th.setName("strata-timer-" + id);
            th.setDaemon(true);
            return th;
        });
        // Timeouts are usually cancelled long before they fire: do not let them pile up.
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
    }

    public VersionedStore store() {
        return store;
    }

    public VersionClock clock() {
        return clock;
    }

    public CommitPipeline pipeline() {
        return pipeline;
    }

    public WatchRegistry watches() {
        return watches;
    }

    public ScheduledExecutorService timer() {
        return timer;
    }

    public FaultPolicy faults() {
        return faults;
    }

    public LatencyModel latency() {
        return latency;
    }

    @Override
    public void close() {
        pipeline.close();
        timer.shutdownNow();
    }
}
