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
 * every counted operation ran to its end. Beside the operations, the run reads
 * {@link JvmTime}'s clocks at the two flips: the process's CPU time and the JIT's compile time
 * spent in the measured interval.
 *
 * <p>Used by strata-bench's runners and by strata-bench-records, which runs on strata-fdb
 * instead of fdb-java: so this package uses the JDK and HdrHistogram only, never a database.
 */
public final class ClosedLoop {
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPING = 2;
    /**
     * An operation still running this long after the end is stuck, not slow. Generous: the
     * slowest operations that run here (a Record Layer save on a durable store, on 2 cores, with
     * a profiler sampling every millisecond) take milliseconds, and a false alarm costs a run.
     */
    private static final long JOIN_TIMEOUT_MILLIS = 120_000;

    /** One client's operation. State that must survive between calls lives in the implementation. */
    @FunctionalInterface
    public interface Operation {
        /** Runs the operation once, to its end; returns how many retries it took. */
        int run() throws Exception;
    }

    /**
     * What a run measured: operations started while measuring, their retries and latencies,
     * the operations that failed, and the first failure (warm-up included) for the report.
     * {@code cpuSeconds} is the whole process's CPU time in the measured interval (GC and JIT
     * included), {@code jitMillis} the time the JIT spent compiling in it (near 0 once the
     * JVM is warm; more means the interval measured a warming JVM).
     */
    public record Result(double seconds, long operations, long retries, long errors, Histogram latency,
                         double cpuSeconds, long jitMillis, Throwable firstError) {
        public double perSecond() {
            return operations / seconds;
        }

        /** The process's CPU time per operation counted, in µs (0 when none was). */
        public double cpuMicrosPerOperation() {
            return operations == 0 ? 0 : cpuSeconds * 1e6 / operations;
        }

        public double p50Micros() {
            return percentileMicros(50);
        }

        public double p99Micros() {
            return percentileMicros(99);
        }

        private double percentileMicros(double percentile) {
            return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1e3;
        }

        public double averageMillis() {
            return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1e6;
        }

        public double maxMillis() {
            return latency.getMaxValue() / 1e6;
        }
    }

    /** Hooks around the measured interval, e.g. a profiler that samples it alone. */
    public interface Measured {
        /** Called just before the measured interval starts. */
        void started();

        /** Called after the measured interval, once every client has finished. */
        void stopped();

        Measured NONE = new Measured() {
            @Override
            public void started() {}

            @Override
            public void stopped() {}
        };
    }

    private volatile int phase;

    private ClosedLoop() {}

    /**
     * Runs each of {@code clients} on its own thread (named {@code threadName-i}) for
     * {@code warmup} and then {@code measure}, and waits for all of them to finish.
     */
    public static Result run(List<? extends Operation> clients, Duration warmup, Duration measure, String threadName) {
        return run(clients, warmup, measure, threadName, ClientPriority.NORMAL);
    }

    /** {@link #run(List, Duration, Duration, String)} with the client threads at {@code priority}. */
    public static Result run(List<? extends Operation> clients, Duration warmup, Duration measure, String threadName,
                             ClientPriority priority) {
        return run(clients, warmup, measure, threadName, priority, Measured.NONE);
    }

    /** {@link #run(List, Duration, Duration, String, ClientPriority)} with {@code measured} called around the interval. */
    public static Result run(List<? extends Operation> clients, Duration warmup, Duration measure, String threadName,
                             ClientPriority priority, Measured measured) {
        return new ClosedLoop().runAll(clients, warmup, measure, threadName, priority, measured);
    }

    private Result runAll(List<? extends Operation> operations, Duration warmup, Duration measure, String threadName,
                          ClientPriority priority, Measured measured) {
        List<Client> clients = new ArrayList<>();
        for (Operation op : operations) {
            Client c = new Client(op, threadName + "-" + clients.size());
            c.thread.setPriority(priority.javaPriority());
            clients.add(c);
        }
        phase = WARMING;
        clients.forEach(c -> c.thread.start());
        RunThreads.sleep(warmup);
        measured.started();
        long cpu0 = JvmTime.processCpuNanos();
        long jit0 = JvmTime.jitMillis();
        long start = System.nanoTime();
        phase = MEASURING;
        RunThreads.sleep(measure);
        phase = STOPPING;
        long end = System.nanoTime();
        long cpu1 = JvmTime.processCpuNanos();
        long jit1 = JvmTime.jitMillis();
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
        measured.stopped();
        return new Result((end - start) / 1e9, ops, retries, errors, latency, (cpu1 - cpu0) / 1e9, jit1 - jit0,
                firstError);
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
