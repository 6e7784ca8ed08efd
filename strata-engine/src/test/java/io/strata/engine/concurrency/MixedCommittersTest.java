package io.strata.engine.concurrency;

import com.apple.foundationdb.Database;
import io.strata.Strata;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-modify-write transfers from committers of both kinds at once: blocking ones
 * ({@code db.run}, which may run their own batches — fsync included on a durable database —
 * or wait to lead the next) and asynchronous ones with many commits in flight (which queue for
 * the sequencer). Under serializable isolation the balances end at the initial ones plus the
 * transfers that committed, whoever ran their batches; on disk too, after a reopen.
 */
class MixedCommittersTest {
    @TempDir
    Path dir;

    private static final int ACCOUNTS = 8;
    private static final int BLOCKING_THREADS = 4;
    private static final int TRANSFERS_PER_THREAD = 300;
    private static final int ASYNC_TRANSFERS = 1_200;
    private static final int IN_FLIGHT = 64;

    @ParameterizedTest(name = "durable: {0}")
    @ValueSource(booleans = {false, true})
    void everyCommittedTransferIsAppliedOnceWhoeverRanItsBatch(boolean durable) throws Exception {
        Bank bank = new Bank(ACCOUNTS, 1_000);
        long[] deltas = new long[ACCOUNTS];
        try (Database db = durable ? Strata.open(dir) : Strata.inMemory()) {
            bank.open(db);
            ExecutorService threads = Executors.newFixedThreadPool(BLOCKING_THREADS + 1);
            try {
                List<Future<long[]>> results = new ArrayList<>();
                for (int t = 0; t < BLOCKING_THREADS; t++) {
                    results.add(threads.submit(() -> blockingTransfers(db)));
                }
                results.add(threads.submit(() -> pipelinedTransfers(db)));
                for (Future<long[]> f : results) {
                    long[] d = f.get(120, TimeUnit.SECONDS);
                    for (int i = 0; i < ACCOUNTS; i++) {
                        deltas[i] += d[i];
                    }
                }
            } finally {
                threads.shutdownNow();
            }
            assertBalances(db, bank, deltas);
        }
        if (durable) {
            try (Database db = Strata.open(dir)) {
                assertBalances(db, bank, deltas);
            }
        }
    }

    private static long[] blockingTransfers(Database db) {
        long[] deltas = new long[ACCOUNTS];
        for (int n = 0; n < TRANSFERS_PER_THREAD; n++) {
            int from = ThreadLocalRandom.current().nextInt(ACCOUNTS);
            int to = (from + 1 + ThreadLocalRandom.current().nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1 + ThreadLocalRandom.current().nextInt(10);
            db.run(tr -> {
                Bank.transfer(tr, from, to, amount);
                return null;
            });
            deltas[from] -= amount;
            deltas[to] += amount;
        }
        return deltas;
    }

    /** Transfers through {@code runAsync}, {@link #IN_FLIGHT} at a time, from one thread. */
    private static long[] pipelinedTransfers(Database db) throws Exception {
        long[] deltas = new long[ACCOUNTS];
        List<CompletableFuture<Void>> window = new ArrayList<>();
        for (int n = 0; n < ASYNC_TRANSFERS; n++) {
            int from = ThreadLocalRandom.current().nextInt(ACCOUNTS);
            int to = (from + 1 + ThreadLocalRandom.current().nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long amount = 1 + ThreadLocalRandom.current().nextInt(10);
            synchronized (deltas) {
                deltas[from] -= amount;
                deltas[to] += amount;
            }
            window.add(db.runAsync(tr -> tr.get(Bank.account(from)).thenCombine(tr.get(Bank.account(to)), (a, b) -> {
                tr.set(Bank.account(from), Bank.encode(Bank.decode(a) - amount));
                tr.set(Bank.account(to), Bank.encode(Bank.decode(b) + amount));
                return null;
            })));
            if (window.size() == IN_FLIGHT) {
                CompletableFuture.allOf(window.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
                window.clear();
            }
        }
        CompletableFuture.allOf(window.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        return deltas;
    }

    private static void assertBalances(Database db, Bank bank, long[] deltas) {
        long total = 0;
        for (int i = 0; i < ACCOUNTS; i++) {
            int account = i;
            long balance = Bank.decode(db.read(tr -> tr.get(Bank.account(account)).join()));
            assertThat(balance).as("account %d", i).isEqualTo(bank.initial + deltas[i]);
            total += balance;
        }
        assertThat(total).isEqualTo(bank.total());
    }
}
