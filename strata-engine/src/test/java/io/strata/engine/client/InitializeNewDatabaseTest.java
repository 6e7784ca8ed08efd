package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code initialize_new_database} (300), as NativeAPI's {@code Transaction::setOption} handles
 * it: refused with {@code read_version_already_set} once the transaction has a read version;
 * otherwise the read version becomes 0 and the transaction {@code causal_write_risky}. Reads at
 * version 0 fail with {@code client_invalid_operation} ({@code DatabaseContext::validateVersion}
 * in {@code fdbclient/NativeAPI.actor.cpp}); blind writes commit.
 */
class InitializeNewDatabaseTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void readVersionBecomesZeroAndReadsFailWithInvalidOperation() {
        Transaction tr = db.createTransaction();
        tr.options().setInitializeNewDatabase();
        assertThat(await(tr.getReadVersion())).isZero();
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(2000);
        assertThat(errorOf(tr.snapshot().get(b("k")))).isEqualTo(2000);
        assertThat(errorOf(tr.getKey(KeySelector.firstGreaterOrEqual(b("k"))))).isEqualTo(2000);
        assertThat(errorOf(tr.getRange(b("a"), b("z")).asList())).isEqualTo(2000);
    }

    @Test
    void blindWritesCommit() {
        Transaction tr = db.createTransaction();
        tr.options().setInitializeNewDatabase();
        tr.set(b("k"), b("v"));
        await(tr.commit());
        assertThat(tr.getCommittedVersion()).isPositive();
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(b("v"));
    }

    @Test
    void afterTheReadVersionIsKnownItFailsWithReadVersionAlreadySet() {
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        assertThat(deferredErrorOf(() -> tr.options().setInitializeNewDatabase(), tr::commit)).isEqualTo(2010);
        Transaction explicit = db.createTransaction();
        explicit.setReadVersion(5);
        assertThat(deferredErrorOf(() -> explicit.options().setInitializeNewDatabase(), explicit::commit)).isEqualTo(2010);
    }

    @Test
    void setReadVersionAfterItFailsWithReadVersionAlreadySet() {
        Transaction tr = db.createTransaction();
        tr.options().setInitializeNewDatabase();
        assertThat(deferredErrorOf(() -> tr.setReadVersion(5), tr::commit)).isEqualTo(2010);
    }
}
