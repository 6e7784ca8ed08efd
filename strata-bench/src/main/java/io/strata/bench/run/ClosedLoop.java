package io.strata.bench.run;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A timed closed-loop run, shared by every benchmark runner: one thread per client, each
 * running its operation back to back (waiting for one before starting the next), a warm-up,
 * then a measured interval.
 *
 * <p>Measurement: the run flips a shared phase from warm-up to measuring and, after the
 * measured time, to stopping, noting {@link System#nanoTime()} at each flip. An operation
 * counts, with its latency and its retries, when it <em>started</em> while measuring; the
 * rate is those operations over the interval between the two flips. Nothing is estimated:
 * every counted operation ran to its end.
 */
public final class ClosedLoop {
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPING = 2;
    /** An operation still running this long after the end is stuck, not slow. */
    private static final long JOIN_TIMEOUT_MILLIS = 60_000;

    /** One client's operation. State that must survive between calls lives in the implementation. */
    @FunctionalInterface
    public interface Operation {
        /** Runs the operation once, to its end; returns how many retries it took. */
        int run() throws Exception;
    }

    /**
     * What a run measured: operations started while measuring, their retries and latencies,
     * the operations that failed, and the first failure (warm-up included) for the report.
     */
    public record Result(double seconds, long operations, long retries, long errors, Histogram latency,
                         Throwable firstError) {
        public double perSecond() {
            return operations / seconds;
        }

        public double averageMillis() {
            return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1e6;
        }

        public double maxMillis() {
            return latency.getMaxValue() / 1e6;
        }
    }

    private volatile int phase;

    private ClosedLoop() {}

    /**
     * Runs each of {@code clients} on its own thread (named {@code threadName}) for
     * {@code warmup} and then {@code measure}, and waits for all of them to finish.
     */
    public static Result run(List<? extends Operation> clients, Duration warmup, Duration measure, String threadName) {
        return run(clients, warmup, measure, threadName, ClientPriority.NORMAL);
    }

    /** {@link #run(List, Duration, Duration, String)} with the client threads at {@code priority}. */
    public static Result run(List<? extends Operation> clients, Duration warmup, Duration measure, String threadName,
                             ClientPriority priority) {
        return new ClosedLoop().runAll(clients, warmup, measure, threadName, priority);
    }

    private Result runAll(List<? extends Operation> operations, Duration warmup, Duration measure, String threadName,
                          ClientPriority priority) {
        List<Client> clients = new ArrayList<>();
        for (Operation op : operations) {
            Client c = new Client(op, threadName);
            c.thread.setPriority(priority.javaPriority());
            clients.add(c);
        }
        phase = WARMING;
        clients.forEach(c -> c.thread.start());
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
        Throwable firstError = null;
        for (Client c : clients) {
            RunThreads.join(c.thread, JOIN_TIMEOUT_MILLIS, "an operation of " + threadName);
            latency.add(c.latency);
            ops += c.ops;
            retries += c.retries;
            errors += c.errors;
            if (firstError == null) {
                firstError = c.firstError.get();
            }
        }
        return new Result((end - start) / 1e9, ops, retries, errors, latency, firstError);
    }

    /** A client thread; its counters are read by the run only after joining it. */
    private final class Client implements Runnable {
        final Operation operation;
        final Histogram latency = new Histogram(3);
        final AtomicReference<Throwable> firstError = new AtomicReference<>();
        final Thread thread;
        long ops;
        long retries;
        long errors;

        Client(Operation operation, String threadName) {
            this.operation = operation;
            this.thread = new Thread(this, threadName);
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
                    int r = operation.run();
                    if (p == MEASURING) {
                        latency.recordValue(System.nanoTime() - t0);
                        ops++;
                        retries += r;
                    }
                } catch (Exception e) {
                    firstError.compareAndSet(null, unwrap(e));
                    if (p == MEASURING) {
                        errors++;
                    }
                }
            }
        }
    }

    /** The cause behind {@link CompletionException} wrappers, as a report should name it. */
    public static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
