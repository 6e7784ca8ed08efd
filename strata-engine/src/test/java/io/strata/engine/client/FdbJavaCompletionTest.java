package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.EventKeeper.Events;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MapEventKeeper;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.engine.Engine;
import io.strata.engine.fault.LatencyModel;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Completion#FDB_JAVA}, call by call: the future of every call fdb-java answers with a
 * native future is not complete when the call returns, and it completes — value or error — in a
 * task of the transaction's executor, as fdb-java's {@code NativeFuture} does
 * ({@code registerMarshalCallback}: {@code executor.execute(this::marshalWhenDone)}). The
 * executor here only queues ({@link QueuedExecutor}), so both facts are deterministic.
 */
class FdbJavaCompletionTest {
    private final Engine engine = Strata.builder().inMemoryEngine();
    private final QueuedExecutor queue = new QueuedExecutor();
    /** Loads and checks data; its futures complete at once, on the engine's pool. */
    private final Database setup = EngineDatabase.handle(engine, engine.pool(), null, Connection.direct("strata:memory"), null,
            Completion.IMMEDIATE);
    /** The database under test: fdb-java's completion, on the queue. */
    private final Database db = EngineDatabase.handle(engine, queue, null, Connection.direct("strata:memory"), null,
            Completion.FDB_JAVA);

    @AfterEach
    void close() {
        queue.runQueued();
        db.close();
        setup.close();
        engine.close();
    }

    private void load(String... keys) {
        setup.run(t -> {
            for (String k : keys) {
                t.set(b(k), b("v" + k));
            }
            return null;
        });
    }

    // ---------------------------------------------------------------- call by call

    /** A call made on a fresh transaction (after what it needs done first, on the queue), and what it must end with. */
    interface Call {
        CompletableFuture<?> make(Transaction tr, QueuedExecutor q);
    }

    /** What the future must end with: success (-1 for any value) or an error code. */
    record Case(String name, Call call, int error) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case ok(String name, Call call) {
        return new Case(name, call, -1);
    }

    private static Case fails(String name, int code, Call call) {
        return new Case(name, call, code);
    }

    private static final byte[] PAST_READABLE = {(byte) 0xff, 1};
    /** Index entries ("I", color, id) mapped to records ("R", id, field) by ("R", "{K[2]}", "{...}"). */
    private static final KeySelector INDEX_BEGIN = KeySelector.firstGreaterOrEqual(Tuple.from("I").range().begin);
    private static final KeySelector INDEX_END = KeySelector.firstGreaterOrEqual(Tuple.from("I").range().end);
    private static final byte[] MAPPER = Tuple.from("R", "{K[2]}", "{...}").pack();
    private static final Range ALL = new Range(b("a"), b("z"));

    static Stream<Case> calls() {
        return Stream.of(
                ok("getReadVersion", (tr, q) -> tr.getReadVersion()),
                ok("getReadVersion, known already", (tr, q) -> {
                    q.await(tr.getReadVersion());
                    return tr.getReadVersion();
                }),
                ok("snapshot().getReadVersion", (tr, q) -> tr.snapshot().getReadVersion()),
                ok("get of a stored key", (tr, q) -> tr.get(b("k1"))),
                ok("get of an absent key", (tr, q) -> tr.get(b("nothing"))),
                ok("get answered by an own write", (tr, q) -> {
                    tr.set(b("k1"), b("mine"));
                    return tr.get(b("k1"));
                }),
                ok("get answered by the read cache", (tr, q) -> {
                    q.await(tr.get(b("k1")));
                    return tr.get(b("k1"));
                }),
                ok("get of a key longer than any stored", (tr, q) -> tr.get(new byte[20_000])),
                ok("get of a special key", (tr, q) -> tr.get("\u00ff\u00ff/cluster_id".getBytes(StandardCharsets.ISO_8859_1))),
                fails("get past the readable keys", 2004, (tr, q) -> tr.get(PAST_READABLE)),
                fails("get after a deferred error (key_too_large)", 2102, (tr, q) -> {
                    tr.set(new byte[20_000], b("v"));
                    return tr.get(b("k1"));
                }),
                ok("snapshot().get", (tr, q) -> tr.snapshot().get(b("k1"))),
                ok("getKey", (tr, q) -> tr.getKey(KeySelector.firstGreaterOrEqual(b("k")))),
                ok("getKey answered by an own write", (tr, q) -> {
                    tr.set(b("k0"), b("mine"));
                    return tr.getKey(KeySelector.firstGreaterOrEqual(b("k0")));
                }),
                fails("getKey past the readable keys", 2004, (tr, q) -> tr.getKey(KeySelector.firstGreaterOrEqual(new byte[] {(byte) 0xff, 0}))),
                ok("snapshot().getKey", (tr, q) -> tr.snapshot().getKey(KeySelector.lastLessThan(b("k2")))),
                ok("getEstimatedRangeSizeBytes", (tr, q) -> tr.getEstimatedRangeSizeBytes(ALL)),
                fails("getEstimatedRangeSizeBytes of an inverted range", 2005, (tr, q) -> tr.getEstimatedRangeSizeBytes(b("z"), b("a"))),
                ok("snapshot().getEstimatedRangeSizeBytes", (tr, q) -> tr.snapshot().getEstimatedRangeSizeBytes(ALL)),
                ok("getRangeSplitPoints", (tr, q) -> tr.getRangeSplitPoints(ALL, 1_000)),
                ok("snapshot().getRangeSplitPoints", (tr, q) -> tr.snapshot().getRangeSplitPoints(ALL, 1_000)),
                fails("getBlobGranuleRanges", 2108, (tr, q) -> tr.getBlobGranuleRanges(b("a"), b("z"), 10)),
                ok("getApproximateSize", (tr, q) -> {
                    tr.set(b("k1"), b("x"));
                    return tr.getApproximateSize();
                }),
                ok("getRange(...).asList() with a limit (EXACT)", (tr, q) -> tr.getRange(ALL, 2).asList()),
                ok("getRange(...).asList() without one (WANT_ALL)", (tr, q) -> tr.getRange(ALL).asList()),
                ok("getRange(...).asList() of own writes only", (tr, q) -> {
                    tr.set(b("m1"), b("x"));
                    return tr.getRange(b("m"), b("n")).asList();
                }),
                ok("getRange(...).asList() of an inverted range", (tr, q) -> tr.getRange(b("z"), b("a"), 5).asList()),
                ok("snapshot().getRange(...).asList()", (tr, q) -> tr.snapshot().getRange(ALL).asList()),
                fails("getRange(...).asList() in EXACT mode without a limit", 2210,
                        (tr, q) -> tr.getRange(ALL, 0, false, StreamingMode.EXACT).asList()),
                fails("getRange(...).asList() past the readable keys", 2004,
                        (tr, q) -> tr.getRange(b("a"), PAST_READABLE, 5).asList()),
                ok("getRange(...).iterator().onHasNext(), the first batch", (tr, q) -> tr.getRange(ALL).iterator().onHasNext()),
                ok("getMappedRange(...).asList()", (tr, q) -> tr.getMappedRange(INDEX_BEGIN, INDEX_END, MAPPER, 0, false,
                        StreamingMode.WANT_ALL).asList().thenApply(rows -> {
                            if (rows.size() != 3 || rows.get(0).getRangeResult().size() != 1) {
                                throw new AssertionError("three index rows, each mapped to one record: " + rows);
                            }
                            return rows;
                        })),
                ok("getMappedRange(...).iterator().onHasNext()", (tr, q) -> tr.getMappedRange(INDEX_BEGIN, INDEX_END, MAPPER, 0, false,
                        StreamingMode.ITERATOR).iterator().onHasNext()),
                fails("getMappedRange(...) over own writes", 2039, (tr, q) -> {
                    tr.set(Tuple.from("R", 1L, "f").pack(), b("mine"));
                    return tr.getMappedRange(INDEX_BEGIN, INDEX_END, MAPPER, 0, false, StreamingMode.WANT_ALL).asList();
                }),
                ok("commit of a read-only transaction", (tr, q) -> tr.commit()),
                ok("commit with writes", (tr, q) -> {
                    tr.set(b("k9"), b("x"));
                    tr.mutate(MutationType.ADD, b("counter"), new byte[] {1});
                    return tr.commit();
                }),
                fails("commit after a deferred error (key_too_large)", 2102, (tr, q) -> {
                    tr.set(new byte[20_000], b("v"));
                    return tr.commit();
                }),
                fails("commit called twice", 2017, (tr, q) -> {
                    q.await(tr.commit());
                    return tr.commit();
                }),
                ok("getVersionstamp, completed by the commit", (tr, q) -> {
                    tr.set(b("k9"), b("x"));
                    CompletableFuture<byte[]> stamp = tr.getVersionstamp();
                    tr.commit();
                    return stamp;
                }),
                fails("getVersionstamp after commit", 2017, (tr, q) -> {
                    q.await(tr.commit());
                    return tr.getVersionstamp();
                }),
                fails("watch with read-your-writes disabled", 1034, (tr, q) -> {
                    tr.options().setReadYourWritesDisable();
                    return tr.watch(b("k1"));
                }),
                ok("watch, fired by an own write", (tr, q) -> {
                    CompletableFuture<Void> watch = tr.watch(b("k1"));
                    tr.set(b("k1"), b("changed"));
                    tr.commit();
                    return watch;
                }),
                ok("onError(not_committed)", (tr, q) -> tr.onError(new FDBException("not_committed", 1020))),
                fails("onError of a non-retryable error", 2004, (tr, q) -> tr.onError(new FDBException("key_outside_legal_range", 2004))),
                fails("onError of a cancelled transaction", 1025, (tr, q) -> {
                    tr.cancel();
                    return tr.onError(new FDBException("not_committed", 1020));
                }),
                ok("Database.getClientStatus", (tr, q) -> tr.getDatabase().getClientStatus()),
                ok("Database.runAsync", (tr, q) -> tr.getDatabase().runAsync(t -> t.get(b("k1")))),
                ok("Database.readAsync", (tr, q) -> tr.getDatabase().readAsync(t -> t.snapshot().get(b("k1")))),
                fails("Database.runAsync of a body that fails at once", 2004,
                        (tr, q) -> tr.getDatabase().runAsync(t -> CompletableFuture.failedFuture(new FDBException("key_outside_legal_range", 2004)))),
                fails("Database.blobbifyRange", 2108, (tr, q) -> tr.getDatabase().blobbifyRange(b("a"), b("z"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void everyFutureCompletesOnTheExecutorAfterTheCallReturns(Case c) {
        load("k1", "k2", "k3");
        setup.run(t -> {
            for (long id = 1; id <= 3; id++) {
                t.set(Tuple.from("I", "red", id).pack(), new byte[0]);
                t.set(Tuple.from("R", id, "f").pack(), b("record " + id));
            }
            return null;
        });
        Transaction tr = db.createTransaction();
        CompletableFuture<?> f = c.call().make(tr, queue);
        assertThat(f.isDone()).as("complete when the call returned").isFalse();
        AtomicBoolean completed = new AtomicBoolean();
        AtomicBoolean onExecutor = new AtomicBoolean();
        f.whenComplete((value, error) -> {
            completed.set(true);
            onExecutor.set(queue.inTask());
        });
        if (c.error() < 0) {
            Object value = queue.await(f);
            if (value instanceof Transaction retry) {
                retry.close();
            }
        } else {
            assertThat(queue.errorOf(f)).isEqualTo(c.error());
        }
        assertThat(completed).as("a stage registered before completion ran").isTrue();
        assertThat(onExecutor).as("...in a task of the transaction's executor").isTrue();
        tr.close();
    }

    // ---------------------------------------------------------------- what fdb-java answers in Java

    @Test
    void callsFdbJavaAnswersInJavaStayImmediate() {
        load("k1");
        Transaction tr = db.createTransaction();
        // FDBTransaction.onError of anything but an FDBException: a future already failed.
        CompletableFuture<Transaction> notFdb = tr.onError(new IllegalStateException("not FoundationDB's"));
        assertThat(notFdb).isCompletedExceptionally();
        // run/read/runAsync/readAsync of a transaction hand back the function's own future.
        CompletableFuture<String> own = CompletableFuture.completedFuture("mine");
        assertThat(tr.runAsync(t -> own)).isSameAs(own);
        assertThat(tr.snapshot().readAsync(t -> own)).isSameAs(own);
        // Values, not futures.
        assertThat(tr.getCommittedVersion()).isEqualTo(-1L);
        assertThat(tr.snapshot().snapshot()).isSameAs(tr.snapshot());
        tr.close();
    }

    @Test
    void immediateCompletionIsStillTheDefault() {
        try (Database fast = Strata.inMemory()) {
            assertThat(((EngineDatabase) fast).completion()).isEqualTo(Completion.IMMEDIATE);
            try (Transaction tr = fast.createTransaction()) {
                tr.set(b("k"), b("v"));
                assertThat(tr.get(b("k"))).as("an own write answers at once").isDone();
            }
        }
        try (Database opted = Strata.builder().completeLikeFdbJava().inMemory()) {
            assertThat(((EngineDatabase) opted).completion()).isEqualTo(Completion.FDB_JAVA);
        }
    }

    @Test
    void underImmediateCompletionAReadOnlyCommitsNextStageRunsOnTheCallersThread() {
        load("k");
        Thread caller = Thread.currentThread();
        try (Transaction tr = setup.createTransaction()) {
            tr.get(b("k")).join();
            CompletableFuture<Void> commit = tr.commit();
            assertThat(commit).as("read-only: answered at once").isCompleted();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            commit.thenRun(() -> ranOn.set(Thread.currentThread())).join();
            assertThat(ranOn.get()).as("no hop to the executor").isSameAs(caller);
        }
        String onThread = setup.runAsync(t -> t.get(b("k")).thenApply(v -> "read"))
                .thenApply(v -> Thread.currentThread() == caller ? "caller" : Thread.currentThread().getName()).join();
        assertThat(onThread).as("runAsync of reads completes without a hop").isEqualTo("caller");
        try (Transaction tr = db.createTransaction()) {
            tr.options().setReadYourWritesDisable();
            assertThat(tr.commit()).as("fdb-java's completion still hands it to the executor").isNotDone();
            queue.runQueued();
        }
    }

    // ---------------------------------------------------------------- range iteration

    @Test
    void aRangeIteratorsOnHasNextIsRangeQuerys() {
        // 300 rows: ITERATOR mode reads a first batch of 256, then one of up to 512.
        String[] keys = new String[300];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("r%03d", i);
        }
        load(keys);
        Transaction tr = db.createTransaction();
        AsyncIterator<KeyValue> it = tr.getRange(b("r"), b("s")).iterator();
        CompletableFuture<Boolean> first = it.onHasNext();
        assertThat(first).as("before the first batch arrived").isNotDone();
        assertThat(queue.await(first)).isTrue();
        int read = 0;
        for (; read < 256; read++) {
            // Rows buffered: AsyncUtil.READY_TRUE in RangeQuery, complete at once.
            assertThat(it.onHasNext()).isCompletedWithValue(true);
            assertThat(it.next().getKey()).isEqualTo(b(keys[read]));
        }
        // The first row of the batch issued the next read; its batch waits in the queue.
        CompletableFuture<Boolean> second = it.onHasNext();
        assertThat(second).as("the next batch, not yet handed over by the executor").isNotDone();
        assertThat(queue.await(second)).isTrue();
        for (; read < 300; read++) {
            assertThat(it.onHasNext()).isCompletedWithValue(true);
            assertThat(it.next().getKey()).isEqualTo(b(keys[read]));
        }
        // The second batch was the last: READY_FALSE, complete at once.
        assertThat(it.onHasNext()).isCompletedWithValue(false);
        tr.close();
    }

    @Test
    void aFailedBatchFailsOnHasNextOnTheExecutor() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Boolean> has = tr.getRange(b("a"), PAST_READABLE).iterator().onHasNext();
        assertThat(has).isNotDone();
        AtomicBoolean onExecutor = new AtomicBoolean();
        has.whenComplete((v, e) -> onExecutor.set(queue.inTask()));
        assertThat(queue.errorOf(has)).isEqualTo(2004);
        assertThat(onExecutor).isTrue();
        tr.close();
    }

    @Test
    void asListCollectsEveryBatch() {
        String[] keys = new String[600];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("r%03d", i);
        }
        load(keys);
        Transaction tr = db.createTransaction();
        CompletableFuture<List<KeyValue>> all = tr.getRange(b("r"), b("s")).asList();
        assertThat(all).isNotDone();
        assertThat(queue.await(all)).hasSize(600);
        CompletableFuture<List<KeyValue>> reversed = tr.getRange(b("r"), b("s"), 0, true, StreamingMode.SMALL).asList();
        assertThat(reversed).isNotDone();
        assertThat(queue.await(reversed).get(0).getKey()).isEqualTo(b("r599"));
        tr.close();
    }

    // ---------------------------------------------------------------- a direct executor

    /**
     * fdb-java with {@code Runnable::run}: {@code marshalWhenDone} runs inside {@code execute},
     * which for a ready native future runs inside the call — so an answer known at once is
     * complete when the call returns, and one the engine computes later (a commit, a watch)
     * completes on the engine thread that finishes it. Everything still works.
     */
    @Test
    void withADirectExecutorAnswersKnownAtOnceAreCompleteWhenReturnedAndAllElseWorks() {
        load("k1", "k2");
        try (Database direct = EngineDatabase.handle(engine, Runnable::run, null, Connection.direct("strata:memory"), null,
                Completion.FDB_JAVA)) {
            Transaction tr = direct.createTransaction();
            tr.set(b("k3"), b("own"));
            CompletableFuture<byte[]> own = tr.get(b("k3"));
            assertThat(own).isDone();
            assertThat(own.join()).isEqualTo(b("own"));
            CompletableFuture<byte[]> stored = tr.get(b("k1"));
            assertThat(stored).isDone();
            assertThat(stored.join()).isEqualTo(b("vk1"));
            assertThat(tr.getReadVersion()).isDone();
            CompletableFuture<List<KeyValue>> rows = tr.getRange(b("k"), b("l")).asList();
            assertThat(rows).isDone();
            assertThat(rows.join()).hasSize(3);
            assertThat(tr.getRange(b("k"), b("l"), 2).asList()).isDone();
            assertThat(tr.getRange(b("k"), b("l")).iterator().onHasNext()).isCompletedWithValue(true);
            CompletableFuture<Void> watch = tr.watch(b("k2"));
            Fdb.await(tr.commit());
            setup.run(t -> {
                t.set(b("k2"), b("changed"));
                return null;
            });
            Fdb.await(watch);
            tr.close();

            // A retry loop through onError, with a conflict on the first attempt.
            AtomicBoolean conflicted = new AtomicBoolean();
            byte[] value = Fdb.await(direct.runAsync(t -> t.get(b("k1")).thenCompose(v -> {
                if (conflicted.compareAndSet(false, true)) {
                    return CompletableFuture.failedFuture(new FDBException("not_committed", 1020));
                }
                return CompletableFuture.completedFuture(v);
            })));
            assertThat(value).isEqualTo(b("vk1"));
        }
    }

    // ---------------------------------------------------------------- stacked with other wrappers

    /**
     * {@link CountedTransaction} over a transaction that completes as fdb-java's: the futures
     * keep the discipline, and the events counted are the same, event for event, as with
     * immediate completion.
     */
    @Test
    void aCountedTransactionKeepsTheDisciplineAndCountsTheSame() {
        String[] keys = new String[300];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = String.format("r%03d", i);
        }
        load(keys);
        MapEventKeeper immediate = new MapEventKeeper();
        MapEventKeeper fdbJava = new MapEventKeeper();
        try (Database counted = EngineDatabase.handle(engine, queue, immediate, Connection.direct("strata:memory"), null,
                Completion.IMMEDIATE);
             Database countedLikeFdbJava = EngineDatabase.handle(engine, queue, fdbJava, Connection.direct("strata:memory"), null,
                     Completion.FDB_JAVA)) {
            countedScenario(counted, false);
            countedScenario(countedLikeFdbJava, true);
        }
        for (Events event : Events.values()) {
            assertThat(fdbJava.getCount(event)).as(event.name()).isEqualTo(immediate.getCount(event));
        }
        assertThat(fdbJava.getCount(Events.BYTES_FETCHED)).isPositive();
        assertThat(fdbJava.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(3); // two iterator batches, one asList batch
    }

    private void countedScenario(Database d, boolean likeFdbJava) {
        Transaction tr = d.createTransaction();
        assertThat(tr).isInstanceOf(CountedTransaction.class);
        CompletableFuture<byte[]> read = tr.get(b("r001"));
        assertThat(read.isDone()).isEqualTo(!likeFdbJava);
        queue.await(read);
        CompletableFuture<byte[]> cached = tr.snapshot().get(b("r001"));
        assertThat(cached.isDone()).isEqualTo(!likeFdbJava);
        queue.await(cached);
        queue.await(tr.getKey(KeySelector.firstGreaterThan(b("r001"))));
        AsyncIterator<KeyValue> it = tr.getRange(b("r"), b("s")).iterator();
        int rows = 0;
        while (queue.await(it.onHasNext())) {
            it.next();
            rows++;
        }
        assertThat(rows).isEqualTo(300);
        assertThat(queue.await(tr.snapshot().getRange(b("r"), b("s"), 10).asList())).hasSize(10);
        assertThat(queue.await(tr.getRange(b("r"), b("r1")).asList())).hasSize(100);
        tr.set(b("k"), b("v"));
        CompletableFuture<byte[]> stamp = tr.getVersionstamp();
        queue.await(tr.commit());
        assertThat(queue.await(stamp)).hasSize(10);
        Transaction retry = queue.await(tr.onError(new FDBException("not_committed", 1020)));
        retry.close();
    }


    @Test
    void transactionsFromOnErrorKeepTheDiscipline() {
        load("k1");
        Transaction tr = db.createTransaction();
        Transaction retry = queue.await(tr.onError(new FDBException("not_committed", 1020)));
        CompletableFuture<byte[]> read = retry.get(b("k1"));
        assertThat(read).isNotDone();
        assertThat(queue.await(read)).isEqualTo(b("vk1"));
        retry.close();
    }

    @Test
    void aSnapshotViewKeepsTheDiscipline() {
        load("k1");
        Transaction tr = db.createTransaction();
        tr.set(b("k2"), b("own"));
        CompletableFuture<byte[]> ownWrite = tr.snapshot().get(b("k2"));
        assertThat(ownWrite).isNotDone();
        assertThat(queue.await(ownWrite)).isEqualTo(b("own"));
        tr.close();
    }

    @Test
    void cancellingAHandedOutReadVersionOrVersionstampLeavesTheTransactionsOwn() {
        Engine slow = Strata.builder().latency(LatencyModel.cluster()).inMemoryEngine();
        try (Database d = EngineDatabase.handle(slow, queue, null, Connection.direct("strata:memory"), null, Completion.FDB_JAVA)) {
            Transaction tr = d.createTransaction();
            CompletableFuture<Long> readVersion = tr.getReadVersion();
            CompletableFuture<byte[]> stamp = tr.getVersionstamp();
            readVersion.cancel(true);
            stamp.cancel(true);
            // The transaction still has its read version and its versionstamp, and so does every later caller.
            assertThat(queue.await(tr.getReadVersion())).isPositive();
            assertThat(queue.await(tr.get(b("k1")))).isNull();
            tr.set(b("k1"), b("v"));
            CompletableFuture<byte[]> again = tr.getVersionstamp();
            queue.await(tr.commit());
            assertThat(queue.await(again)).hasSize(10);
            tr.close();
        } finally {
            slow.close();
        }
    }

    @Test
    void cancellingAWatchCancelsTheEnginesAndReleasesItsSlot() {
        db.options().setMaxWatches(1);
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> first = tr.watch(b("w"));
        first.cancel(true);
        queue.runQueued();
        // The engine's watch was cancelled too: its slot is free for another.
        Transaction other = db.createTransaction();
        CompletableFuture<Void> second = other.watch(b("w"));
        queue.runQueued();
        assertThat(second).as("not failed with too_many_watches").isNotDone();
        other.cancel();
        queue.settle(second);
        tr.close();
        other.close();
    }
}
