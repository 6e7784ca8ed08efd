package io.strata.engine;

import io.strata.engine.cluster.ProcessInfo;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.cluster.Workload;
import io.strata.engine.commit.BatchLog;
import io.strata.engine.commit.CommitPipeline;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;

import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
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

    private final VersionedStore store;
    private final WatchRegistry watches = new WatchRegistry();
    private final VersionClock clock;
    private final CommitPipeline pipeline;
    private final ScheduledExecutorService timer;
    private final ForkJoinPool pool;
    private final FaultPolicy faults;
    private final LatencyModel latency;
    private final ProcessInfo process = new ProcessInfo();
    private final Workload workload = new Workload();
    private final ShardMap shards;
    private final boolean durable;

    private final AutoCloseable resources;
    /** Background work over the engine (the checkpointer): stopped before the pipeline. */
    private volatile AutoCloseable background;

    /** An engine held in memory only. */
    public Engine(FaultPolicy faults, LatencyModel latency, LongSupplier nanoTime) {
        this(faults, latency, nanoTime, VersionedStore.packed("strata-store-catch-up"), 0, null, null);
    }

    /**
     * An engine over recovered state.
     *
     * @param store       the data, as recovered
     * @param baseVersion every new version is greater than this
     * @param log         where batches are made durable, or null
     * @param resources   closed last when the engine closes (the directory lock), or null
     */
    public Engine(FaultPolicy faults, LatencyModel latency, LongSupplier nanoTime, VersionedStore store, long baseVersion,
                  BatchLog log, AutoCloseable resources) {
        this.faults = faults;
        this.latency = latency;
        this.store = store;
        this.resources = resources;
        this.durable = log != null;
        this.shards = new ShardMap(store, process.storageIdHigh(), process.storageIdLow());
        int id = INSTANCES.incrementAndGet();
        this.clock = new VersionClock(nanoTime, baseVersion);
        this.pool = newPool(id);
        this.pipeline = new CommitPipeline(store, clock, watches, pool, log, "strata-sequencer-" + id);
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

    /**
     * The engine's worker pool: completes commit batches, and is the default executor of
     * transactions. A {@link ForkJoinPool} in FIFO mode: busy workers take the next task
     * without parking, which a cached pool's hand-off cannot do, and a callback blocked in
     * {@code CompletableFuture.join} is a managed block that the pool compensates for.
     */
    private static ForkJoinPool newPool(int id) {
        AtomicInteger n = new AtomicInteger();
        ForkJoinPool.ForkJoinWorkerThreadFactory factory = p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("strata-worker-" + id + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        // Twice the cores: callbacks may block briefly; the pool grows further for managed blocks.
        return new ForkJoinPool(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), factory, null, true);
    }

    /** The default executor of transactions and the completer of commit batches. */
    public ForkJoinPool pool() {
        return pool;
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

    /** The identity of the engine's one process, as status and the special keys report it. */
    public ProcessInfo process() {
        return process;
    }

    /** Transactions started and reads served, for status. */
    public Workload workload() {
        return workload;
    }

    /** The shard map served as {@code \xff/keyServers/}. */
    public ShardMap shards() {
        return shards;
    }

    /** Whether commits are logged before they are acknowledged (a database opened on a directory). */
    public boolean durable() {
        return durable;
    }

    /** Registers background work that uses the engine; it is closed first when the engine closes. */
    public void runAlongside(AutoCloseable work) {
        this.background = work;
    }

    /**
     * Background work with a last step once the engine has stopped committing and, on a disk
     * store, the window is on disk (the log trimmer deletes the log the disk store now has).
     */
    public interface FinalStep extends AutoCloseable {
        void afterWindowWritten() throws java.io.IOException;
    }

    /**
     * How long a clean close waits for the disk store's compactions after the window is on
     * disk and the log trimmed: long enough for those of a few GiB written at full speed
     * (docs/benchmarks.md, section 13); past it the close goes on, and so do they after the
     * next open. Nothing is at stake meanwhile: everything is durable already.
     */
    static final long CLOSE_SETTLE_MILLIS = 30_000;

    /**
     * On a disk store, writes the window to disk so a clean restart replays no log (a failure
     * only leaves the log to replay), lets the background work finish, then lets the disk
     * store settle (its compactions finish) so the next open's first reads do not share the
     * cores with them.
     */
    private void writeWindowToDisk(AutoCloseable work) {
        if (!store.onDisk()) {
            return;
        }
        try {
            if (store.writeWindowToDisk(60_000)) {
                if (work instanceof FinalStep last) {
                    last.afterWindowWritten();
                }
                store.settleDisk(CLOSE_SETTLE_MILLIS);
            }
        } catch (java.io.IOException | RuntimeException e) {
            System.getLogger(Engine.class.getName()).log(System.Logger.Level.WARNING,
                    "writing the window to the disk store at close failed; the next open replays it from the log", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        AutoCloseable work = background;
        if (work != null) {
            try {
                work.close();
            } catch (Exception e) {
                throw new IllegalStateException("stopping the engine's background work failed", e);
            }
        }
        try {
            pipeline.close();
            writeWindowToDisk(work);
        } finally {
            timer.shutdownNow();
            pool.shutdown();
            store.close();
            if (resources != null) {
                try {
                    resources.close();
                } catch (Exception e) {
                    throw new IllegalStateException("releasing the database's resources failed", e);
                }
            }
        }
    }
}
