package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Watches through the transaction lifecycle. The database runs callbacks on the completing
 * thread ({@code executor(Runnable::run)}), and the sequencer fires watches before it
 * completes the commits of the same batch, so "has it fired?" is decided by the time a later
 * commit returns: no sleeps needed.
 */
class WatchTest {
    private final Database db = Strata.builder().executor(Runnable::run).inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private void put(String key, String value) {
        db.run(tr -> {
            tr.set(b(key), b(value));
            return null;
        });
    }

    private void clear(String key) {
        db.run(tr -> {
            tr.clear(b(key));
            return null;
        });
    }

    /** A committed watch on {@code key}. */
    private CompletableFuture<Void> watch(String key) {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b(key));
        await(tr.commit());
        tr.close();
        return w;
    }

    @Test
    void watchFiresAfterAnotherTransactionChangesTheKey() {
        put("k", "a");
        CompletableFuture<Void> w = watch("k");
        put("other", "x");
        assertThat(w).isNotDone();
        put("k", "b");
        await(w);
    }

    @Test
    void watchOnAnAbsentKeyFiresWhenItIsCreated() {
        CompletableFuture<Void> w = watch("k");
        put("k", "new");
        await(w);
    }

    @Test
    void watchFiresWhenTheKeyIsCleared() {
        put("k", "a");
        CompletableFuture<Void> w = watch("k");
        clear("k");
        await(w);
    }

    @Test
    void watchFiresWhenARangeClearRemovesTheKey() {
        put("k", "a");
        CompletableFuture<Void> w = watch("k");
        db.run(tr -> {
            tr.clear(b("a"), b("z"));
            return null;
        });
        await(w);
    }

    @Test
    void watchFiresWhenAnAtomicOperationChangesTheKey() {
        CompletableFuture<Void> w = watch("counter");
        db.run(tr -> {
            tr.mutate(MutationType.ADD, b("counter"), new byte[] {1});
            return null;
        });
        await(w);
    }

    @Test
    void watchDoesNotFireWhenTheKeyIsSetToTheSameValue() {
        put("k", "a");
        CompletableFuture<Void> w = watch("k");
        put("k", "a");
        assertThat(w).isNotDone();
        put("k", "b");
        await(w);
    }

    @Test
    void clearingAnAbsentWatchedKeyDoesNotFireIt() {
        CompletableFuture<Void> w = watch("k");
        clear("k");
        assertThat(w).isNotDone();
    }

    @Test
    void watchIsNotActiveUntilItsTransactionCommits() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        put("k", "a");
        assertThat(w).isNotDone();
        await(tr.commit());
        assertThat(w).isNotDone();
        put("k", "c");
        await(w);
    }

    @Test
    void watchFiresAtCommitWhenTheKeyChangedAfterItsTransactionReadIt() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        put("k", "b");
        await(tr.commit()); // read-only: no conflict
        await(w);
    }

    @Test
    void watchComparesAgainstTheTransactionsOwnWrite() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("mine"));
        CompletableFuture<Void> w = tr.watch(b("k"));
        await(tr.commit());
        assertThat(w).isNotDone();
        put("k", "theirs");
        await(w);
    }

    @Test
    void watchFiresAtOnceWhenItsOwnTransactionWritesADifferentValue() {
        // RYW triggerWatches: a later write in the same transaction with a value other than
        // the one the watch saw fires the watch immediately, before any commit.
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.set(b("k"), b("b"));
        await(w);
    }

    @Test
    void watchFiresAtOnceWhenItsOwnTransactionClearsTheKey() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.clear(b("j"), b("l"));
        await(w);
    }

    @Test
    void watchFiresAtOnceWhenItsOwnTransactionAppliesAnAtomicOperation() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.mutate(MutationType.ADD, b("k"), new byte[] {0});
        await(w);
    }

    @Test
    void ownWriteOfTheSameValueDoesNotFireTheWatch() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.set(b("k"), b("a"));
        await(tr.commit());
        assertThat(w).isNotDone();
        put("k", "b");
        await(w);
    }

    @Test
    void ownWriteAfterAnEqualOwnWriteFiresTheWatchWhenItDiffers() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.set(b("k"), b("a"));
        assertThat(w).isNotDone();
        tr.set(b("k"), b("b"));
        await(w);
    }

    @Test
    void watchAfterAnOwnAtomicOperationComparesAgainstItsResult() {
        db.run(tr -> {
            tr.set(b("n"), new byte[] {1});
            return null;
        });
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.ADD, b("n"), new byte[] {1});
        CompletableFuture<Void> w = tr.watch(b("n"));
        await(tr.commit());
        assertThat(w).isNotDone();
        db.run(t -> {
            t.mutate(MutationType.ADD, b("n"), new byte[] {1});
            return null;
        });
        await(w);
    }

    @Test
    void watchOfAnOwnVersionstampedValueFailsWithAccessedUnreadable() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("k"), new byte[14]);
        assertThat(errorOf(tr.watch(b("k")))).isEqualTo(1036);
    }

    @Test
    void watchThroughLatencyActivatesAtCommit() {
        try (Database slow = Strata.builder().latency(io.strata.engine.fault.LatencyModel.of(
                java.time.Duration.ofMillis(2), java.time.Duration.ofMillis(2), java.time.Duration.ofMillis(4))).inMemory()) {
            Transaction tr = slow.createTransaction();
            CompletableFuture<Void> w = tr.watch(b("k"));
            await(tr.commit());
            slow.run(t -> {
                t.set(b("k"), b("v"));
                return null;
            });
            await(w);
        }
    }

    @Test
    void snapshotReadOfTheKeyDoesNotMakeTheWatchConflictFree() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        await(tr.snapshot().get(b("k")));
        tr.watch(b("k"));
        tr.set(b("other"), b("x"));
        put("k", "b");
        assertThat(errorOf(tr.commit())).isEqualTo(1020);
    }

    @Test
    void watchAddsAReadConflictRange() {
        // RYWImpl::watch reads the key with Snapshot::False.
        put("k", "a");
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.set(b("other"), b("x"));
        put("k", "b");
        assertThat(errorOf(tr.commit())).isEqualTo(1020);
        assertThat(errorOf(w)).isEqualTo(1020);
    }

    @Test
    void watchFailsWithTheCommitsError() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("r")));
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.set(b("other"), b("x"));
        put("r", "conflict");
        assertThat(errorOf(tr.commit())).isEqualTo(1020);
        assertThat(errorOf(w)).isEqualTo(1020);
    }

    @Test
    void watchFailsWithTransactionCancelledWhenCancelledBeforeCommit() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.cancel();
        assertThat(errorOf(w)).isEqualTo(1025);
    }

    @Test
    void watchFailsWithTransactionCancelledWhenClosedBeforeCommit() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        tr.close();
        assertThat(errorOf(w)).isEqualTo(1025);
    }

    @Test
    void committedWatchOutlivesItsTransaction() {
        Transaction tr = db.createTransaction();
        CompletableFuture<Void> w = tr.watch(b("k"));
        await(tr.commit());
        tr.close();
        assertThat(w).isNotDone();
        put("k", "v");
        await(w);
    }

    @Test
    void watchWithReadYourWritesDisabledFailsWithWatchesDisabled() {
        Transaction tr = db.createTransaction();
        tr.options().setReadYourWritesDisable();
        assertThat(errorOf(() -> tr.watch(b("k")))).isEqualTo(1034);
    }

    @Test
    void watchOfASystemKeyWithoutAccessFailsWithKeyOutsideLegalRange() {
        Transaction tr = db.createTransaction();
        assertThat(errorOf(() -> tr.watch(new byte[] {(byte) 0xff, 1}))).isEqualTo(2004);
    }

    @Test
    void moreWatchesThanMaxWatchesFailsWithTooManyWatches() {
        db.options().setMaxWatches(2);
        watch("a");
        watch("b");
        Transaction tr = db.createTransaction();
        assertThat(errorOf(() -> tr.watch(b("c")))).isEqualTo(1032);
    }

    @Test
    void uncommittedWatchesCountTowardsMaxWatches() {
        db.options().setMaxWatches(1);
        Transaction tr = db.createTransaction();
        tr.watch(b("a"));
        assertThat(errorOf(() -> tr.watch(b("b")))).isEqualTo(1032);
    }

    @Test
    void cancellingAWatchFreesItsSlot() {
        db.options().setMaxWatches(1);
        CompletableFuture<Void> first = watch("a");
        first.cancel(true);
        CompletableFuture<Void> second = watch("b");
        put("b", "v");
        await(second);
    }

    @Test
    void aFiredWatchFreesItsSlot() {
        db.options().setMaxWatches(1);
        CompletableFuture<Void> first = watch("a");
        put("a", "v");
        await(first);
        CompletableFuture<Void> second = watch("b");
        put("b", "v");
        await(second);
    }

    @Test
    void aCancelledWatchDoesNotFire() {
        CompletableFuture<Void> w = watch("k");
        w.cancel(true);
        put("k", "v");
        assertThat(w).isCancelled();
    }

    @Test
    void watchInAReadOnlyTransactionActivatesAtCommit() {
        put("k", "a");
        Transaction tr = db.createTransaction();
        assertThat(await(tr.get(b("k")))).isEqualTo(b("a"));
        CompletableFuture<Void> w = tr.watch(b("k"));
        await(tr.commit());
        assertThat(tr.getCommittedVersion()).isEqualTo(-1L);
        put("k", "b");
        await(w);
    }
}
