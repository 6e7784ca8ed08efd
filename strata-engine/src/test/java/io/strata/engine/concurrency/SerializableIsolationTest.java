package io.strata.engine.concurrency;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.strata.engine.concurrency.Bank.decode;
import static io.strata.engine.concurrency.Bank.encode;
import static io.strata.engine.concurrency.Bank.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that fail on any isolation level weaker than FoundationDB's strict serializability,
 * one per anomaly, each named after the race it checks: read skew and a torn audit (what
 * read committed allows), phantoms, write skew (what snapshot isolation allows), lost
 * updates, stale reads after a commit returned; and the other side — atomic adds and
 * snapshot reads must not conflict, or the engine is stricter than FoundationDB.
 *
 * <p>Races whose outcome is fixed by construction (both transactions read before either
 * commits) assert the exact outcome; free-running races assert invariants. No assertion
 * depends on timing. Randomness is seeded and the seed printed; rerun with
 * {@code -Dstrata.seed=<seed>}.
 */
class SerializableIsolationTest {
    private static final int ROUNDS = 500;

    private Database db;
    private ExecutorService pool;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        db.close();
    }

    private static long seed(String test) {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(SerializableIsolationTest.class.getSimpleName() + "." + test + " seed=" + seed);
        return seed;
    }

    private static byte[] key(String... parts) {
        return Tuple.from((Object[]) parts).pack();
    }

    private static byte[] key(String a, int i, String b) {
        return Tuple.from(a, i, b).pack();
    }

    private void put(byte[] k, long v) {
        db.run(tr -> {
            tr.set(k, encode(v));
            return null;
        });
    }

    private long read(byte[] k) {
        byte[] v = db.read(tr -> tr.get(k).join());
        return decode(v);
    }

    /** Commits {@code tr}; returns 0 on success or FoundationDB's error code. */
    private static int commit(Transaction tr) {
        try {
            tr.commit().join();
            return 0;
        } catch (CompletionException e) {
            int code = errorCode(e);
            if (code < 0) {
                throw e;
            }
            return code;
        }
    }

    /** Commits two transactions at the same moment from two threads; returns both outcomes. */
    private int[] commitRacing(Transaction a, Transaction b) throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        Callable<Integer> ca = () -> {
            together.await();
            return commit(a);
        };
        Callable<Integer> cb = () -> {
            together.await();
            return commit(b);
        };
        Future<Integer> fa = pool.submit(ca);
        Future<Integer> fb = pool.submit(cb);
        return new int[] {fa.get(10, TimeUnit.SECONDS), fb.get(10, TimeUnit.SECONDS)};
    }

    private static void joinAll(List<Future<?>> futures) throws Exception {
        for (Future<?> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    // ---------------------------------------------------------------- torn audit / read skew

    /**
     * Transfer threads move money between accounts while auditors read every balance in one
     * transaction (as a range, as point reads in random order, as an iterator): every audit
     * must see the exact total. Read committed, or a read version that is not one consistent
     * cut of the commit order, shows up as an audit seeing half a transfer. Afterwards each
     * balance must be its initial value plus the deltas of the transfers: a lost update
     * shows up there.
     */
    @Test
    void auditorsNeverSeeATransferHalfApplied() throws Exception {
        long seed = seed("auditorsNeverSeeATransferHalfApplied");
        Bank bank = new Bank(16, 1_000);
        bank.open(db);
        int transferThreads = 4;
        int transfersPerThread = 300;
        long[][] deltas = new long[transferThreads][bank.accounts];
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger audits = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();

        List<Future<?>> auditors = new ArrayList<>();
        for (int a = 0; a < 2; a++) {
            auditors.add(pool.submit(bank.auditor(db, seed + 100 + a, stop, audits, failure)));
        }
        List<Future<?>> transfers = new ArrayList<>();
        for (int t = 0; t < transferThreads; t++) {
            long[] mine = deltas[t];
            Random random = new Random(seed + t);
            transfers.add(pool.submit(() -> {
                for (int i = 0; i < transfersPerThread; i++) {
                    int from = random.nextInt(bank.accounts);
                    int to = (from + 1 + random.nextInt(bank.accounts - 1)) % bank.accounts;
                    long amount = 1 + random.nextInt(100);
                    db.run(tr -> {
                        Bank.transfer(tr, from, to, amount);
                        return null;
                    });
                    mine[from] -= amount;
                    mine[to] += amount;
                }
            }));
        }
        try {
            joinAll(transfers);
        } finally {
            stop.set(true);
        }
        joinAll(auditors);

        assertThat(failure.get()).isNull();
        assertThat(audits.get()).isGreaterThanOrEqualTo(2);
        long[] balances = bank.balances(db);
        long sum = 0;
        for (int i = 0; i < bank.accounts; i++) {
            long expected = bank.initial;
            for (long[] d : deltas) {
                expected += d[i];
            }
            assertThat(balances[i]).as("balance of account %d", i).isEqualTo(expected);
            sum += balances[i];
        }
        assertThat(sum).isEqualTo(bank.total());
        System.out.println("  " + transferThreads * transfersPerThread + " transfers, " + audits.get() + " audits");
    }

    /**
     * T1 reads x; T2 changes x and y and commits; T1 reads y. T1 must see y as it was at its
     * read version (read committed would show the new y next to the old x), and T1, having
     * read x, cannot commit a write.
     */
    @Test
    void readSkewTwoReadsOfOneTransactionSeeOneVersion() {
        for (int i = 0; i < ROUNDS; i++) {
            byte[] x = key("skew", i, "x");
            byte[] y = key("skew", i, "y");
            db.run(tr -> {
                tr.set(x, encode(50));
                tr.set(y, encode(50));
                return null;
            });
            Transaction t1 = db.createTransaction();
            assertThat(decode(t1.get(x).join())).isEqualTo(50);

            db.run(tr -> {
                tr.set(x, encode(0));
                tr.set(y, encode(100));
                return null;
            });

            assertThat(decode(t1.get(y).join())).as("round %d: y after x", i).isEqualTo(50);
            assertThat(decode(t1.snapshot().get(y).join())).isEqualTo(50);
            List<KeyValue> both = t1.getRange(x, key("skew", i, "z")).asList().join();
            assertThat(both).hasSize(2);
            assertThat(decode(both.get(0).getValue()) + decode(both.get(1).getValue())).isEqualTo(100);
            t1.set(key("skew", i, "audit"), encode(100));
            assertThat(commit(t1)).as("round %d", i).isEqualTo(1020);
            t1.close();
        }
    }

    /**
     * Once a commit has returned, every transaction that starts afterwards sees it: a writer
     * publishes each value after its commit returns; readers note the published value, then
     * start a transaction and must read at least that.
     */
    @Test
    void readsStartedAfterACommitReturnedSeeIt() throws Exception {
        byte[] k = key("causal", "counter");
        put(k, 0);
        AtomicLong published = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicInteger checks = new AtomicInteger();
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            readers.add(pool.submit(() -> {
                do {
                    long floor = published.get();
                    long seen = read(k);
                    checks.incrementAndGet();
                    if (seen < floor) {
                        failure.compareAndSet(null, "read " + seen + " after " + floor + " had committed");
                    }
                } while (!stop.get());
            }));
        }
        try {
            for (long v = 1; v <= 2_000; v++) {
                put(k, v);
                published.set(v);
            }
        } finally {
            stop.set(true);
        }
        joinAll(readers);
        assertThat(failure.get()).isNull();
        assertThat(checks.get()).isGreaterThanOrEqualTo(3);
    }

    // ---------------------------------------------------------------- phantoms

    /**
     * T1 reads a range (empty, or holding keys); T2 inserts a key inside it and commits; T1
     * writes elsewhere and commits: T1 must fail with 1020, since its read is no longer
     * true. Also through an iterator and a reverse read.
     */
    @Test
    void phantomInsertIntoAReadRangeFailsTheReader() {
        for (int i = 0; i < ROUNDS; i++) {
            boolean populated = i % 2 == 1;
            int shape = (i / 2) % 3;
            byte[] begin = key("phantom", i, "a");
            byte[] end = key("phantom", i, "z");
            if (populated) {
                put(key("phantom", i, "b"), 1);
                put(key("phantom", i, "y"), 1);
            }
            Transaction t1 = db.createTransaction();
            int seen = switch (shape) {
                case 0 -> t1.getRange(begin, end).asList().join().size();
                case 1 -> {
                    int n = 0;
                    for (KeyValue ignored : t1.getRange(begin, end)) {
                        n++;
                    }
                    yield n;
                }
                default -> t1.getRange(begin, end, 0, true).asList().join().size();
            };
            assertThat(seen).isEqualTo(populated ? 2 : 0);

            put(key("phantom", i, "m"), 1);

            t1.set(key("elsewhere", i, "t1"), encode(seen));
            assertThat(commit(t1)).as("round %d, populated=%s, shape=%d", i, populated, shape).isEqualTo(1020);
            t1.close();
        }
    }

    /**
     * Controls for the phantom test, so that it cannot pass by failing everything: an insert
     * before the range, or past the rows a limited read returned, does not fail the reader,
     * exactly as on FoundationDB (a limited read conflicts only up to its last row).
     */
    @Test
    void insertOutsideWhatARangeReadSawDoesNotFailTheReader() {
        for (int i = 0; i < ROUNDS; i++) {
            boolean limited = i % 2 == 1;
            put(key("phantom-ctl", i, "b"), 1);
            put(key("phantom-ctl", i, "y"), 1);
            Transaction t1 = db.createTransaction();
            List<KeyValue> rows = t1.getRange(key("phantom-ctl", i, "a"), key("phantom-ctl", i, "z"), limited ? 1 : 0)
                    .asList().join();
            assertThat(rows).hasSize(limited ? 1 : 2);

            // Before the range; or, for the limited read, after its only row.
            put(key("phantom-ctl", i, limited ? "m" : "0"), 1);

            t1.set(key("elsewhere-ctl", i, "t1"), encode(1));
            assertThat(commit(t1)).as("round %d, limited=%s", i, limited).isZero();
            t1.close();
        }
    }

    // ---------------------------------------------------------------- write skew

    /**
     * Two doctors on call; each reads both flags and goes off call if the other is on. Both
     * read before either commits, then both commit at the same moment: snapshot isolation
     * lets both commit and leaves nobody on call; serializability lets exactly one commit.
     */
    @Test
    void writeSkewOnCallDoctorsCannotBothGoOffCall() throws Exception {
        for (int i = 0; i < ROUNDS; i++) {
            byte[] alice = key("oncall", i, "alice");
            byte[] bob = key("oncall", i, "bob");
            db.run(tr -> {
                tr.set(alice, encode(1));
                tr.set(bob, encode(1));
                return null;
            });
            Transaction ta = db.createTransaction();
            Transaction tb = db.createTransaction();
            goOffCallIfOtherIsOn(ta, alice, bob);
            goOffCallIfOtherIsOn(tb, bob, alice);

            int[] outcome = commitRacing(ta, tb);

            assertThat(outcome).as("round %d", i).containsExactlyInAnyOrder(0, 1020);
            assertThat(read(alice) + read(bob)).as("round %d: doctors on call", i).isEqualTo(1);
            ta.close();
            tb.close();
        }
    }

    private static boolean goOffCallIfOtherIsOn(Transaction tr, byte[] me, byte[] other) {
        long mine = decode(tr.get(me).join());
        long theirs = decode(tr.get(other).join());
        if (mine == 1 && theirs == 1) {
            tr.set(me, encode(0));
            return true;
        }
        return false;
    }

    /**
     * The same with free-running retry loops: whatever the interleaving, one doctor stays on
     * call and one goes off.
     */
    @Test
    void writeSkewWithRetriesLeavesExactlyOneDoctorOnCall() throws Exception {
        for (int i = 0; i < 200; i++) {
            byte[] alice = key("oncall-retry", i, "alice");
            byte[] bob = key("oncall-retry", i, "bob");
            db.run(tr -> {
                tr.set(alice, encode(1));
                tr.set(bob, encode(1));
                return null;
            });
            CyclicBarrier together = new CyclicBarrier(2);
            Future<Boolean> a = pool.submit(() -> {
                together.await();
                return db.run(tr -> goOffCallIfOtherIsOn(tr, alice, bob));
            });
            Future<Boolean> b = pool.submit(() -> {
                together.await();
                return db.run(tr -> goOffCallIfOtherIsOn(tr, bob, alice));
            });
            boolean aWent = a.get(10, TimeUnit.SECONDS);
            boolean bWent = b.get(10, TimeUnit.SECONDS);
            assertThat(aWent ^ bWent).as("round %d: exactly one went off call", i).isTrue();
            assertThat(read(alice) + read(bob)).as("round %d", i).isEqualTo(1);
        }
    }

    // ---------------------------------------------------------------- lost update

    /** Two read-modify-write increments of one counter, both read before either commits: one must fail. */
    @Test
    void lostUpdateOneOfTwoConcurrentIncrementsFails() throws Exception {
        byte[] counter = key("lost-update", "counter");
        put(counter, 0);
        for (int i = 0; i < ROUNDS; i++) {
            Transaction ta = db.createTransaction();
            Transaction tb = db.createTransaction();
            ta.set(counter, encode(decode(ta.get(counter).join()) + 1));
            tb.set(counter, encode(decode(tb.get(counter).join()) + 1));

            int[] outcome = commitRacing(ta, tb);

            assertThat(outcome).as("round %d", i).containsExactlyInAnyOrder(0, 1020);
            assertThat(read(counter)).isEqualTo(i + 1);
            ta.close();
            tb.close();
        }
    }

    /** Read-modify-write increments in retry loops from several threads: none is lost. */
    @Test
    void lostUpdateIncrementsInRetryLoopsAllCount() throws Exception {
        byte[] counter = key("lost-update-retry", "counter");
        put(counter, 0);
        int threads = 4;
        int perThread = 250;
        AtomicInteger attempts = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    db.run(tr -> {
                        attempts.incrementAndGet();
                        tr.set(counter, encode(decode(tr.get(counter).join()) + 1));
                        return null;
                    });
                }
            }));
        }
        joinAll(futures);
        assertThat(read(counter)).isEqualTo(threads * perThread);
        System.out.println("  " + threads * perThread + " increments took " + attempts.get() + " attempts");
    }

    // ---------------------------------------------------------------- no false conflicts

    /**
     * Atomic adds carry no read conflict range: many threads adding to one counter at once,
     * each transaction committed once without retry, never see 1020, and the sum is exact.
     * Also when the transaction snapshot-reads the counter first.
     */
    @Test
    void concurrentAtomicAddsToOneCounterNeverConflict() throws Exception {
        byte[] counter = key("atomic", "counter");
        int threads = 8;
        int perThread = 500;
        AtomicInteger failures = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    try (Transaction tr = db.createTransaction()) {
                        if (i % 2 == 1) {
                            tr.snapshot().get(counter).join();
                        }
                        tr.mutate(MutationType.ADD, counter, encode(1));
                        tr.set(key("atomic", thread, "last"), encode(i));
                        int code = commit(tr);
                        if (code != 0) {
                            failures.incrementAndGet();
                            firstFailure.compareAndSet(null, "commit failed with " + code);
                        }
                    }
                }
                return null;
            }));
        }
        joinAll(futures);
        assertThat(firstFailure.get()).isNull();
        assertThat(failures.get()).isZero();
        assertThat(read(counter)).isEqualTo((long) threads * perThread);
    }

    /**
     * Snapshot reads add no read conflict range: T1 snapshot-reads a key and a range, T2
     * changes both and commits, T1 writes elsewhere and commits fine; a non-snapshot read
     * of the same key in the same position fails.
     */
    @Test
    void snapshotReadsOfKeysChangedMeanwhileDoNotConflict() {
        for (int i = 0; i < ROUNDS; i++) {
            boolean control = i % 4 == 3;
            byte[] k = key("snap", i, "k");
            put(k, 1);
            Transaction t1 = db.createTransaction();
            if (control) {
                t1.get(k).join();
            } else {
                t1.snapshot().get(k).join();
                t1.snapshot().getRange(key("snap", i, "a"), key("snap", i, "z")).asList().join();
                for (KeyValue ignored : t1.snapshot().getRange(key("snap", i, "a"), key("snap", i, "z"))) {
                    // iterate it all
                }
            }
            byte[] inserted = key("snap", i, "m");
            db.run(tr -> {
                tr.set(k, encode(2));
                tr.set(inserted, encode(2));
                return null;
            });
            t1.set(key("snap-elsewhere", i, "t1"), encode(1));
            assertThat(commit(t1)).as("round %d, non-snapshot control=%s", i, control).isEqualTo(control ? 1020 : 0);
            t1.close();
        }
    }

    /**
     * Readers that snapshot-read hot keys while writers keep changing them, then write keys
     * of their own, commit every time without a retry.
     */
    @Test
    void snapshotReadersRacingWritersNeverConflict() throws Exception {
        long seed = seed("snapshotReadersRacingWritersNeverConflict");
        int hot = 8;
        for (int h = 0; h < hot; h++) {
            put(key("hot", h, "v"), 0);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            Random random = new Random(seed + w);
            writers.add(pool.submit(() -> {
                do {
                    // Blind writes: no read conflict range, so they cannot fail either.
                    try (Transaction tr = db.createTransaction()) {
                        tr.set(key("hot", random.nextInt(hot), "v"), encode(random.nextLong()));
                        int code = commit(tr);
                        if (code != 0) {
                            failure.compareAndSet(null, "blind write failed with " + code);
                        }
                    }
                } while (!stop.get());
            }));
        }
        List<Future<?>> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            int reader = r;
            readers.add(pool.submit(() -> {
                for (int i = 0; i < 300; i++) {
                    try (Transaction tr = db.createTransaction()) {
                        long sum = 0;
                        for (KeyValue kv : tr.snapshot().getRange(key("hot"), key("hou")).asList().join()) {
                            sum += decode(kv.getValue());
                        }
                        tr.snapshot().get(key("hot", i % hot, "v")).join();
                        tr.set(key("reader", reader, "sum"), encode(sum));
                        int code = commit(tr);
                        if (code != 0) {
                            failure.compareAndSet(null, "snapshot reader failed with " + code);
                        }
                    }
                }
                return null;
            }));
        }
        try {
            joinAll(readers);
        } finally {
            stop.set(true);
        }
        joinAll(writers);
        assertThat(failure.get()).isNull();
    }
}
