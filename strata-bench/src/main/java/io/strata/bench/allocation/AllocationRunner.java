package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.bench.scenario.RunThreads;
import io.strata.layers.allocator.PrefixAllocator;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs one cell: {@code concurrency} client threads, each allocating back to back (a closed
 * loop) with its own retry loop, for a warm-up and then a measured interval.
 *
 * <p>The retry loop is FoundationDB's idiom written out, so that retries can be counted:
 * {@code allocate(tr)}, {@code commit()}, and on an error {@code tr = tr.onError(e)}, which
 * rethrows the errors that must not be retried; every attempt after the first is one
 * conflict. It never calls {@code FDBException.isRetryable()}, which would load the native
 * client.
 *
 * <p>Measurement is {@link io.strata.bench.scenario.ScenarioRunner}'s: a shared phase flips
 * from warm-up to measuring to stopping; an allocation counts, with its latency and its
 * retries, if it started while measuring; the rate is over the interval between the flips.
 *
 * <p>Check: every prefix committed in the cell, warm-up included, is collected, and a prefix
 * seen twice counts as an error — an allocator that hands out duplicates does not get a
 * throughput figure without a warning.
 */
final class AllocationRunner {
    private static final int WARMING = 0;
    private static final int MEASURING = 1;
    private static final int STOPPING = 2;
    /** An allocation still running this long after the end is stuck, not slow. */
    private static final long JOIN_TIMEOUT_MILLIS = 60_000;

    private volatile int phase;

    private AllocationRunner() {}

    static AllocationResult run(DatabaseTarget target, String name, AllocatorFactory factory, int concurrency,
                                Duration warmup, Duration measure) {
        return new AllocationRunner().runCell(target, name, factory, concurrency, warmup, measure);
    }

    private AllocationResult runCell(DatabaseTarget target, String name, AllocatorFactory factory, int concurrency,
                                     Duration warmup, Duration measure) {
        try (DatabaseTarget.Cell cell = target.open()) {
            PrefixAllocator allocator = factory.create(cell.db(), cell.root());
            List<Client> clients = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                clients.add(new Client(cell.db(), allocator));
            }
            phase = WARMING;
            for (Client c : clients) {
                c.thread.start();
            }
            RunThreads.sleep(warmup);
            long start = System.nanoTime();
            phase = MEASURING;
            RunThreads.sleep(measure);
            phase = STOPPING;
            long end = System.nanoTime();
            Histogram latency = new Histogram(3);
            long allocations = 0;
            long conflicts = 0;
            long errors = 0;
            Set<ByteBuffer> seen = new HashSet<>();
            for (Client c : clients) {
                RunThreads.join(c.thread, JOIN_TIMEOUT_MILLIS, "an allocation");
                latency.add(c.latency);
                allocations += c.allocations;
                conflicts += c.conflicts;
                errors += c.errors;
                for (byte[] prefix : c.prefixes) {
                    if (!seen.add(ByteBuffer.wrap(prefix))) {
                        errors++;
                    }
                }
            }
            for (Client c : clients) {
                if (c.firstError.get() != null) {
                    System.err.println("strata bench allocators: " + name + " " + target.name() + ": " + c.firstError.get());
                    break;
                }
            }
            if (seen.size() < clients.stream().mapToLong(c -> c.prefixes.size()).sum()) {
                System.err.println("strata bench allocators: " + name + " " + target.name() + ": the same prefix was allocated twice");
            }
            return new AllocationResult(name, target.name(), concurrency, (end - start) / 1e9, allocations, conflicts,
                    errors, latency);
        }
    }

    /** A client thread; its fields are read by the runner only after joining it. */
    private final class Client implements Runnable {
        final Database db;
        final PrefixAllocator allocator;
        final Histogram latency = new Histogram(3);
        final List<byte[]> prefixes = new ArrayList<>();
        final AtomicReference<Throwable> firstError = new AtomicReference<>();
        final Thread thread;
        long allocations;
        long conflicts;
        long errors;

        Client(Database db, PrefixAllocator allocator) {
            this.db = db;
            this.allocator = allocator;
            this.thread = new Thread(this, "bench-allocator-client");
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
                int retries = 0;
                Transaction tr = db.createTransaction();
                try {
                    while (true) {
                        try {
                            byte[] prefix = allocator.allocate(tr).join();
                            tr.commit().join();
                            prefixes.add(prefix);
                            break;
                        } catch (RuntimeException e) {
                            tr = tr.onError(unwrap(e)).join(); // rethrows what must not be retried
                            retries++;
                        }
                    }
                    if (p == MEASURING) {
                        latency.recordValue(System.nanoTime() - t0);
                        allocations++;
                        conflicts += retries;
                    }
                } catch (RuntimeException e) {
                    firstError.compareAndSet(null, unwrap(e));
                    if (p == MEASURING) {
                        errors++;
                    }
                } finally {
                    tr.close();
                }
            }
        }
    }

    private static Throwable unwrap(Throwable e) {
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
