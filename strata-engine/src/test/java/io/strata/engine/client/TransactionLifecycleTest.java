package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Commit, cancel, close, timeouts and onError: what a transaction may do in each state. */
class TransactionLifecycleTest {
    private Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private static FDBException fdb(int code) {
        return new FDBException("test", code);
    }

    // ---------------------------------------------------------------- after commit

    @Test
    void readAfterCommitFailsWithUsedDuringCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(2017);
    }

    @Test
    void writeAfterCommitFailsWithUsedDuringCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(deferredErrorOf(() -> tr.set(b("k2"), b("v")), tr::commit)).isEqualTo(2017);
        assertThat(Fdb.valueOf(db, "k2")).isNull();
    }

    @Test
    void secondCommitFailsWithUsedDuringCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(errorOf(tr::commit)).isEqualTo(2017);
    }

    @Test
    void readVersionStaysAvailableAfterCommit() {
        // RYW getReadVersion checks only the reset, not checkUsedDuringCommit.
        Transaction tr = db.createTransaction();
        long rv = await(tr.getReadVersion());
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(await(tr.getReadVersion())).isEqualTo(rv);
    }

    @Test
    void approximateSizeStaysAvailableAfterCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        long before = await(tr.getApproximateSize());
        await(tr.commit());
        assertThat(await(tr.getApproximateSize())).isEqualTo(before);
    }

    @Test
    void readVersionFailsAfterCancel() {
        Transaction tr = db.createTransaction();
        tr.cancel();
        assertThat(errorOf(tr::getReadVersion)).isEqualTo(1025);
    }

    @Test
    void readAfterAFailedCommitFailsWithUsedDuringCommit() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        tr.set(b("k"), b("mine"));
        db.run(t -> {
            t.set(b("k"), b("theirs"));
            return null;
        });
        assertThat(errorOf(tr.commit())).isEqualTo(1020);
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(2017);
    }

    @Test
    void readDuringCommitFailsWithUsedDuringCommitAndTheCommitStillSucceeds() {
        // fdb-java creates every transaction with used_during_commit_protection_disable, so
        // the read fails but does not poison the commit in flight.
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400))).inMemory();
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        CompletableFuture<Void> commit = tr.commit();
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(2017);
        await(commit);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    @Test
    void usedDuringCommitProtectionDisableStillFailsReadsDuringCommit() {
        // The option only stops the use from resetting the transaction (RYW checkUsedDuringCommit).
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400))).inMemory();
        Transaction tr = db.createTransaction();
        tr.options().setUsedDuringCommitProtectionDisable();
        tr.set(b("k"), b("v"));
        CompletableFuture<Void> commit = tr.commit();
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(2017);
        await(commit);
    }

    /**
     * fdb-java sets {@code used_during_commit_protection_disable} only in
     * {@code FDBDatabase.createTransaction}; the transaction {@code onError} hands back
     * ({@code FDBTransaction.transfer}) is the same native one after RYW {@code resetRyow}, which
     * resets every option not marked persistent in {@code fdb.options} — this one included. So
     * on a retry the protection is on again: a use during commit resets the transaction with
     * {@code used_during_commit} ({@code checkUsedDuringCommit}), failing the commit in flight.
     */
    @Test
    void onARetryAReadDuringCommitFailsTheCommitWithUsedDuringCommit() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400))).inMemory();
        Transaction retry = await(db.createTransaction().onError(new FDBException("not_committed", 1020)));
        retry.set(b("k"), b("v"));
        CompletableFuture<Void> commit = retry.commit();
        assertThat(errorOf(() -> retry.get(b("k")))).isEqualTo(2017);
        assertThat(errorOf(commit)).isEqualTo(2017);
    }

    /**
     * A retry (a transaction {@code onError} handed back) that read k and wrote it, and whose
     * commit then failed with 1020 because another transaction wrote k first; the failed
     * commit's error is in {@code failure[0]}.
     */
    private Transaction retryWhoseCommitConflicted(Throwable[] failure) {
        Transaction retry = await(db.createTransaction().onError(new FDBException("not_committed", 1020)));
        await(retry.get(b("k")));
        retry.set(b("k"), b("mine"));
        db.run(t -> {
            t.set(b("k"), b("theirs"));
            return null;
        });
        CompletableFuture<Void> failed = retry.commit();
        assertThat(errorOf(failed)).isEqualTo(1020);
        failure[0] = failed.handle((v, e) -> e).join();
        return retry;
    }

    /** The reset also ends the retry loop: RYW {@code onError} fails with the reset's error. */
    @Test
    void onARetryAReadAfterAFailedCommitMakesOnErrorFailWithUsedDuringCommit() {
        Throwable[] failure = new Throwable[1];
        Transaction retry = retryWhoseCommitConflicted(failure);
        assertThat(errorOf(() -> retry.get(b("k")))).isEqualTo(2017);
        assertThat(errorOf(retry.onError(failure[0]))).isEqualTo(2017);
    }

    /** The database option is a transaction default, re-applied after every reset. */
    @Test
    void databaseUsedDuringCommitProtectionDisableAppliesToRetries() {
        db.options().setTransactionUsedDuringCommitProtectionDisable();
        Throwable[] failure = new Throwable[1];
        Transaction retry = retryWhoseCommitConflicted(failure);
        assertThat(errorOf(() -> retry.get(b("k")))).isEqualTo(2017);
        await(retry.onError(failure[0]));
    }

    @Test
    void writeDuringCommitIsNotCommittedAndDoesNotFailTheCommit() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(400))).inMemory();
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        CompletableFuture<Void> commit = tr.commit();
        tr.set(b("late"), b("v"));
        await(commit);
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
        assertThat(Fdb.valueOf(db, "late")).isNull();
    }

    @Test
    void writeAfterAFailedCommitDoesNotPreventRetrying() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        tr.set(b("k"), b("mine"));
        db.run(t -> {
            t.set(b("k"), b("theirs"));
            return null;
        });
        CompletableFuture<Void> failed = tr.commit();
        assertThat(errorOf(failed)).isEqualTo(1020);
        tr.set(b("late"), b("v"));
        Transaction retry = await(tr.onError(failed.handle((v, e) -> e).join()));
        retry.set(b("k"), b("retried"));
        await(retry.commit());
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("retried"));
    }

    @Test
    void commitWaitsForReadsAlreadyIssued() {
        // RYW commit waits for ryw->reading: a read issued before commit completes normally
        // and its conflict range is committed, even while its read version is still coming.
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ofMillis(50), Duration.ofMillis(20), Duration.ZERO)).inMemory();
        db.run(t -> {
            t.set(b("k"), b("v"));
            return null;
        });
        Transaction tr = db.createTransaction();
        CompletableFuture<byte[]> read = tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        await(commit);
        assertThat(await(read)).isEqualTo(b("v"));
        assertThat(tr.getCommittedVersion()).isPositive();
    }

    @Test
    void cancelWhileCommitWaitsForReadsFailsBoth() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ofSeconds(30), Duration.ZERO)).inMemory();
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        CompletableFuture<byte[]> read = tr.get(b("k"));
        tr.set(b("x"), b("1"));
        CompletableFuture<Void> commit = tr.commit();
        assertThat(commit).isNotDone();
        tr.cancel();
        assertThat(errorOf(commit)).isEqualTo(1025);
        assertThat(errorOf(read)).isEqualTo(1025);
        // Not Fdb.valueOf: a read would take the 30 s read latency.
        assertThat(((EngineDatabase) db).engine().store().latest(b("x"))).isNull();
    }

    // ---------------------------------------------------------------- cancel and close

    @Test
    void readAfterCancelFailsWithTransactionCancelled() {
        Transaction tr = db.createTransaction();
        tr.cancel();
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(1025);
    }

    @Test
    void commitAfterCancelFailsWithTransactionCancelled() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        tr.cancel();
        assertThat(errorOf(tr::commit)).isEqualTo(1025);
        assertThat(Fdb.valueOf(db, "k")).isNull();
    }

    @Test
    void cancelFailsAPendingReadWithTransactionCancelled() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ofSeconds(30), Duration.ZERO)).inMemory();
        Transaction tr = db.createTransaction();
        CompletableFuture<byte[]> read = tr.get(b("k"));
        tr.cancel();
        assertThat(errorOf(read)).isEqualTo(1025);
    }

    @Test
    void cancelFailsACommitInFlightWithTransactionCancelled() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(30))).inMemory();
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        CompletableFuture<Void> commit = tr.commit();
        tr.cancel();
        assertThat(errorOf(commit)).isEqualTo(1025);
    }

    @Test
    void useAfterCloseThrowsIllegalStateException() {
        Transaction tr = db.createTransaction();
        tr.close();
        assertThatThrownBy(() -> tr.get(b("k"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> tr.set(b("k"), b("v"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(tr::commit).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(tr::getCommittedVersion).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeIsIdempotent() {
        Transaction tr = db.createTransaction();
        tr.close();
        tr.close();
    }

    @Test
    void useOfAClosedDatabaseThrowsIllegalStateException() {
        db.close();
        assertThatThrownBy(() -> db.createTransaction()).isInstanceOf(IllegalStateException.class);
    }

    // ---------------------------------------------------------------- timeout

    @Test
    void timeoutFailsPendingOperationsWithTransactionTimedOut() {
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(50);
        CompletableFuture<Void> pendingWatch = tr.watch(b("k"));
        assertThat(errorOf(pendingWatch)).isEqualTo(1031);
    }

    @Test
    void timeoutFailsLaterOperationsWithTransactionTimedOut() {
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(50);
        errorOf(tr.watch(b("k"))); // waits for the timeout
        assertThat(errorOf(() -> tr.get(b("k")))).isEqualTo(1031);
        assertThat(errorOf(tr::commit)).isEqualTo(1031);
    }

    @Test
    void timeoutFailsACommitInFlight() {
        db.close();
        db = Strata.builder().latency(LatencyModel.of(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(30))).inMemory();
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(50);
        tr.set(b("k"), b("v"));
        assertThat(errorOf(tr.commit())).isEqualTo(1031);
    }

    @Test
    void timeoutPersistsAcrossOnError() {
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(100);
        Transaction retried = await(tr.onError(fdb(1020)));
        assertThat(errorOf(retried.watch(b("k")))).isEqualTo(1031);
    }

    @Test
    void onErrorAfterTheTimeoutFailsWithTransactionTimedOut() {
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(50);
        errorOf(tr.watch(b("k")));
        assertThat(errorOf(tr.onError(fdb(1020)))).isEqualTo(1031);
    }

    @Test
    void onErrorFailsWithTransactionTimedOutWhenTheTimeoutExpiresDuringTheBackoff() {
        // transaction_too_old retries after a fixed 10 ms; the 5 ms timeout expires first,
        // either before onError is called or during its delay: onError fails either way.
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(5);
        assertThat(errorOf(tr.onError(fdb(1007)))).isEqualTo(1031);
    }

    @Test
    void databaseTimeoutAppliesToNewTransactions() {
        db.options().setTransactionTimeout(50);
        Transaction tr = db.createTransaction();
        assertThat(errorOf(tr.watch(b("k")))).isEqualTo(1031);
    }

    @Test
    void committedTransactionDoesNotTimeOut() {
        Transaction tr = db.createTransaction();
        tr.options().setTimeout(100);
        CompletableFuture<Void> w = tr.watch(b("k"));
        await(tr.commit());
        db.run(t -> {
            t.set(b("k"), b("v"));
            return null;
        });
        await(w);
    }

    // ---------------------------------------------------------------- onError

    @ParameterizedTest
    @ValueSource(ints = {1020, 1021, 1007, 1009})
    void onErrorOfARetryableErrorReturnsAFreshUsableTransaction(int code) {
        Transaction tr = db.createTransaction();
        tr.set(b("dropped"), b("v"));
        Transaction fresh = await(tr.onError(fdb(code)));
        assertThat(await(fresh.get(b("dropped")))).isNull();
        fresh.set(b("k"), b("v"));
        await(fresh.commit());
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
        assertThat(Fdb.valueOf(db, "dropped")).isNull();
    }

    @Test
    void onErrorUnwrapsCompletionExceptions() {
        Transaction tr = db.createTransaction();
        Transaction fresh = await(tr.onError(new java.util.concurrent.CompletionException(fdb(1020))));
        await(fresh.getReadVersion());
    }

    @Test
    void aClosedDatabaseHandsOutItsOptionsButRefusesToSetThem() {
        // FDBDatabase.options() returns the object it made at construction; setting an option
        // reaches the native pointer, which a closed database no longer has.
        Database closed = Strata.inMemory();
        closed.close();
        com.apple.foundationdb.DatabaseOptions options = closed.options();
        assertThatThrownBy(() -> options.setTransactionTimeout(1_000))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(closed::createTransaction).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void onErrorUnwrapsOneLevelOnly() {
        // FDBTransaction.onError takes the cause of one CompletionException or
        // ExecutionException; anything still wrapped is not an FDBException to it, so it
        // fails with that and leaves the transaction usable.
        Transaction tr = db.createTransaction();
        java.util.concurrent.CompletionException inner = new java.util.concurrent.CompletionException(fdb(1020));
        CompletableFuture<Transaction> f = tr.onError(new java.util.concurrent.CompletionException(inner));
        assertThat(f).isCompletedExceptionally();
        assertThatThrownBy(f::join).isSameAs(inner);
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void onErrorInvalidatesTheOldTransaction() {
        Transaction tr = db.createTransaction();
        await(tr.onError(fdb(1020)));
        assertThatThrownBy(() -> tr.get(b("k"))).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {2000, 2004, 2101, 1025, 1031, 2017})
    void onErrorOfANonRetryableErrorFailsWithIt(int code) {
        Transaction tr = db.createTransaction();
        assertThat(errorOf(tr.onError(fdb(code)))).isEqualTo(code);
    }

    @Test
    void onErrorOfANonFdbExceptionFailsWithItAndLeavesTheTransactionUsable() {
        // FDBTransaction.onError returns the failure without touching the native transaction.
        Transaction tr = db.createTransaction();
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        CompletableFuture<Transaction> f = tr.onError(boom);
        assertThat(f).isCompletedExceptionally();
        assertThatThrownBy(f::join).hasCause(boom);
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void onErrorAfterCancelFailsWithTransactionCancelled() {
        Transaction tr = db.createTransaction();
        tr.cancel();
        assertThat(errorOf(tr.onError(fdb(1020)))).isEqualTo(1025);
    }

    @Test
    void readYourWritesDisableAfterAWriteFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        assertThat(Fdb.code(org.assertj.core.api.Assertions.catchThrowable(() -> tr.options().setReadYourWritesDisable())))
                .isEqualTo(2000);
    }

    @Test
    void readYourWritesDisableAfterAReadFailsWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("k")));
        assertThat(Fdb.code(org.assertj.core.api.Assertions.catchThrowable(() -> tr.options().setReadYourWritesDisable())))
                .isEqualTo(2000);
    }

    @Test
    void readYourWritesDisableAfterOnlyAReadVersionIsAllowed() {
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        tr.options().setReadYourWritesDisable();
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void onErrorResetsOptionsThatAreNotPersistent() {
        Transaction tr = db.createTransaction();
        tr.options().setAccessSystemKeys();
        Transaction fresh = await(tr.onError(fdb(1020)));
        assertThat(deferredErrorOf(() -> fresh.set(new byte[] {(byte) 0xff, 1}, b("v")), fresh::commit)).isEqualTo(2004);
    }

    @Test
    void onErrorClearsADeferredError() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), new byte[100_001]); // value_too_large, deferred
        Transaction fresh = await(tr.onError(fdb(1020)));
        fresh.set(b("k"), b("v"));
        await(fresh.commit());
    }
}
