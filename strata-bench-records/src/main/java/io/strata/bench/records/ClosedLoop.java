package io.strata.bench.records;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * A timed closed-loop run: one thread per client, each running its operation back to back, a
 * warm-up, then a measured interval. An operation counts (with its latency and retries) when
 * it started while measuring; the rate is those operations over the measured interval. The
 * same rules as strata-bench's runner, which this module cannot depend on (it is built on the
 * real fdb-java, this one on strata-fdb).
 */
final class ClosedLoop {
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPING = 2;
    /** An operation still running this long after the end is stuck, not slow. */
    private static final long JOIN_TIMEOUT_MILLIS = 120_000;

    /** One client's operation; returns how many retries it took. */
    @FunctionalInterface
    interface Operation {
        int run() throws Exception;
    }

    /**
     * What a run measured. {@code cpuSeconds} is the whole process's CPU time in the measured
     * interval, {@code jitMillis} the time the JIT spent compiling in it.
     */
    record Result(double seconds, long operations, long retries, long errors, Histogram latency,
                  double cpuSeconds, long jitMillis, Throwable firstError) {
        double perSecond() {
            return operations / seconds;
        }

        double p50Micros() {
            return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(50) / 1e3;
        }

        double p99Micros() {
            return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(99) / 1e3;
        }
    }

    /** Hooks around the measured interval (a profiler starts and stops there). */
    interface Measured {
        void started();

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

    static Result run(int clients, IntFunction<Operation> client, Duration warmup, Duration measure, String name,
                      Measured measured) {
        return new ClosedLoop().runAll(clients, client, warmup, measure, name, measured);
    }

    private Result runAll(int n, IntFunction<Operation> factory, Duration warmup, Duration measure, String name,
                          Measured measured) {
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clients.add(new Client(factory.apply(i), name + "-" + i));
        }
        phase = WARMING;
        clients.forEach(c -> c.thread.start());
        sleep(warmup);
        measured.started();
        long cpu0 = Cpu.processNanos();
        long jit0 = BenchRecords.Jit.millis();
        long start = System.nanoTime();
        phase = MEASURING;
        sleep(measure);
        phase = STOPPING;
        long end = System.nanoTime();
        long cpu1 = Cpu.processNanos();
        long jit1 = BenchRecords.Jit.millis();
        Histogram latency = new Histogram(3);
        long ops = 0;
        long retries = 0;
        long errors = 0;
        Throwable firstError = null;
        for (Client c : clients) {
            try {
                c.thread.join(JOIN_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            if (c.thread.isAlive()) {
                throw new IllegalStateException("an operation of " + name + " is stuck");
            }
            latency.add(c.latency);
            ops += c.ops;
            retries += c.retries;
            errors += c.errors;
            if (firstError == null) {
                firstError = c.firstError.get();
            }
        }
        measured.stopped();
        return new Result((end - start) / 1e9, ops, retries, errors, latency, (cpu1 - cpu0) / 1e9, jit1 - jit0, firstError);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A client thread; its counters are read only after joining it. */
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

    static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** The process's CPU time, from the platform's management bean (0 where it has none). */
    static final class Cpu {
        private Cpu() {}

        static long processNanos() {
            java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
                return sun.getProcessCpuTime();
            }
            return 0;
        }
    }
}
