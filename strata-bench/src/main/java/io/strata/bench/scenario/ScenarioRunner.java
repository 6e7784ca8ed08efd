package io.strata.bench.scenario;

import io.strata.bench.data.Dataset;
import io.strata.bench.peer.KvPeer;
import io.strata.bench.peer.KvSession;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one cell: opens the engine empty, loads the data set, starts {@code clients} threads
 * that run the workload back to back (a closed loop: each client waits for its transaction
 * before starting the next), warms up, then measures for the given time.
 *
 * <p>Measurement: the runner flips a shared phase from warm-up to measuring and, after the
 * measured time, to stopping, noting {@link System#nanoTime()} at each flip. A client counts
 * an operation, and records its latency, when the operation started while measuring; the
 * rate is those operations over the interval between the two flips. Nothing is estimated:
 * every counted operation was executed and acknowledged.
 */
public final class ScenarioRunner {
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPING = 2;
    /** A transaction still running this long after the end is stuck, not slow. */
    private static final long JOIN_TIMEOUT_MILLIS = 60_000;

    private volatile int phase;

    private ScenarioRunner() {}

    public static RunResult run(String engine, Workload workload, int clients, Dataset data, Duration warmup, Duration measure) {
        return new ScenarioRunner().runCell(engine, workload, clients, data, warmup, measure);
    }

    private RunResult runCell(String engine, Workload workload, int clients, Dataset data, Duration warmup, Duration measure) {
        try (KvPeer peer = KvPeer.open(engine)) {
            peer.load(data);
            List<Client> all = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                all.add(new Client(peer.session(), workload, data, new SplittableRandom(1_000 + i)));
            }
            phase = WARMING;
            for (Client c : all) {
                c.thread.start();
            }
            RunThreads.sleep(warmup);
            long start = System.nanoTime();
            phase = MEASURING;
            RunThreads.sleep(measure);
            phase = STOPPING;
            long end = System.nanoTime();
            Histogram latency = new Histogram(3);
            long ops = 0;
            long retries = 0;
            long errors = 0;
            for (Client c : all) {
                RunThreads.join(c.thread, JOIN_TIMEOUT_MILLIS, "a client's transaction");
                c.session.close();
                latency.add(c.latency);
                ops += c.ops;
                retries += c.retries;
                errors += c.errors;
            }
            for (Client c : all) {
                if (c.firstError.get() != null) {
                    System.err.println("strata bench: " + engine + " " + workload.id() + ": " + c.firstError.get());
                    break;
                }
            }
            return new RunResult(workload, engine, clients, (end - start) / 1e9, ops, retries, errors, latency);
        }
    }

    /** A client thread; its counters are read by the runner only after joining it. */
    private final class Client implements Runnable {
        final KvSession session;
        final Workload workload;
        final Dataset data;
        final SplittableRandom random;
        final Histogram latency = new Histogram(3);
        final AtomicReference<Throwable> firstError = new AtomicReference<>();
        final Thread thread;
        long ops;
        long retries;
        long errors;

        Client(KvSession session, Workload workload, Dataset data, SplittableRandom random) {
            this.session = session;
            this.workload = workload;
            this.data = data;
            this.random = random;
            this.thread = new Thread(this, "bench-client");
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                int p = phase;
                if (p == STOPPING) {
                    return;
                }
                long t0 = System.nanoTime();
                try {
                    int r = workload.run(session, data, random);
                    if (p == MEASURING) {
                        latency.recordValue(System.nanoTime() - t0);
                        ops++;
                        retries += r;
                    }
                } catch (RuntimeException e) {
                    session.endRead();
                    firstError.compareAndSet(null, e);
                    if (p == MEASURING) {
                        errors++;
                    }
                }
            }
        }
    }
}
