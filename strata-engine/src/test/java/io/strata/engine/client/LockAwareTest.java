package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
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
 * {@code lock_aware} and {@code read_lock_aware}. The engine has no database lock, but
 * NativeAPI's {@code Transaction::setOption} makes a transaction that is only
 * {@code read_lock_aware} read-only, and {@code Transaction::commitMutations}
 * ({@code fdbclient/NativeAPI.actor.cpp}) then refuses to commit its writes with
 * {@code transaction_read_only} (2023).
 */
class LockAwareTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void readLockAwareTransactionWithWritesFailsToCommitWithTransactionReadOnly() {
        Transaction tr = db.createTransaction();
        tr.options().setReadLockAware();
        tr.set(b("k"), b("v"));
        CompletableFuture<byte[]> stamp = tr.getVersionstamp();
        assertThat(errorOf(tr.commit())).isEqualTo(2023);
        // commitAndWatch fails the versionstamp with transaction_invalid_version whatever the error.
        assertThat(errorOf(stamp)).isEqualTo(2020);
        assertThat(Fdb.valueOf(db, "k")).isNull();
    }

    @Test
    void aWriteConflictRangeAloneIsAWriteToo() {
        Transaction tr = db.createTransaction();
        tr.options().setReadLockAware();
        tr.addWriteConflictRange(b("a"), b("b"));
        assertThat(errorOf(tr.commit())).isEqualTo(2023);
    }

    @Test
    void readLockAwareTransactionWithoutWritesCommits() {
        Transaction tr = db.createTransaction();
        tr.options().setReadLockAware();
        await(tr.get(b("k")));
        await(tr.commit());
        assertThat(tr.getCommittedVersion()).isEqualTo(-1L);
    }

    @Test
    void lockAwareBeforeOrAfterReadLockAwareAllowsWrites() {
        Transaction before = db.createTransaction();
        before.options().setLockAware();
        before.options().setReadLockAware();
        before.set(b("k1"), b("v"));
        await(before.commit());

        Transaction after = db.createTransaction();
        after.options().setReadLockAware();
        after.options().setLockAware();
        after.set(b("k2"), b("v"));
        await(after.commit());
        assertThat(Fdb.valueOf(db, "k2")).isEqualTo(b("v"));
    }

    @Test
    void transactionReadOnlyIsNotRetryable() {
        Transaction tr = db.createTransaction();
        tr.options().setReadLockAware();
        tr.set(b("k"), b("v"));
        assertThat(errorOf(tr.commit())).isEqualTo(2023);
        assertThat(errorOf(tr.onError(new FDBException("read only", 2023)))).isEqualTo(2023);
    }

    @Test
    void readLockAwareIsResetByOnError() {
        Transaction tr = db.createTransaction();
        tr.options().setReadLockAware();
        Transaction retry = await(tr.onError(new FDBException("not_committed", 1020)));
        retry.set(b("k"), b("v"));
        await(retry.commit());
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }
}
