package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transaction's read cache, FoundationDB's {@code SnapshotCache}: what a transaction read
 * once is answered again without the store, so after the 5 s window — where a read of the
 * store fails with {@code transaction_too_old} — it still gets its answer, while anything it
 * has not read (or not read whole) goes to the store and fails.
 *
 * <p>Each test reads, moves the injected clock past the window ({@link #expire}), and reads
 * again. The database holds {@code a, c, e, g}, each key its own value.
 *
 * <p>Where FoundationDB decides it ({@code fdbclient/ReadYourWrites.actor.cpp},
 * {@code SnapshotCache.h}, {@code RYWIterator.cpp}, release 7.3): {@code RYWImpl::read}
 * answers from the cache and the write map whatever they know and asks storage only for the
 * rest, inserting what storage returns ({@code cache.insert}, with {@code getKnownKeyRange}
 * for ranges); {@code readWithConflictRange} uses no cache with {@code read_your_writes_disable}
 * and the cache alone for snapshot reads with {@code snapshot_ryw_disable}; conflict ranges are
 * added after every serializable read from the write map alone, however it was answered;
 * {@code resetRyow} (onError) replaces the cache.
 */
class ReadCacheTest {
    private static final int TOO_OLD = 1007;

    private final Fdb.FakeClock clock = new Fdb.FakeClock();
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.builder().nanoTime(clock).inMemory();
        load(db, "a", "c", "e", "g");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    /** Moves time past the 5 s window: a read of the store at tr's read version now fails with 1007. */
    private void expire() {
        clock.advance(Duration.ofSeconds(6));
    }

    private static KeySelector fge(String k) {
        return KeySelector.firstGreaterOrEqual(b(k));
    }

    private static KeySelector fgt(String k) {
        return KeySelector.firstGreaterThan(b(k));
    }

    private static KeySelector llt(String k) {
        return KeySelector.lastLessThan(b(k));
    }

    private static KeySelector lle(String k) {
        return KeySelector.lastLessOrEqual(b(k));
    }

    private static String get(ReadTransaction t, String key) {
        return s(t.get(b(key)).join());
    }

    private static String getKey(ReadTransaction t, KeySelector sel) {
        return s(t.getKey(sel).join());
    }

    private static List<String> range(ReadTransaction t, String begin, String end) {
        return keys(t.getRange(b(begin), b(end)).asList().join());
    }

    private static List<String> range(ReadTransaction t, String begin, String end, int limit, boolean reverse) {
        return keys(t.getRange(b(begin), b(end), limit, reverse).asList().join());
    }

    private static int rangeError(ReadTransaction t, String begin, String end, int limit, boolean reverse) {
        return errorCode(t.getRange(b(begin), b(end), limit, reverse).asList());
    }

    private void commitElsewhere(String key, String value) {
        db.run(other -> {
            other.set(b(key), b(value));
            return null;
        });
    }

    // ---------------------------------------------------------------- the window

    @Test
    void withoutTheCacheAReadAfterTheWindowFailsWithTransactionTooOld() {
        tr.getReadVersion().join();
        expire();
        assertThat(errorCode(tr.get(b("a")))).isEqualTo(TOO_OLD);
    }

    @Test
    void aKeyReadBeforeIsAnsweredAfterTheWindow() {
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(get(tr, "b")).isNull();
        expire();
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(get(tr, "b")).isNull();
        assertThat(errorCode(tr.get(b("c")))).as("never read").isEqualTo(TOO_OLD);
    }

    @Test
    void cachedAnswersKeepTheReadVersionsSnapshotWhileOthersCommitAndPrune() {
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(range(tr, "c", "f")).containsExactly("c", "e");
        commitElsewhere("a", "new");
        commitElsewhere("d", "new");
        expire();
        commitElsewhere("a", "newer"); // a commit after the window prunes the old versions
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(range(tr, "c", "f")).containsExactly("c", "e");
        assertThat(get(tr, "d")).isNull();
    }

    // ---------------------------------------------------------------- ranges

    @Test
    void aRangeReadWholeAnswersItselfItsPartsItsKeysAndItsGaps() {
        assertThat(range(tr, "a", "f")).containsExactly("a", "c", "e");
        expire();
        assertThat(range(tr, "a", "f")).containsExactly("a", "c", "e");
        assertThat(range(tr, "b", "e")).containsExactly("c");
        assertThat(range(tr, "a", "f", 0, true)).containsExactly("e", "c", "a");
        assertThat(get(tr, "c")).isEqualTo("c");
        assertThat(get(tr, "d")).as("a gap of a range read is known to be empty").isNull();
        assertThat(get(tr, "ezz")).isNull();
    }

    @Test
    void aRangeThatReachesPastWhatWasReadGoesToTheStore() {
        assertThat(range(tr, "b", "f")).containsExactly("c", "e");
        expire();
        assertThat(rangeError(tr, "a", "f", 0, false)).isEqualTo(TOO_OLD);
        assertThat(rangeError(tr, "b", "h", 0, false)).isEqualTo(TOO_OLD);
        assertThat(errorCode(tr.get(b("f")))).as("the end is exclusive").isEqualTo(TOO_OLD);
        assertThat(range(tr, "b", "f")).containsExactly("c", "e");
    }

    @Test
    void adjacentRangesReadSeparatelyAnswerTheirUnion() {
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        assertThat(range(tr, "d", "h")).containsExactly("e", "g");
        expire();
        assertThat(range(tr, "a", "h")).containsExactly("a", "c", "e", "g");
        assertThat(range(tr, "b", "h", 0, true)).containsExactly("g", "e", "c");
    }

    @Test
    void aRangeMadeOfKnownKeysIsKnownOnlyWhereTheyMeet() {
        // Point reads know single keys, not the gaps between them.
        get(tr, "a");
        get(tr, "a\u0000");
        get(tr, "c");
        expire();
        assertThat(range(tr, "a", "a\u0000\u0000")).containsExactly("a");
        assertThat(rangeError(tr, "a", "c\u0000", 0, false)).isEqualTo(TOO_OLD);
    }

    @Test
    void aLimitedReadKnowsOnlyThroughItsLastRow() {
        assertThat(range(tr, "a", "h", 2, false)).containsExactly("a", "c");
        expire();
        assertThat(range(tr, "a", "h", 2, false)).containsExactly("a", "c");
        assertThat(range(tr, "a", "h", 1, false)).containsExactly("a");
        assertThat(range(tr, "a", "c\u0000")).containsExactly("a", "c");
        assertThat(rangeError(tr, "a", "h", 3, false)).isEqualTo(TOO_OLD);
        assertThat(rangeError(tr, "a", "h", 0, false)).isEqualTo(TOO_OLD);
        assertThat(errorCode(tr.get(b("d")))).as("past the last row").isEqualTo(TOO_OLD);
    }

    @Test
    void aReverseLimitedReadKnowsFromItsLastRowToItsEnd() {
        assertThat(range(tr, "a", "h", 2, true)).containsExactly("g", "e");
        expire();
        assertThat(range(tr, "a", "h", 2, true)).containsExactly("g", "e");
        assertThat(range(tr, "e", "h")).containsExactly("e", "g");
        assertThat(get(tr, "f")).isNull();
        assertThat(rangeError(tr, "a", "h", 3, true)).isEqualTo(TOO_OLD);
        assertThat(rangeError(tr, "d", "h", 0, false)).as("below the last row").isEqualTo(TOO_OLD);
    }

    @Test
    void aLimitedReadThatRanOutKnowsItsWholeRange() {
        assertThat(range(tr, "b", "f", 5, false)).containsExactly("c", "e");
        expire();
        assertThat(range(tr, "b", "f")).containsExactly("c", "e");
        assertThat(get(tr, "ez")).isNull();
    }

    @Test
    void anIterationKnowsWhatItsBatchesRead() {
        List<KeyValue> all = tr.getRange(b("a"), b("h"), 0, false, StreamingMode.SMALL).asList().join();
        assertThat(keys(all)).containsExactly("a", "c", "e", "g");
        expire();
        assertThat(range(tr, "a", "h")).containsExactly("a", "c", "e", "g");
    }

    @Test
    void aRangeOverTheWholeKeySpaceKnowsItsEnds() {
        assertThat(range(tr, "", "\u00ff")).containsExactly("a", "c", "e", "g");
        expire();
        assertThat(getKey(tr, fgt("g"))).isEqualTo("\u00ff");
        assertThat(getKey(tr, llt("a"))).isEqualTo("");
        assertThat(getKey(tr, KeySelector.firstGreaterOrEqual(b("a")).add(10))).isEqualTo("\u00ff");
    }

    // ---------------------------------------------------------------- key selectors

    @Test
    void aSelectorKnowsWhatItSteppedOver() {
        assertThat(getKey(tr, fge("b"))).isEqualTo("c"); // knows [b, c]
        expire();
        assertThat(getKey(tr, fge("b"))).isEqualTo("c");
        assertThat(getKey(tr, fge("c"))).isEqualTo("c");
        assertThat(getKey(tr, fgt("b"))).isEqualTo("c");
        assertThat(get(tr, "b\u0000")).isNull();
        assertThat(errorCode(tr.getKey(fgt("c")))).as("the key after c is unknown").isEqualTo(TOO_OLD);
        assertThat(errorCode(tr.getKey(llt("c")))).as("the key before b is unknown").isEqualTo(TOO_OLD);
    }

    @Test
    void backwardSelectorsKnowWhatTheySteppedOver() {
        assertThat(getKey(tr, lle("d"))).isEqualTo("c"); // knows [c, d]
        assertThat(getKey(tr, llt("g"))).isEqualTo("e"); // knows [e, g)
        expire();
        assertThat(getKey(tr, lle("d"))).isEqualTo("c");
        assertThat(getKey(tr, llt("d"))).isEqualTo("c");
        assertThat(getKey(tr, llt("g"))).isEqualTo("e");
        assertThat(getKey(tr, lle("f"))).isEqualTo("e");
        assertThat(errorCode(tr.getKey(llt("c")))).isEqualTo(TOO_OLD);
        assertThat(errorCode(tr.getKey(lle("g")))).as("g itself was never read").isEqualTo(TOO_OLD);
    }

    @Test
    void selectorsWithOffsetsResolveWithinAKnownRange() {
        assertThat(range(tr, "a", "h")).containsExactly("a", "c", "e", "g");
        expire();
        assertThat(getKey(tr, fge("b").add(1))).isEqualTo("e");
        assertThat(getKey(tr, llt("g").add(-1))).isEqualTo("c");
        assertThat(keys(tr.getRange(fgt("a"), fge("g").add(-1)).asList().join())).containsExactly("c");
        assertThat(errorCode(tr.getKey(fge("b").add(3)))).as("steps past h").isEqualTo(TOO_OLD);
        assertThat(errorCode(tr.getKey(llt("a")))).as("steps below a").isEqualTo(TOO_OLD);
    }

    @Test
    void aSelectorThatLooksAtNoKeyIsAnsweredWithoutTheStore() {
        // RYW's getRangeValue returns before any storage request when the begin selector is at
        // or past the end of the readable key space (found by ReadCachePropertyTest).
        tr.getReadVersion().join();
        expire();
        assertThat(getKey(tr, fgt("\u00ff"))).isEqualTo("\u00ff");
        assertThat(getKey(tr, fge("\u00ff"))).isEqualTo("\u00ff");
        assertThat(keys(tr.getRange(fge("\u00ff"), fgt("\u00ff")).asList().join())).isEmpty();
        assertThat(errorCode(tr.getKey(lle("\u00ff")))).isEqualTo(TOO_OLD);
    }

    // ---------------------------------------------------------------- own writes over the cache

    @Test
    void ownWritesAnswerWithoutTheStoreEvenAfterTheWindow() {
        tr.getReadVersion().join();
        expire();
        tr.set(b("k"), b("v"));
        tr.clear(b("x"), b("z"));
        assertThat(get(tr, "k")).isEqualTo("v");
        assertThat(get(tr, "y")).isNull();
        assertThat(range(tr, "x", "z")).isEmpty();
        assertThat(errorCode(tr.getKey(fge("x\u0001")))).as("a selector that steps past the cleared range").isEqualTo(TOO_OLD);
    }

    @Test
    void aReadAnsweredByOwnWritesTakesNoReadVersion() {
        // RYW answers it from the write map without asking NativeAPI, which takes the version.
        tr.set(b("k"), b("v"));
        assertThat(get(tr, "k")).isEqualTo("v");
        commitElsewhere("a", "later");
        assertThat(get(tr, "a")).isEqualTo("later");
    }

    @Test
    void writesAndTheCacheTogetherAnswerARange() {
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        tr.clear(b("d"), b("f"));
        tr.set(b("f"), b("mine"));
        expire();
        assertThat(range(tr, "a", "f\u0000")).containsExactly("a", "c", "f");
        assertThat(range(tr, "a", "f\u0000", 0, true)).containsExactly("f", "c", "a");
        assertThat(rangeError(tr, "a", "g", 0, false)).as("(f, g) unknown").isEqualTo(TOO_OLD);
    }

    /**
     * A reverse walk starts just below its end: with no known interval reaching the end, it is
     * answered without the store only when own writes know that spot — a cleared range
     * reaching the end, or an own key the end is just past.
     */
    @Test
    void aReverseReadStartsFromWhatOwnWritesKnowJustBelowItsEnd() {
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        tr.clear(b("d"), b("f"));
        tr.set(b("f"), b("mine"));
        expire();
        assertThat(range(tr, "a", "f", 1, true)).as("cleared up to the end, then the cache").containsExactly("c");
        assertThat(range(tr, "a", "f\u0000", 1, true)).as("the end just past an own key").containsExactly("f");
        assertThat(rangeError(tr, "a", "f\u0001", 1, true)).as("(f, f\\x01) unknown").isEqualTo(TOO_OLD);
    }

    @Test
    void anAtomicOperationAppliesToTheCachedValue() {
        byte[] one = {1};
        db.run(other -> {
            other.set(b("cnt"), new byte[] {5});
            return null;
        });
        Transaction t = db.createTransaction();
        assertThat(t.get(b("cnt")).join()).containsExactly(5);
        expire();
        t.mutate(MutationType.ADD, b("cnt"), one);
        assertThat(t.get(b("cnt")).join()).as("5 from the cache, plus 1").containsExactly(6);
        t.mutate(MutationType.ADD, b("other"), one);
        assertThat(errorCode(t.get(b("other")))).as("the stored value is unknown").isEqualTo(TOO_OLD);
        t.close();
    }

    @Test
    void aRangeOverAnAtomicOperationNeedsItsStoredValue() {
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        expire();
        tr.mutate(MutationType.BIT_OR, b("c"), b("C"));
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        tr.mutate(MutationType.BIT_OR, b("d"), b("D"));
        assertThat(rangeError(tr, "a", "e", 0, false)).isEqualTo(TOO_OLD);
    }

    @Test
    void unreadableRangesStillFailOverCachedData() {
        assertThat(range(tr, "a", "h")).containsExactly("a", "c", "e", "g");
        expire();
        byte[] stampedKey = new byte[] {'d', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stampedKey, b("v"));
        assertThat(errorCode(tr.getRange(b("a"), b("h")).asList())).isEqualTo(1036);
        assertThat(range(tr, "a", "b")).containsExactly("a");
    }

    @Test
    void anUnreadableKeyBehindAnUnknownGapNeedsTheStoreFirst() {
        // The cache knows [a, d); f holds a versionstamped value. A read of three rows from a
        // stops at e, before f, when the store answers; the cache alone cannot know that.
        assertThat(range(tr, "a", "d")).containsExactly("a", "c");
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("f"), new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        assertThat(range(tr, "a", "h", 3, false)).containsExactly("a", "c", "e");
        Transaction late = db.createTransaction();
        try {
            assertThat(get(late, "a")).isEqualTo("a");
            assertThat(range(late, "a", "d")).containsExactly("a", "c");
            late.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("f"), new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
            expire();
            assertThat(rangeError(late, "a", "h", 3, false)).as("[d, f) is unknown").isEqualTo(TOO_OLD);
            assertThat(rangeError(late, "a", "d\u0000", 0, false)).isEqualTo(TOO_OLD);
            assertThat(errorCode(late.get(b("f")))).isEqualTo(1036);
        } finally {
            late.close();
        }
    }

    // ---------------------------------------------------------------- snapshot reads and options

    @Test
    void snapshotAndSerializableReadsShareTheCache() {
        assertThat(get(tr.snapshot(), "a")).isEqualTo("a");
        assertThat(range(tr, "c", "f")).containsExactly("c", "e");
        expire();
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(range(tr.snapshot(), "c", "f")).containsExactly("c", "e");
    }

    @Test
    void withSnapshotRywDisabledSnapshotReadsSeeTheCacheWithoutOwnWrites() {
        tr.options().setSnapshotRywDisable();
        assertThat(get(tr, "a")).isEqualTo("a");
        tr.set(b("a"), b("mine"));
        expire();
        assertThat(get(tr.snapshot(), "a")).isEqualTo("a");
        assertThat(get(tr, "a")).isEqualTo("mine");
        assertThat(errorCode(tr.snapshot().get(b("k")))).isEqualTo(TOO_OLD);
    }

    @Test
    void aRangeClearedInBulkIsNotLearnedByAReadOverIt() {
        // RYW's storage reads skip a cleared range of more than one key (skipUncached) but read
        // through a single cleared key; only a snapshot read without own writes can tell.
        tr.options().setSnapshotRywDisable();
        tr.clear(b("b"), b("d"));
        tr.clear(b("g"));
        assertThat(range(tr, "a", "h")).containsExactly("a", "e");
        expire();
        assertThat(range(tr, "a", "h")).containsExactly("a", "e");
        assertThat(range(tr.snapshot(), "d", "h")).containsExactly("e", "g");
        assertThat(range(tr.snapshot(), "a", "b")).containsExactly("a");
        assertThat(rangeError(tr.snapshot(), "a", "h", 0, false)).isEqualTo(TOO_OLD);
    }

    @Test
    void withReadYourWritesDisabledThereIsNoCache() {
        tr.options().setReadYourWritesDisable();
        assertThat(get(tr, "a")).isEqualTo("a");
        assertThat(range(tr, "a", "f")).containsExactly("a", "c", "e");
        expire();
        assertThat(errorCode(tr.get(b("a")))).isEqualTo(TOO_OLD);
        assertThat(rangeError(tr, "a", "f", 0, false)).isEqualTo(TOO_OLD);
    }

    @Test
    void onErrorHandsBackATransactionThatKnowsNothing() {
        long rv = tr.getReadVersion().join();
        assertThat(get(tr, "a")).isEqualTo("a");
        Transaction retry = tr.onError(new FDBException("not_committed", 1020)).join();
        try {
            retry.setReadVersion(rv);
            expire();
            assertThat(errorCode(retry.get(b("a")))).isEqualTo(TOO_OLD);
        } finally {
            retry.close();
        }
    }

    // ---------------------------------------------------------------- conflicts and commit

    @Test
    void aCachedSerializableReadStillAddsItsConflictRange() {
        // The snapshot read fills the cache without a conflict range; the serializable read is
        // answered from it and must add one (RYW addConflictRange after every such read).
        assertThat(ReadTests.conflicts(db, t -> t.snapshot().get(b("a")).join(), t -> { },
                t -> t.set(b("a"), b("x")))).as("the snapshot read alone").isFalse();
        assertThat(ReadTests.conflicts(db, t -> t.snapshot().get(b("a")).join(), t -> {
            assertThat(get(t, "a")).isEqualTo("a"); // from the cache
        }, t -> t.set(b("a"), b("x")))).isTrue();
        assertThat(ReadTests.conflicts(db, t -> t.snapshot().getRange(b("a"), b("d")).asList().join(), t -> {
            assertThat(range(t, "b", "d")).containsExactly("c");
        }, t -> t.set(b("b"), b("x")))).isTrue();
    }

    @Test
    void aCommitWithReadConflictsAfterTheWindowFailsWithTransactionTooOld() {
        assertThat(get(tr, "a")).isEqualTo("a");
        expire();
        assertThat(get(tr, "a")).isEqualTo("a");
        tr.set(b("z"), b("z"));
        assertThat(errorCode(tr.commit())).isEqualTo(TOO_OLD);
    }

    @Test
    void aReadOnlyTransactionAnsweredFromTheCacheCommits() {
        assertThat(get(tr, "a")).isEqualTo("a");
        expire();
        assertThat(get(tr, "a")).isEqualTo("a");
        tr.commit().join();
        assertThat(tr.getCommittedVersion()).isEqualTo(-1L);
    }

    @Test
    void aWatchReadsItsValueFromTheCache() throws Exception {
        assertThat(get(tr, "a")).isEqualTo("a");
        expire();
        CompletableFuture<Void> watch = tr.watch(b("a"));
        tr.commit().join();
        assertThat(watch).isNotDone();
        commitElsewhere("a", "changed");
        watch.get(10, TimeUnit.SECONDS);
    }

    @Test
    void sizeEstimatesReadTheDatabaseNotTheCache() {
        assertThat(range(tr, "a", "h")).hasSize(4);
        long before = tr.getEstimatedRangeSizeBytes(b("a"), b("h")).join();
        commitElsewhere("b", "0123456789");
        assertThat(tr.getEstimatedRangeSizeBytes(b("a"), b("h")).join()).isEqualTo(before + 11);
    }

    // ---------------------------------------------------------------- latency

    @Test
    void aCachedReadIsAnsweredAtOnceWithoutTheReadLatency() {
        // FoundationDB answers from the cache without a trip to a storage server.
        Database slow = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(200), Duration.ZERO)).inMemory();
        try (Transaction t = slow.createTransaction()) {
            load(slow, "a");
            assertThat(t.get(b("a")).join()).isEqualTo(b("a"));
            CompletableFuture<byte[]> again = t.get(b("a"));
            assertThat(again).as("read before").isDone();
            assertThat(again.join()).isEqualTo(b("a"));
            t.set(b("k"), b("v"));
            CompletableFuture<byte[]> own = t.get(b("k"));
            assertThat(own).as("own write").isDone();
            assertThat(own.join()).isEqualTo(b("v"));
            assertThat(t.get(b("b"))).as("a store read waits for the read latency").isNotDone();
        } finally {
            slow.close();
        }
    }
}
