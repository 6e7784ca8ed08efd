package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.EventKeeper;
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
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link EventKeeper} events a transaction records, pinned against fdb-java 7.3.68
 * ({@code FDBTransaction}, {@code RangeQuery}, {@code FutureResult(s)}, {@code FutureKey}):
 * one {@code JNI_CALL} per native call, the fetch, row and byte events of range reads, and
 * nothing at all without a keeper.
 */
class EventKeeperTest {
    private final Database db = Strata.inMemory();
    private final MapEventKeeper keeper = new MapEventKeeper();

    @AfterEach
    void close() {
        db.close();
    }

    private Transaction counted() {
        return db.createTransaction(db.getExecutor(), keeper);
    }

    private void load(String... keys) {
        db.run(t -> {
            for (String k : keys) {
                t.set(b(k), b("v" + k));
            }
            return null;
        });
    }

    private long jni() {
        return keeper.getCount(Events.JNI_CALL);
    }

    // ---------------------------------------------------------------- who records

    @Test
    void withoutAKeeperATransactionIsTheEnginesOwn() {
        // Nothing to count, nothing to pay: no wrapper at all.
        assertThat(db.createTransaction()).isInstanceOf(EngineTransaction.class);
        assertThat(db.createTransaction(db.getExecutor(), null)).isInstanceOf(EngineTransaction.class);
    }

    @Test
    void aDatabaseOpenedWithAKeeperRecordsTheTransactionsItMakes() {
        EngineDatabase shared = (EngineDatabase) db;
        try (Database handle = EngineDatabase.handle(shared.engine(), db.getExecutor(), keeper, Connection.direct("strata:memory"), null, Completion.IMMEDIATE)) {
            try (Transaction tr = handle.createTransaction()) {
                await(tr.get(b("k")));
            }
            assertThat(jni()).isEqualTo(2); // get, close
            // As FDBDatabase.createTransaction(e, keeper): the keeper given wins, even null.
            try (Transaction tr = handle.createTransaction(db.getExecutor(), null)) {
                await(tr.get(b("k")));
            }
            assertThat(jni()).isEqualTo(2);
        }
    }

    @Test
    void theTransactionOnErrorHandsBackRecordsNothing() {
        // FDBTransaction.transfer makes the new wrapper without the keeper.
        Transaction tr = counted();
        Transaction retry = await(tr.onError(new FDBException("not_committed", 1020)));
        assertThat(jni()).isEqualTo(2); // onError, and the close it implies
        await(retry.get(b("k")));
        retry.set(b("k"), b("v"));
        await(retry.commit());
        retry.close();
        tr.close();
        assertThat(jni()).isEqualTo(2);
    }

    @Test
    void onErrorOfSomethingElseIsAnsweredInJava() {
        Transaction tr = counted();
        assertThat(tr.onError(new IllegalStateException("not FoundationDB's"))).isCompletedExceptionally();
        assertThat(jni()).isZero();
        tr.close();
        assertThat(jni()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- one native call each

    static Stream<Arguments> calls() {
        byte[] k = b("k");
        byte[] e = b("z");
        return Stream.of(
                call("getReadVersion", 1, t -> await(t.getReadVersion())),
                call("setReadVersion", 1, t -> t.setReadVersion(await(t.getReadVersion())), 1),
                call("get", 1, t -> await(t.get(k))),
                call("snapshot().get", 1, t -> await(t.snapshot().get(k))),
                call("getKey", 1, t -> await(t.getKey(KeySelector.firstGreaterOrEqual(k)))),
                call("snapshot().getKey", 1, t -> await(t.snapshot().getKey(KeySelector.firstGreaterOrEqual(k)))),
                call("getRange, not iterated", 0, t -> t.getRange(k, e)),
                call("getEstimatedRangeSizeBytes", 1, t -> await(t.getEstimatedRangeSizeBytes(k, e))),
                call("getEstimatedRangeSizeBytes(Range)", 1, t -> await(t.getEstimatedRangeSizeBytes(new Range(k, e)))),
                call("snapshot().getEstimatedRangeSizeBytes", 1, t -> await(t.snapshot().getEstimatedRangeSizeBytes(k, e))),
                call("getRangeSplitPoints", 0, t -> await(t.getRangeSplitPoints(k, e, 1000))),
                call("set", 1, t -> t.set(k, k)),
                call("clear(key)", 1, t -> t.clear(k)),
                call("clear(begin, end)", 1, t -> t.clear(k, e)),
                call("clear(Range)", 1, t -> t.clear(new Range(k, e))),
                call("clearRangeStartsWith", 1, t -> t.clearRangeStartsWith(k)),
                call("mutate", 1, t -> t.mutate(MutationType.ADD, k, new byte[8])),
                call("addReadConflictRange", 1, t -> t.addReadConflictRange(k, e)),
                call("addReadConflictKey", 1, t -> t.addReadConflictKey(k)),
                call("addReadConflictRangeIfNotSnapshot", 1, t -> t.addReadConflictRangeIfNotSnapshot(k, e)),
                call("snapshot().addReadConflictRangeIfNotSnapshot", 0, t -> t.snapshot().addReadConflictRangeIfNotSnapshot(k, e)),
                call("snapshot().addReadConflictKeyIfNotSnapshot", 0, t -> t.snapshot().addReadConflictKeyIfNotSnapshot(k)),
                call("addWriteConflictRange", 1, t -> t.addWriteConflictRange(k, e)),
                call("addWriteConflictKey", 1, t -> t.addWriteConflictKey(k)),
                call("an option", 1, t -> t.options().setTimeout(60_000)),
                call("an option through snapshot()", 1, t -> t.snapshot().options().setReadYourWritesDisable()),
                call("watch", 1, t -> t.watch(k).cancel(true)),
                call("commit", 1, t -> await(t.commit())),
                call("getCommittedVersion", 1, Transaction::getCommittedVersion),
                call("getVersionstamp", 1, Transaction::getVersionstamp),
                call("getApproximateSize", 1, t -> await(t.getApproximateSize())),
                call("cancel", 1, Transaction::cancel),
                call("getDatabase, getExecutor, snapshot(), run", 0, t -> {
                    t.getDatabase();
                    t.getExecutor();
                    t.snapshot().snapshot();
                    t.run(x -> null);
                    t.read(x -> null);
                }),
                call("set with a null key", 0, t -> assertThatThrownBy(() -> t.set(null, k)).isInstanceOf(IllegalArgumentException.class)),
                call("clear with a null key", 0, t -> assertThatThrownBy(() -> t.clear((byte[]) null)).isInstanceOf(IllegalArgumentException.class)));
    }

    private static Arguments call(String name, long jniCalls, Consumer<Transaction> call) {
        return call(name, jniCalls, call, 0);
    }

    /** {@code setup} native calls are made by the call itself before the one under test. */
    private static Arguments call(String name, long jniCalls, Consumer<Transaction> call, long setup) {
        return Arguments.of(name, jniCalls + setup, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void eachCallCountsTheNativeCallsFdbJavaMakes(String name, long jniCalls, Consumer<Transaction> call) {
        Transaction tr = counted();
        call.accept(tr);
        assertThat(jni()).as(name).isEqualTo(jniCalls);
    }

    @Test
    void closeCountsOnceAndAUseAfterItStillCounts() {
        // fdb-java counts before it finds the transaction closed.
        Transaction tr = counted();
        tr.close();
        tr.close();
        assertThat(jni()).isEqualTo(1);
        assertThatThrownBy(() -> tr.get(b("k"))).isInstanceOf(IllegalStateException.class);
        assertThat(jni()).isEqualTo(2);
    }

    // ---------------------------------------------------------------- bytes of single reads

    @Test
    void getCountsTheBytesOfTheValueItReturns() {
        load("k");
        Transaction tr = counted();
        await(tr.get(b("k")));
        await(tr.get(b("absent")));
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(b("vk").length);
    }

    @Test
    void getKeyCountsTheBytesOfTheKeyItReturns() {
        load("key");
        Transaction tr = counted();
        await(tr.snapshot().getKey(KeySelector.firstGreaterOrEqual(b("a"))));
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(3);
    }

    @Test
    void aReadThatFailsCountsNoBytes() {
        Transaction tr = counted();
        tr.setReadVersion(await(db.createTransaction().getReadVersion()) + 1_000_000_000L);
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1009);
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isZero();
        assertThat(jni()).isEqualTo(2);
    }

    @Test
    void aVersionstampCountsItsTenBytes() {
        Transaction tr = counted();
        tr.set(b("k"), b("v"));
        var stamp = tr.getVersionstamp();
        await(tr.commit());
        assertThat(await(stamp)).hasSize(10);
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(10);
    }

    @Test
    void aReadThatWaitsIsCountedBeforeItsFutureCompletes() {
        Database slow = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(200), Duration.ZERO)).inMemory();
        try (slow) {
            slow.run(t -> {
                t.set(b("k"), b("value"));
                return null;
            });
            Transaction tr = slow.createTransaction(ForkJoinPool.commonPool(), keeper);
            // The read waits 200 ms, so its future is relayed; the count must precede the value.
            var read = tr.get(b("k"));
            assertThat(await(read)).isEqualTo(b("value"));
            assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(5);
            tr.close();
        }
    }

    // ---------------------------------------------------------------- range reads

    @Test
    void anIteratedRangeCountsOneFetchItsNativeCallsAndEveryRow() {
        load("a", "b", "c");
        Transaction tr = counted();
        List<KeyValue> rows = tr.getRange(b("a"), b("z")).asList().join();
        assertThat(rows).hasSize(3);
        // getRange_internal, getIfDone_internal, getResults: three calls for the one batch.
        assertThat(jni()).isEqualTo(3);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_MISS)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_HIT)).isZero();
        assertThat(keeper.getCount(Events.RANGE_QUERY_RECORDS_FETCHED)).isEqualTo(3);
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(3 * (1 + 2 + 8));
        // MapEventKeeper.timeNanos counts the event too.
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_CHUNK_FAILED)).isZero();
    }

    @Test
    void everyBatchIsAFetch() {
        int rows = RangeIterable.FIRST_ITERATOR_CHUNK + 10;
        db.run(t -> {
            for (int i = 0; i < rows; i++) {
                t.set(b(String.format("k%05d", i)), b("v"));
            }
            return null;
        });
        Transaction tr = counted();
        AsyncIterator<KeyValue> it = tr.snapshot().getRange(b("k"), b("l")).iterator();
        int seen = 0;
        while (it.hasNext()) {
            it.next();
            seen++;
        }
        assertThat(seen).isEqualTo(rows);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(2);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isEqualTo(2);
        assertThat(jni()).isEqualTo(6);
        assertThat(keeper.getCount(Events.RANGE_QUERY_RECORDS_FETCHED)).isEqualTo(rows);
    }

    @Test
    void anEmptyRangeIsStillAFetch() {
        Transaction tr = counted();
        assertThat(tr.getRange(b("a"), b("z")).asList().join()).isEmpty();
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(1);
        assertThat(jni()).isEqualTo(3);
    }

    @Test
    void anExactListIsOneReadWithoutFetchOrRowEvents() {
        // RangeQuery.asList reads EXACT (ITERATOR with a limit) through getRange_internal, not the iterator.
        load("a", "b", "c");
        Transaction tr = counted();
        assertThat(tr.getRange(b("a"), b("z"), 2).asList().join()).hasSize(2);
        assertThat(jni()).isEqualTo(3);
        assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_MISS)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isZero();
        assertThat(keeper.getCount(Events.RANGE_QUERY_RECORDS_FETCHED)).isZero();
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isZero();
    }

    @Test
    void aBatchThatFailsIsAFailedChunk() {
        Transaction tr = counted();
        tr.setReadVersion(await(db.createTransaction().getReadVersion()) + 1_000_000_000L);
        AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
        assertThat(errorOf(it.onHasNext())).isEqualTo(1009);
        assertThat(keeper.getCount(Events.RANGE_QUERY_CHUNK_FAILED)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_MISS)).isZero();
        assertThat(jni()).isEqualTo(1 + 2); // setReadVersion; the read and its outcome
    }

    @Test
    void anExactIteratorWithoutALimitIsAFailedChunk() {
        // The C client fails the batch (exact_mode_without_limits): a native call, then its error.
        Transaction tr = counted();
        AsyncIterator<KeyValue> it = tr.getRange(KeySelector.firstGreaterOrEqual(b("a")), KeySelector.firstGreaterOrEqual(b("z")), 0,
                false, StreamingMode.EXACT).iterator();
        assertThat(errorOf(it.onHasNext())).isEqualTo(2210);
        assertThat(keeper.getCount(Events.RANGE_QUERY_CHUNK_FAILED)).isEqualTo(1);
        assertThat(jni()).isEqualTo(2);
    }

    @Test
    void removeClearsThroughTheTransaction() {
        load("a");
        Transaction tr = counted();
        AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
        it.next();
        long before = jni();
        it.remove();
        assertThat(jni()).isEqualTo(before + 1);
    }

    @Test
    void cancellingAnIteratorFailsItsOutstandingBatchOnce() {
        Database slow = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(50), Duration.ZERO)).inMemory();
        try (slow) {
            Transaction tr = slow.createTransaction(ForkJoinPool.commonPool(), keeper);
            AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
            it.cancel();
            assertThat(keeper.getCount(Events.RANGE_QUERY_CHUNK_FAILED)).isEqualTo(1);
            assertThat(keeper.getCount(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isEqualTo(1);
            // commit waits for the batch, which then completes: nothing more is counted for it.
            await(tr.commit());
            assertThat(keeper.getCount(Events.RANGE_QUERY_CHUNK_FAILED)).isEqualTo(1);
            assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_MISS)).isZero();
            assertThat(jni()).isEqualTo(2); // the batch read, the commit
            tr.close();
        }
    }

    @Test
    void aMappedRangeCountsAsARangeRead() {
        // MappedRangeQuery records the same events as RangeQuery; a row's bytes are its key and value.
        byte[] index = com.apple.foundationdb.tuple.Tuple.from("I", 1).pack();
        byte[] record = com.apple.foundationdb.tuple.Tuple.from("R", 1).pack();
        db.run(t -> {
            t.set(index, new byte[0]);
            t.set(record, b("rec"));
            return null;
        });
        byte[] mapper = com.apple.foundationdb.tuple.Tuple.from("R", "{K[1]}", "{...}").pack();
        Range indexes = Range.startsWith(com.apple.foundationdb.tuple.Tuple.from("I").pack());
        Transaction tr = counted();
        List<com.apple.foundationdb.MappedKeyValue> rows = tr.getMappedRange(KeySelector.firstGreaterOrEqual(indexes.begin),
                KeySelector.firstGreaterOrEqual(indexes.end), mapper, 0, false, StreamingMode.WANT_ALL).asList().join();
        assertThat(rows).hasSize(1);
        assertThat(jni()).isEqualTo(3);
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCHES)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_DIRECT_BUFFER_MISS)).isEqualTo(1);
        assertThat(keeper.getCount(Events.RANGE_QUERY_RECORDS_FETCHED)).isEqualTo(1);
        assertThat(keeper.getCount(Events.BYTES_FETCHED)).isEqualTo(index.length + 8);
        assertThatThrownBy(() -> tr.getMappedRange(KeySelector.firstGreaterOrEqual(indexes.begin), KeySelector.firstGreaterOrEqual(indexes.end),
                null, 0, false, StreamingMode.WANT_ALL)).isInstanceOf(IllegalArgumentException.class);
        assertThat(jni()).isEqualTo(3); // refused in Java, before any native call
    }

    /**
     * What the Record Layer's {@code MetricsCollectionTest} needs to see through its
     * {@code EventKeeperTranslator}: native calls, and the time of range fetches (its
     * {@code FETCHES} event).
     */
    @Test
    void aRangeScanRecordsNativeCallsAndFetchTime() {
        load("a", "b");
        try (Transaction tr = counted()) {
            tr.getRange(b("a"), b("z")).asList().join();
            tr.commit().join();
        }
        assertThat(jni()).isPositive();
        assertThat(keeper.getCount(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isPositive();
        assertThat(keeper.getTimeNanos(Events.RANGE_QUERY_FETCH_TIME_NANOS)).isNotNegative();
    }
}
