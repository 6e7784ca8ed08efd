package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.Strata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code getRange}: every overload, limits, order, streaming modes, the iterator protocol,
 * key-space limits and ranges merged with the transaction's own writes. The database holds
 * a, b, c, d, e (each key its own value) unless a test loads more.
 */
class GetRangeTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "b", "c", "d", "e");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private static KeySelector fge(String k) {
        return KeySelector.firstGreaterOrEqual(b(k));
    }

    private static KeySelector fgt(String k) {
        return KeySelector.firstGreaterThan(b(k));
    }

    private static List<String> list(AsyncIterable<KeyValue> range) {
        return keys(range.asList().join());
    }

    /** Reads through the blocking iterator protocol. */
    private static List<String> iterate(AsyncIterable<KeyValue> range) {
        List<String> out = new ArrayList<>();
        AsyncIterator<KeyValue> it = range.iterator();
        while (it.hasNext()) {
            out.add(s(it.next().getKey()));
        }
        return out;
    }

    private static List<String> names(String prefix, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(String.format("%s%04d", prefix, i));
        }
        return out;
    }

    @Test
    void byteArrayOverloads() {
        assertThat(list(tr.getRange(b("b"), b("e")))).containsExactly("b", "c", "d");
        assertThat(list(tr.getRange(b("b"), b("e"), 2))).containsExactly("b", "c");
        assertThat(list(tr.getRange(b("b"), b("e"), 2, true))).containsExactly("d", "c");
        assertThat(list(tr.getRange(b("b"), b("e"), 2, true, StreamingMode.WANT_ALL))).containsExactly("d", "c");
    }

    @Test
    void rangeOverloads() {
        Range r = new Range(b("b"), b("e"));
        assertThat(list(tr.getRange(r))).containsExactly("b", "c", "d");
        assertThat(list(tr.getRange(r, 1))).containsExactly("b");
        assertThat(list(tr.getRange(r, 1, true))).containsExactly("d");
        assertThat(list(tr.getRange(r, 0, true, StreamingMode.SMALL))).containsExactly("d", "c", "b");
    }

    @Test
    void keySelectorOverloads() {
        assertThat(list(tr.getRange(fgt("a"), fgt("d")))).containsExactly("b", "c", "d");
        assertThat(list(tr.getRange(fgt("a"), fgt("d"), 2))).containsExactly("b", "c");
        assertThat(list(tr.getRange(fgt("a"), fgt("d"), 2, true))).containsExactly("d", "c");
        assertThat(list(tr.getRange(fgt("a"), fgt("d"), 0, true, StreamingMode.MEDIUM))).containsExactly("d", "c", "b");
        assertThat(list(tr.getRange(KeySelector.lastLessThan(b("b")), KeySelector.lastLessOrEqual(b("c")))))
                .as("[a, c)").containsExactly("a", "b");
        assertThat(list(tr.getRange(fge("a").add(1), fge("e").add(-1)))).as("[b, d)").containsExactly("b", "c");
    }

    @Test
    void selectorsPastTheEndsClampToTheKeySpace() {
        assertThat(list(tr.getRange(KeySelector.lastLessThan(b("a")), fge("c")))).containsExactly("a", "b");
        assertThat(list(tr.getRange(fge("d"), fgt("e").add(10)))).containsExactly("d", "e");
    }

    @ParameterizedTest
    @EnumSource(StreamingMode.class)
    void everyStreamingModeGivesTheSameRows(StreamingMode mode) {
        int limit = mode == StreamingMode.EXACT ? 10 : 0;
        assertThat(list(tr.getRange(b("a"), b("z"), limit, false, mode))).containsExactly("a", "b", "c", "d", "e");
        assertThat(iterate(tr.getRange(b("a"), b("z"), limit, false, mode))).containsExactly("a", "b", "c", "d", "e");
        assertThat(list(tr.getRange(b("a"), b("z"), 3, true, mode))).containsExactly("e", "d", "c");
        assertThat(iterate(tr.getRange(b("a"), b("z"), 3, true, mode))).containsExactly("e", "d", "c");
    }

    @Test
    void exactModeWithoutLimitFails() {
        AsyncIterable<KeyValue> range = tr.getRange(b("a"), b("z"), 0, false, StreamingMode.EXACT);
        assertThat(errorCode(range.asList())).isEqualTo(2210);
        assertThat(errorCode(() -> range.iterator().hasNext())).isEqualTo(2210);
    }

    @Test
    void limitZeroIsUnlimited() {
        assertThat(list(tr.getRange(b("a"), b("z"), 0))).containsExactly("a", "b", "c", "d", "e");
        assertThat(list(tr.getRange(b("a"), b("z"), ReadTransaction.ROW_LIMIT_UNLIMITED))).hasSize(5);
    }

    @Test
    void limitBelowMinusOneIsInvalid() {
        assertThat(errorCode(tr.getRange(b("a"), b("z"), -2).asList())).isEqualTo(2012);
        assertThat(errorCode(() -> tr.getRange(b("a"), b("z"), -7, true).iterator().hasNext())).isEqualTo(2012);
        assertThat(errorCode(tr.getRange(b("a"), b("z"), -2, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2012);
    }

    /**
     * -1 is the native client's "unlimited": fdb-java's asList turns the default ITERATOR
     * mode into EXACT for any non-zero limit, and EXACT without a limit fails; other modes
     * read one unlimited batch.
     */
    @Test
    void limitMinusOneIsTheNativeUnlimited() {
        assertThat(errorCode(tr.getRange(b("a"), b("z"), -1).asList())).isEqualTo(2210);
        assertThat(list(tr.getRange(b("a"), b("z"), -1, false, StreamingMode.WANT_ALL))).containsExactly("a", "b", "c", "d", "e");
        assertThat(iterate(tr.getRange(b("a"), b("z"), -1))).containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void invertedRangesAreEmpty() {
        assertThat(list(tr.getRange(b("e"), b("b")))).isEmpty();
        assertThat(list(tr.getRange(b("c"), b("c")))).isEmpty();
        assertThat(list(tr.getRange(b("e"), b("b"), 0, true))).isEmpty();
        assertThat(list(tr.getRange(fge("d"), fge("b")))).isEmpty();
        assertThat(list(tr.getRange(fgt("c"), KeySelector.lastLessOrEqual(b("c"))))).as("[d, c)").isEmpty();
        assertThat(iterate(tr.getRange(b("e"), b("b")))).isEmpty();
    }

    /** Own writes: bb set, a compared-and-cleared, c cleared, [d, e) cleared, e and f appended to. */
    private void writeMix() {
        tr.set(b("bb"), b("mine"));
        tr.mutate(MutationType.COMPARE_AND_CLEAR, b("a"), b("a"));
        tr.clear(b("c"));
        tr.clear(b("d"), b("e"));
        tr.mutate(MutationType.APPEND_IF_FITS, b("e"), b("+"));
        tr.mutate(MutationType.APPEND_IF_FITS, b("f"), b("+"));
    }

    @Test
    void forwardRangeMergesOwnWrites() {
        writeMix();
        List<KeyValue> rows = tr.getRange(b(""), b("z")).asList().join();
        assertThat(keys(rows)).containsExactly("b", "bb", "e", "f");
        assertThat(rows).extracting(kv -> s(kv.getValue())).containsExactly("b", "mine", "e+", "+");
        assertThat(list(tr.getRange(b(""), b("z"), 2))).containsExactly("b", "bb");
        assertThat(list(tr.getRange(b("bb"), b("f"), 2))).containsExactly("bb", "e");
        assertThat(iterate(tr.getRange(b(""), b("z"), 3))).containsExactly("b", "bb", "e");
    }

    @Test
    void reverseRangeMergesOwnWrites() {
        writeMix();
        assertThat(list(tr.getRange(b(""), b("z"), 0, true))).containsExactly("f", "e", "bb", "b");
        assertThat(list(tr.getRange(b(""), b("z"), 2, true))).containsExactly("f", "e");
        assertThat(list(tr.getRange(b("a"), b("e"), 2, true))).containsExactly("bb", "b");
        assertThat(iterate(tr.getRange(b(""), b("f"), 3, true))).containsExactly("e", "bb", "b");
    }

    @Test
    void selectorsResolveThroughOwnWrites() {
        writeMix();
        assertThat(list(tr.getRange(fgt("b"), fge("b").add(3)))).as("[bb, f)").containsExactly("bb", "e");
    }

    @Test
    void eachIteratorReadsAfresh() {
        AsyncIterable<KeyValue> range = tr.getRange(b("a"), b("z"));
        assertThat(iterate(range)).containsExactly("a", "b", "c", "d", "e");
        tr.set(b("cc"), b("new"));
        tr.clear(b("a"));
        assertThat(iterate(range)).containsExactly("b", "c", "cc", "d", "e");
        assertThat(list(range)).containsExactly("b", "c", "cc", "d", "e");
    }

    /** fdb-java starts the first read when the iterator is created, so later writes are not in its first batch. */
    @Test
    void iteratorReadsItsFirstBatchWhenCreated() {
        AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
        tr.set(b("bb"), b("later"));
        List<String> seen = new ArrayList<>();
        it.forEachRemaining(kv -> seen.add(s(kv.getKey())));
        assertThat(seen).containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void iteratorProtocol() {
        AsyncIterator<KeyValue> it = tr.getRange(b("c"), b("z")).iterator();
        assertThat(it.onHasNext().join()).isTrue();
        assertThat(it.hasNext()).isTrue();
        assertThat(s(it.next().getKey())).isEqualTo("c");
        assertThat(s(it.next().getKey())).as("next without hasNext").isEqualTo("d");
        assertThat(s(it.next().getKey())).isEqualTo("e");
        assertThat(it.hasNext()).isFalse();
        assertThat(it.onHasNext().join()).isFalse();
    }

    /**
     * fdb-java's {@code AsyncRangeIterator.next()} waits with
     * {@code nextFuture.thenApply(hasNext -> { ... throw new NoSuchElementException(); }).join()},
     * so past the end it throws a {@code CompletionException} around the
     * {@code NoSuchElementException} ({@code bindings/java/src/main/com/apple/foundationdb/RangeQuery.java}).
     */
    @Test
    void nextPastTheEndThrowsCompletionExceptionOfNoSuchElement() {
        AsyncIterator<KeyValue> it = tr.getRange(b("e"), b("z")).iterator();
        it.next();
        assertThatThrownBy(it::next).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void nextOfAnEmptyRangeThrowsCompletionExceptionOfNoSuchElement() {
        AsyncIterator<KeyValue> it = tr.getRange(b("x"), b("z")).iterator();
        assertThatThrownBy(it::next).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void iteratorRemoveClearsTheLastKeyReturned() {
        AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
        assertThatThrownBy(it::remove).isInstanceOf(IllegalStateException.class);
        it.next();
        it.next();
        it.remove();
        assertThat(tr.get(b("b")).join()).isNull();
        assertThat(list(tr.getRange(b("a"), b("z")))).containsExactly("a", "c", "d", "e");
    }

    @Test
    void cancelledIteratorRefusesFurtherUse() {
        AsyncIterator<KeyValue> it = tr.getRange(b("a"), b("z")).iterator();
        it.next();
        it.cancel();
        assertThatThrownBy(it::hasNext).isInstanceOf(CancellationException.class);
        assertThatThrownBy(it::next).isInstanceOf(CancellationException.class);
    }

    @Test
    void manyRowsAcrossBatches() {
        List<String> all = names("k", 0, 1_500);
        db.run(t -> {
            for (String k : all) {
                t.set(b(k), b("v"));
            }
            return null;
        });
        byte[] from = b("k");
        byte[] to = b("l");
        assertThat(iterate(tr.getRange(from, to))).containsExactlyElementsOf(all);
        List<String> reversed = new ArrayList<>(all);
        Collections.reverse(reversed);
        assertThat(iterate(tr.getRange(from, to, 0, true))).containsExactlyElementsOf(reversed);
        assertThat(iterate(tr.getRange(from, to, 700))).containsExactlyElementsOf(all.subList(0, 700));
        assertThat(iterate(tr.getRange(from, to, 700, true, StreamingMode.SMALL))).containsExactlyElementsOf(reversed.subList(0, 700));
        assertThat(list(tr.getRange(from, to, 0, false, StreamingMode.SERIAL))).containsExactlyElementsOf(all);
    }

    @Test
    void systemKeyRangesNeedAnOption() {
        assertThat(errorCode(tr.getRange(b("\u00ff"), b("\u00ff\u00ff")).asList())).isEqualTo(2004);
        assertThat(errorCode(tr.getRange(b("a"), b("\u00ff\u0000")).asList())).isEqualTo(2004);
        assertThat(errorCode(tr.snapshot().getRange(b("\u00ff/a"), b("\u00ff/b")).asList())).isEqualTo(2004);
        assertThat(errorCode(() -> tr.getRange(fge("\u00ff\u0001"), fge("\u00ff\u0002")).iterator().hasNext())).isEqualTo(2004);
        assertThat(list(tr.getRange(b(""), b("\u00ff")))).hasSize(5);
        tr.options().setReadSystemKeys();
        // The system keys hold nothing but the engine's shard map (\xff/keyServers/, LocalityTest).
        assertThat(list(tr.getRange(b("\u00ff"), b("\u00ff\u00ff")))).containsExactly("\u00ff/keyServers/", "\u00ff/keyServers/\u00ff\u00ff");
        assertThat(list(tr.getRange(b("d"), b("\u00ff\u00ff"))))
                .containsExactly("d", "e", "\u00ff/keyServers/", "\u00ff/keyServers/\u00ff\u00ff");
        assertThat(errorCode(tr.getRange(b("a"), b("\u00ff\u00ff\u0000")).asList())).isEqualTo(2004);
    }

    @Test
    void clearRangeStartsWithHidesThePrefix() {
        load(db, "p/1", "p/2", "p0", "p");
        tr.clearRangeStartsWith(b("p/"));
        assertThat(list(tr.getRange(Range.startsWith(b("p/"))))).isEmpty();
        assertThat(list(tr.getRange(b("p"), b("q")))).containsExactly("p", "p0");
    }

    @Test
    void rangeReadFailsWithTheRangeErrorNotACompletionOfNull() {
        // A failed read surfaces as CompletionException(FDBException) from join().
        assertThatThrownBy(() -> tr.getRange(b("a"), b("z"), -3).asList().join())
                .isInstanceOf(CompletionException.class);
    }
}
