package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A read that failed fails the commit with its error, as RYW's commit waits for
 * {@code ryw->reading} (see {@link OutstandingReads}): which reads count, which errors, and what
 * the transaction is after such a commit. Each test writes {@code x} and checks it did not land.
 */
class FailedReadFailsCommitTest {
    private final Fdb.FakeClock clock = new Fdb.FakeClock();
    private Database db = Strata.builder().nanoTime(clock).inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    /** A transaction whose reads fail with transaction_too_old: its read version left the window. */
    private Transaction stale() {
        long old = await(db.createTransaction().getReadVersion());
        clock.advance(Duration.ofSeconds(10));
        db.run(t -> {
            t.set(b("later"), b("1"));
            return null;
        });
        Transaction tr = db.createTransaction();
        tr.setReadVersion(old);
        // A blind write needs no fresh read version then: only a failed read fails its commit.
        tr.options().setCausalWriteRisky();
        return tr;
    }

    private void assertCommitFailsWith(Transaction tr, int code) {
        tr.set(b("x"), b("1"));
        assertThat(errorOf(tr.commit())).isEqualTo(code);
        assertThat(Fdb.valueOf(db, "x")).isNull();
    }

    private void assertCommits(Transaction tr) {
        tr.set(b("x"), b("1"));
        await(tr.commit());
        assertThat(Fdb.valueOf(db, "x")).isEqualTo(b("1"));
    }

    // ---------------------------------------------------------------- which reads count

    @Test
    void aGetThatFailedFailsTheCommitWithItsError() {
        Transaction tr = stale();
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1007);
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void evenWhenNobodyLookedAtTheFailedRead() {
        Transaction tr = stale();
        tr.get(b("k"));
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void aFailedSnapshotReadCountsToo() {
        // RYW's get adds every read to reading, snapshot or not.
        Transaction tr = stale();
        tr.snapshot().get(b("k"));
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void aFailedReadWithReadYourWritesDisabledCountsToo() {
        Transaction tr = stale();
        tr.options().setReadYourWritesDisable();
        tr.snapshot().getKey(KeySelector.firstGreaterOrEqual(b("k")));
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void aFailedGetKeyCounts() {
        Transaction tr = stale();
        tr.getKey(KeySelector.firstGreaterOrEqual(b("k")));
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void aFailedRangeBatchCounts() {
        Transaction tr = stale();
        tr.getRange(b("a"), b("z")).iterator();
        assertCommitFailsWith(tr, 1007);
    }

    @Test
    void aReadAtAFutureVersionFailsTheCommitWithFutureVersion() {
        Transaction tr = db.createTransaction();
        tr.setReadVersion(await(db.createTransaction().getReadVersion()) + 1_000_000_000L);
        tr.snapshot().get(b("k"));
        assertCommitFailsWith(tr, 1009);
    }

    @Test
    void anUnreadableReadFailsTheCommitWithAccessedUnreadable() {
        // RYW throws accessed_unreadable inside the read, so it is a read failure like any other.
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        byte[] stamped = Arrays.copyOf(b("vs"), 16);
        stamped[12] = 2;
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped, b("v"));
        assertThat(errorOf(tr.getRange(b("a"), b("zz")).asList())).isEqualTo(1036);
        assertCommitFailsWith(tr, 1036);
    }

    @Test
    void anUnreadableReadAnsweredWithoutTheStoreStillFailsTheCommit() {
        // A point read of a key a versionstamped key may land on: own writes answer it (with
        // 1036) before the store is reached, and it is still a failed read.
        Transaction tr = db.createTransaction();
        byte[] stamped = Arrays.copyOf(b("vs"), 16);
        stamped[12] = 2;
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped, b("v"));
        byte[] mayLandOn = Arrays.copyOf(b("vs"), 12);
        assertThat(errorOf(tr.get(mayLandOn))).isEqualTo(1036);
        assertCommitFailsWith(tr, 1036);
    }

    @Test
    void aReadAtVersionZeroFailsTheCommitWithClientInvalidOperation() {
        // initialize_new_database sets read version 0; NativeAPI refuses reads at it inside the read.
        Transaction tr = db.createTransaction();
        tr.options().setInitializeNewDatabase();
        tr.get(b("k"));
        assertCommitFailsWith(tr, 2000);
    }

    // ---------------------------------------------------------------- what does not count

    @Test
    void argumentErrorsFoundBeforeTheReadDoNotCount() {
        // key_outside_legal_range and range_limits_invalid are RYW's checks before the read;
        // exact_mode_without_limits is the C client's, before the transaction.
        Transaction tr = db.createTransaction();
        assertThat(errorOf(tr.get(new byte[] {(byte) 0xff, 1}))).isEqualTo(2004);
        assertThat(errorOf(tr.getKey(KeySelector.firstGreaterOrEqual(new byte[] {(byte) 0xff, 1})))).isEqualTo(2004);
        assertThat(errorOf(tr.getRange(b("a"), b("z"), -2).asList())).isEqualTo(2012);
        assertThat(errorOf(tr.getRange(KeySelector.firstGreaterOrEqual(b("a")), KeySelector.firstGreaterOrEqual(b("z")), 0, false,
                StreamingMode.EXACT).asList())).isEqualTo(2210);
        assertThat(errorOf(tr.getEstimatedRangeSizeBytes(b("z"), b("a")))).isEqualTo(2005);
        assertCommits(tr);
    }

    @Test
    void readsThatAreNotInReadingDoNotCount() {
        // getEstimatedRangeSizeBytes and getRangeSplitPoints are not added to reading; a
        // watch adds a promise its read always keeps.
        Transaction tr = stale();
        await(tr.getEstimatedRangeSizeBytes(b("a"), b("z")));
        CompletableFuture<Void> watch = tr.watch(b("w"));
        tr.set(b("x"), b("1"));
        await(tr.commit());
        assertThat(Fdb.valueOf(db, "x")).isEqualTo(b("1"));
        assertThat(errorOf(watch)).isEqualTo(1007);
    }

    @Test
    void aFailedMappedRangeReadDoesNotCount() {
        // RYW's getMappedRange does not add its result to reading.
        Transaction tr = stale();
        byte[] mapper = com.apple.foundationdb.tuple.Tuple.from("R", "{K[1]}", "{...}").pack();
        assertThat(errorOf(tr.getMappedRange(KeySelector.firstGreaterOrEqual(b("a")), KeySelector.firstGreaterOrEqual(b("z")), mapper, 0,
                false, StreamingMode.WANT_ALL).asList())).isEqualTo(1007);
        assertCommits(tr);
    }

    @Test
    void aReadFailedByCancelFailsTheCommitThroughTheCancel() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ofMillis(100), Duration.ZERO, Duration.ZERO)).inMemory();
        Transaction tr = db.createTransaction();
        CompletableFuture<byte[]> read = tr.get(b("k"));
        tr.cancel();
        assertThat(errorOf(read)).isEqualTo(1025);
        assertThat(errorOf(tr.commit())).isEqualTo(1025);
    }

    // ---------------------------------------------------------------- in flight

    @Test
    void aReadThatFailsWhileTheCommitWaitsFailsTheCommit() {
        // transaction_too_old comes back from the storage server after the read's latency; the
        // commit, waiting for reading, fails with it at once and sends nothing.
        db.close();
        db = Strata.builder().nanoTime(clock).latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO)).inMemory();
        Transaction tr = stale();
        CompletableFuture<byte[]> read = tr.get(b("k")); // it has 100 ms of latency ahead of it
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        assertThat(errorOf(commit)).isEqualTo(1007);
        assertThat(errorOf(read)).isEqualTo(1007);
        assertThat(Fdb.valueOf(db, "x")).isNull();
    }

    @Test
    void aCancelledReadFutureStillCountsWhenItsReadFails() {
        // Cancelling fdb-java's future leaves the native read running, held by reading.
        db.close();
        db = Strata.builder().nanoTime(clock).latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO)).inMemory();
        Transaction tr = stale();
        tr.get(b("k")).cancel(true);
        assertCommitFailsWith(tr, 1007);
    }

    // ---------------------------------------------------------------- and afterwards

    @Test
    void theDeferredErrorComesFirst() {
        // ThreadSafeTransaction::commit checks the deferred error before RYW's commit runs.
        Transaction tr = stale();
        tr.get(b("k"));
        tr.set(new byte[] {(byte) 0xff}, b("v")); // key_outside_legal_range, deferred
        assertThat(errorOf(tr.commit())).isEqualTo(2004);
        // RYW's commit never started: the transaction is not used_during_commit.
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(2004);
    }

    @Test
    void afterTheFailedCommitTheTransactionIsUsedDuringCommit() {
        // RYW set commitStarted before waiting for reading.
        Transaction tr = stale();
        tr.get(b("k"));
        assertCommitFailsWith(tr, 1007);
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(2017);
        assertThat(errorOf(tr::commit)).isEqualTo(2017);
    }

    @Test
    void onErrorRetriesAndTheRetryHasNoFailedRead() {
        Transaction tr = stale();
        tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> failed = tr.commit();
        assertThat(errorOf(failed)).isEqualTo(1007);
        Transaction retry = await(tr.onError(failed.handle((v, e) -> e).join()));
        await(retry.get(b("k")));
        retry.set(b("x"), b("2"));
        await(retry.commit());
        assertThat(Fdb.valueOf(db, "x")).isEqualTo(b("2"));
    }

    @Test
    void aNonRetryableReadErrorEndsTheRetryLoop() {
        Transaction tr = db.createTransaction();
        tr.options().setInitializeNewDatabase();
        tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> failed = tr.commit();
        assertThat(errorOf(failed)).isEqualTo(2000);
        assertThat(errorOf(tr.onError(failed.handle((v, e) -> e).join()))).isEqualTo(2000);
    }

    @Test
    void databaseRunRetriesAReadThatFailedWithTransactionTooOld() {
        // A body that swallows its read's failure still does not commit on it: run retries.
        long old = await(db.createTransaction().getReadVersion());
        clock.advance(Duration.ofSeconds(10));
        db.run(t -> {
            t.set(b("later"), b("1"));
            return null;
        });
        int[] attempts = {0};
        db.run(t -> {
            if (attempts[0]++ == 0) {
                t.setReadVersion(old);
            }
            t.get(b("k")).exceptionally(e -> null).join();
            t.set(b("x"), b("" + attempts[0]));
            return null;
        });
        assertThat(attempts[0]).isEqualTo(2);
        assertThat(Fdb.valueOf(db, "x")).isEqualTo(b("2"));
    }

    @Test
    void theFirstReadToFailIsTheOneReported() {
        // A quorum over futures already failed reports the first one added.
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        byte[] stamped = Arrays.copyOf(b("vs"), 16);
        stamped[12] = 2;
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped, b("v"));
        tr.getRange(b("a"), b("zz")).asList(); // 1036: the stamped key may land in there
        clock.advance(Duration.ofSeconds(10));
        db.run(t -> {
            t.set(b("later"), b("1"));
            return null;
        });
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1007);
        assertCommitFailsWith(tr, 1036);
    }

    static FDBException fdb(int code) {
        return new FDBException("test", code);
    }
}
