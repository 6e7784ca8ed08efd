package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.conflicts;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.setting;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.Strata;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The read conflict ranges reads leave, observed through conflicts: T1 reads, T2 writes one
 * key and commits, T1 writes an unrelated key and commits — it fails with 1020 exactly when
 * T2's key is in a read conflict range of T1. The database holds a, c, e, g.
 *
 * <p>FoundationDB's rules (RYW {@code addConflictRange} and {@code updateConflictMap}): a
 * {@code get} adds {@code [k, k\0)}; a range read adds the range it examined, up to the last
 * row returned when a limit stopped it; a selector adds the keys between its anchor and its
 * answer; parts of any of these that the transaction's own writes answer (sets, clears,
 * independent atomic operations) are left out; snapshot reads add nothing.
 */
class ReadConflictRangeTest {
    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "c", "e", "g");
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static Consumer<Transaction> getting(String key) {
        return t -> t.get(b(key)).join();
    }

    private static Consumer<Transaction> resolving(KeySelector sel) {
        return t -> t.getKey(sel).join();
    }

    private static Consumer<Transaction> ranging(String begin, String end, int limit, boolean reverse) {
        return t -> t.getRange(b(begin), b(end), limit, reverse).asList().join();
    }

    private boolean conflictsWith(Consumer<Transaction> reads, String written) {
        return conflicts(db, reads, setting(written));
    }

    private boolean conflictsWith(Consumer<Transaction> setup, Consumer<Transaction> reads, String written) {
        return conflicts(db, setup, reads, setting(written));
    }

    @Test
    void getConflictsOnExactlyItsKey() {
        assertThat(conflictsWith(getting("c"), "c")).isTrue();
        assertThat(conflictsWith(getting("c"), "c\u0000")).isFalse();
        assertThat(conflictsWith(getting("c"), "b")).isFalse();
    }

    @Test
    void getOfAnAbsentKeyConflictsWhenItIsCreated() {
        assertThat(conflictsWith(getting("d"), "d")).isTrue();
    }

    @Test
    void getAnsweredByOwnSetAddsNothing() {
        assertThat(conflictsWith(t -> t.set(b("c"), b("mine")), getting("c"), "c")).isFalse();
    }

    @Test
    void getAnsweredByOwnClearOrClearRangeAddsNothing() {
        assertThat(conflictsWith(t -> t.clear(b("c")), getting("c"), "c")).isFalse();
        assertThat(conflictsWith(t -> t.clear(b("b"), b("f")), getting("c"), "c")).isFalse();
    }

    @Test
    void getThroughOwnAtomicOpOnUnknownValueConflicts() {
        assertThat(conflictsWith(t -> t.mutate(MutationType.ADD, b("c"), new byte[] {1}), getting("c"), "c")).isTrue();
    }

    @Test
    void getThroughAtomicOpOnOwnClearAddsNothing() {
        Consumer<Transaction> clearThenAdd = t -> {
            t.clear(b("c"));
            t.mutate(MutationType.ADD, b("c"), new byte[] {1});
        };
        assertThat(conflictsWith(clearThenAdd, getting("c"), "c")).isFalse();
    }

    @Test
    void unlimitedRangeConflictsOnTheWholeRange() {
        Consumer<Transaction> read = ranging("b", "f", 0, false);
        assertThat(conflictsWith(read, "b")).isTrue();
        assertThat(conflictsWith(read, "d")).isTrue();
        assertThat(conflictsWith(read, "e\u00ff")).isTrue();
        assertThat(conflictsWith(read, "f")).isFalse();
        assertThat(conflictsWith(read, "a")).isFalse();
        assertThat(conflictsWith(ranging("b", "f", 0, true), "d")).isTrue();
    }

    @Test
    void forwardRangeWithLimitConflictsUpToTheLastRowReturned() {
        Consumer<Transaction> read = ranging("a", "z", 2, false);
        assertThat(conflictsWith(read, "a")).isTrue();
        assertThat(conflictsWith(read, "b")).isTrue();
        assertThat(conflictsWith(read, "c")).isTrue();
        assertThat(conflictsWith(read, "c\u0000")).isFalse();
        assertThat(conflictsWith(read, "d")).isFalse();
        assertThat(conflictsWith(read, "y")).isFalse();
    }

    @Test
    void forwardRangeWithLimitInsideTheDataConflictsUpToTheLastRowReturned() {
        Consumer<Transaction> read = ranging("a", "f", 2, false);
        assertThat(conflictsWith(read, "c")).isTrue();
        assertThat(conflictsWith(read, "d")).isFalse();
    }

    @Test
    void reverseRangeWithLimitConflictsFromTheLastRowReturned() {
        Consumer<Transaction> read = ranging("a", "z", 2, true);
        assertThat(conflictsWith(read, "y")).isTrue();
        assertThat(conflictsWith(read, "e")).isTrue();
        assertThat(conflictsWith(read, "d")).isFalse();
        assertThat(conflictsWith(read, "z")).isFalse();
    }

    @Test
    void rangeWhoseEndSelectorStepsPastTheLastKeyConflictsToTheEnd() {
        Consumer<Transaction> read = t -> t.getRange(KeySelector.firstGreaterOrEqual(b("b")),
                KeySelector.firstGreaterOrEqual(b("e")).add(3)).asList().join();
        assertThat(conflictsWith(read, "x")).isTrue();
        assertThat(conflictsWith(read, "a")).isFalse();
        Consumer<Transaction> plain = ranging("b", "x", 0, false);
        assertThat(conflictsWith(plain, "x")).as("firstGreaterOrEqual(x) finding nothing depends on nothing past x").isFalse();
    }

    @Test
    void rangeReadLeavesOutWhatOwnWritesAnswer() {
        Consumer<Transaction> clearMiddle = t -> t.clear(b("c"), b("f"));
        Consumer<Transaction> read = ranging("a", "z", 0, false);
        assertThat(conflictsWith(clearMiddle, read, "d")).isFalse();
        assertThat(conflictsWith(clearMiddle, read, "c")).isFalse();
        assertThat(conflictsWith(clearMiddle, read, "f")).isTrue();
        assertThat(conflictsWith(clearMiddle, read, "b")).isTrue();
        Consumer<Transaction> setOne = t -> t.set(b("d"), b("mine"));
        assertThat(conflictsWith(setOne, read, "d")).isFalse();
        assertThat(conflictsWith(setOne, read, "d\u0000")).isTrue();
    }

    @Test
    void rangeReadWhollyAnsweredByOwnWritesAddsNothing() {
        assertThat(conflictsWith(t -> t.clear(b("a"), b("z")), ranging("b", "y", 0, false), "c")).isFalse();
    }

    @Test
    void snapshotReadsAddNothing() {
        assertThat(conflictsWith(t -> t.snapshot().get(b("c")).join(), "c")).isFalse();
        assertThat(conflictsWith(t -> t.snapshot().getKey(KeySelector.firstGreaterThan(b("a"))).join(), "b")).isFalse();
        assertThat(conflictsWith(t -> t.snapshot().getRange(b("a"), b("z")).asList().join(), "d")).isFalse();
    }

    @Test
    void firstGreaterOrEqualConflictsFromItsKeyThroughTheAnswer() {
        Consumer<Transaction> read = resolving(KeySelector.firstGreaterOrEqual(b("b")));
        assertThat(conflictsWith(read, "b")).isTrue();
        assertThat(conflictsWith(read, "bb")).isTrue();
        assertThat(conflictsWith(read, "c")).isTrue();
        assertThat(conflictsWith(read, "d")).isFalse();
        assertThat(conflictsWith(read, "a")).isFalse();
    }

    @Test
    void firstGreaterThanConflictsAfterItsKeyThroughTheAnswer() {
        Consumer<Transaction> read = resolving(KeySelector.firstGreaterThan(b("c")));
        assertThat(conflictsWith(read, "c")).isFalse();
        assertThat(conflictsWith(read, "d")).isTrue();
        assertThat(conflictsWith(read, "e")).isTrue();
        assertThat(conflictsWith(read, "f")).isFalse();
    }

    @Test
    void lastLessThanConflictsFromTheAnswerUpToItsKey() {
        Consumer<Transaction> read = resolving(KeySelector.lastLessThan(b("d")));
        assertThat(conflictsWith(read, "c")).isTrue();
        assertThat(conflictsWith(read, "cc")).isTrue();
        assertThat(conflictsWith(read, "d")).isFalse();
        assertThat(conflictsWith(read, "b")).isFalse();
    }

    @Test
    void lastLessOrEqualConflictsFromTheAnswerThroughItsKey() {
        Consumer<Transaction> read = resolving(KeySelector.lastLessOrEqual(b("e")));
        assertThat(conflictsWith(read, "e")).isTrue();
        assertThat(conflictsWith(read, "d")).isFalse();
        Consumer<Transaction> between = resolving(KeySelector.lastLessOrEqual(b("d")));
        assertThat(conflictsWith(between, "d")).isTrue();
        assertThat(conflictsWith(between, "cc")).isTrue();
        assertThat(conflictsWith(between, "b")).isFalse();
    }

    @Test
    void selectorWithOffsetConflictsOnEverythingItStepsOver() {
        Consumer<Transaction> forward = resolving(KeySelector.firstGreaterOrEqual(b("a")).add(2));
        assertThat(conflictsWith(forward, "b")).isTrue();
        assertThat(conflictsWith(forward, "e")).isTrue();
        assertThat(conflictsWith(forward, "f")).isFalse();
        Consumer<Transaction> backward = resolving(KeySelector.lastLessOrEqual(b("g")).add(-2));
        assertThat(conflictsWith(backward, "d")).isTrue();
        assertThat(conflictsWith(backward, "g")).isTrue();
        assertThat(conflictsWith(backward, "b")).isFalse();
    }

    @Test
    void selectorAnsweredPartlyByOwnWritesLeavesThemOut() {
        Consumer<Transaction> setBb = t -> t.set(b("bb"), b("mine"));
        Consumer<Transaction> read = resolving(KeySelector.firstGreaterOrEqual(b("b")));
        assertThat(conflictsWith(setBb, read, "ba")).isTrue();
        assertThat(conflictsWith(setBb, read, "bb")).isFalse();
        assertThat(conflictsWith(setBb, read, "c")).isFalse();
        Consumer<Transaction> clearThenSet = t -> {
            t.clear(b("b"), b("bb"));
            t.set(b("bb"), b("mine"));
        };
        assertThat(conflictsWith(clearThenSet, read, "ba")).isFalse();
    }

    @Test
    void iterationAbandonedEarlyConflictsOnlyOnWhatWasRead() {
        db.run(t -> {
            for (int i = 0; i < 3_000; i++) {
                t.set(b(String.format("k%04d", i)), b("v"));
            }
            return null;
        });
        Consumer<Transaction> firstRow = t -> {
            AsyncIterator<KeyValue> it = t.getRange(b("k"), b("l")).iterator();
            it.next();
            it.cancel();
        };
        assertThat(conflictsWith(firstRow, "k0000")).isTrue();
        assertThat(conflictsWith(firstRow, "k2999")).isFalse();
    }

    @Test
    void readYourWritesDisabledReadsConflictEvenOnOwnWrites() {
        Consumer<Transaction> setup = t -> {
            t.options().setReadYourWritesDisable();
            t.set(b("c"), b("mine"));
        };
        assertThat(conflictsWith(setup, getting("c"), "c")).isTrue();
        assertThat(conflictsWith(setup, ranging("b", "d", 0, false), "c")).isTrue();
    }

    @Test
    void explicitReadConflictRangeLeavesOutOwnWrites() {
        Consumer<Transaction> setC = t -> t.set(b("c"), b("mine"));
        assertThat(conflictsWith(setC, t -> t.addReadConflictKey(b("c")), "c")).isFalse();
        assertThat(conflictsWith(setC, t -> t.addReadConflictRange(b("a"), b("z")), "c")).isFalse();
        assertThat(conflictsWith(setC, t -> t.addReadConflictRange(b("a"), b("z")), "d")).isTrue();
        assertThat(conflictsWith(t -> t.addReadConflictRange(b("a"), b("z")), "c")).isTrue();
    }

    @Test
    void metadataVersionKeyTakesAnExplicitReadConflictWithoutSystemKeys() {
        byte[] key = b("\u00ff/metadataVersion");
        byte[] stamp = new byte[14];
        boolean conflicted = conflicts(db, t -> t.addReadConflictKey(key),
                t -> t.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, key, Arrays.copyOf(stamp, 14)));
        assertThat(conflicted).isTrue();
    }
}
