package io.strata.bench.allocation;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.bench.run.ClosedLoop;
import io.strata.layers.allocator.PrefixAllocator;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs one cell: {@code concurrency} clients, each allocating back to back in a
 * {@link ClosedLoop} with its own retry loop.
 *
 * <p>The retry loop is FoundationDB's idiom written out, so that retries can be counted:
 * {@code allocate(tr)}, {@code commit()}, and on an error {@code tr = tr.onError(e)}, which
 * rethrows the errors that must not be retried; every attempt after the first is one
 * conflict. It never calls {@code FDBException.isRetryable()}, which would load the native
 * client.
 *
 * <p>Check: every prefix committed in the cell, warm-up included, is collected, and a prefix
 * seen twice counts as an error — an allocator that hands out duplicates does not get a
 * throughput figure without a warning.
 */
final class AllocationRunner {
    private AllocationRunner() {}

    static AllocationResult run(DatabaseTarget target, String name, AllocatorFactory factory, int concurrency,
                                Duration warmup, Duration measure) {
        try (DatabaseTarget.Cell cell = target.open()) {
            PrefixAllocator allocator = factory.create(cell.db(), cell.root());
            List<Client> clients = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                clients.add(new Client(cell.db(), allocator));
            }
            ClosedLoop.Result r = ClosedLoop.run(clients, warmup, measure, "bench-allocator-client");
            long errors = r.errors();
            Set<ByteBuffer> seen = new HashSet<>();
            for (Client c : clients) {
                for (byte[] prefix : c.prefixes) {
                    if (!seen.add(ByteBuffer.wrap(prefix))) {
                        errors++;
                    }
                }
            }
            if (r.firstError() != null) {
                System.err.println("strata bench allocators: " + name + " " + target.name() + ": " + r.firstError());
            }
            if (seen.size() < clients.stream().mapToLong(c -> c.prefixes.size()).sum()) {
                System.err.println("strata bench allocators: " + name + " " + target.name() + ": the same prefix was allocated twice");
            }
            return new AllocationResult(name, target.name(), concurrency, r.seconds(), r.operations(), r.retries(),
                    errors, r.latency());
        }
    }

    /** One client: an allocation per call, with its retry loop; keeps every prefix it committed. */
    private static final class Client implements ClosedLoop.Operation {
        final Database db;
        final PrefixAllocator allocator;
        final List<byte[]> prefixes = new ArrayList<>();

        Client(Database db, PrefixAllocator allocator) {
            this.db = db;
            this.allocator = allocator;
        }

        @Override
        public int run() {
            int retries = 0;
            Transaction tr = db.createTransaction();
            try {
                while (true) {
                    try {
                        byte[] prefix = allocator.allocate(tr).join();
                        tr.commit().join();
                        prefixes.add(prefix);
                        return retries;
                    } catch (RuntimeException e) {
                        tr = tr.onError(ClosedLoop.unwrap(e)).join(); // rethrows what must not be retried
                        retries++;
                    }
                }
            } finally {
                tr.close();
            }
        }
    }
}
