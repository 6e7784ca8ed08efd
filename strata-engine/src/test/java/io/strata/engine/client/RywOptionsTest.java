package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes switches: {@code read_your_writes_disable} (51) for every read,
 * {@code snapshot_ryw_disable} (601) / {@code snapshot_ryw_enable} (600) for snapshot reads,
 * and the snapshot view's default of seeing the transaction's own writes.
 */
class RywOptionsTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "b", "c");
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    /** Own writes: a overwritten, b cleared, bb added, c appended to. */
    private void writeMix(Transaction t) {
        t.set(b("a"), b("mine"));
        t.clear(b("b"));
        t.set(b("bb"), b("new"));
        t.mutate(MutationType.APPEND_IF_FITS, b("c"), b("+"));
    }

    private static String get(ReadTransaction r, String key) {
        return s(r.get(b(key)).join());
    }

    private static String keyAfter(ReadTransaction r, String key) {
        return s(r.getKey(KeySelector.firstGreaterThan(b(key))).join());
    }

    @Test
    void snapshotReadsSeeOwnWritesByDefault() {
        writeMix(tr);
        ReadTransaction snap = tr.snapshot();
        assertThat(get(snap, "a")).isEqualTo("mine");
        assertThat(get(snap, "b")).isNull();
        assertThat(get(snap, "c")).isEqualTo("c+");
        assertThat(keyAfter(snap, "a")).isEqualTo("bb");
        assertThat(keys(snap.getRange(b(""), b("z")).asList().join())).containsExactly("a", "bb", "c");
    }

    @Test
    void snapshotViewIdentity() {
        assertThat(tr.isSnapshot()).isFalse();
        assertThat(tr.snapshot().isSnapshot()).isTrue();
        assertThat(tr.snapshot().snapshot()).isSameAs(tr.snapshot());
    }

    @Test
    void readYourWritesDisableHidesOwnWritesFromEveryRead() {
        tr.options().setReadYourWritesDisable();
        writeMix(tr);
        for (ReadTransaction r : new ReadTransaction[] {tr, tr.snapshot()}) {
            assertThat(get(r, "a")).isEqualTo("a");
            assertThat(get(r, "b")).isEqualTo("b");
            assertThat(get(r, "bb")).isNull();
            assertThat(get(r, "c")).isEqualTo("c");
            assertThat(keyAfter(r, "a")).isEqualTo("b");
            assertThat(keys(r.getRange(b(""), b("z")).asList().join())).containsExactly("a", "b", "c");
        }
    }

    @Test
    void readYourWritesDisabledTransactionStillCommitsItsWrites() {
        tr.options().setReadYourWritesDisable();
        writeMix(tr);
        tr.commit().join();
        List<String> committed = db.read(t -> keys(t.getRange(b(""), b("z")).asList().join()));
        assertThat(committed).containsExactly("a", "bb", "c");
        String c = db.read(t -> s(t.get(b("c")).join()));
        assertThat(c).isEqualTo("c+");
    }

    @Test
    void readYourWritesDisableAfterAWriteIsInvalid() {
        tr.set(b("x"), b("y"));
        assertThat(errorCode(() -> tr.options().setReadYourWritesDisable())).isEqualTo(2000);
    }

    @Test
    void readYourWritesDisableAfterAReadIsInvalid() {
        tr.get(b("a")).join();
        assertThat(errorCode(() -> tr.options().setReadYourWritesDisable())).isEqualTo(2000);
        Transaction other = db.createTransaction();
        try {
            other.snapshot().getRange(b("a"), b("b")).asList().join();
            assertThat(errorCode(() -> other.options().setReadYourWritesDisable())).isEqualTo(2000);
        } finally {
            other.close();
        }
    }

    @Test
    void readYourWritesDisableAfterOnlyGettingTheReadVersionIsAllowed() {
        tr.getReadVersion().join();
        tr.options().setReadYourWritesDisable();
        tr.set(b("a"), b("mine"));
        assertThat(get(tr, "a")).isEqualTo("a");
    }

    @Test
    void snapshotRywDisableHidesOwnWritesFromSnapshotReadsOnly() {
        tr.options().setSnapshotRywDisable();
        writeMix(tr);
        ReadTransaction snap = tr.snapshot();
        assertThat(get(snap, "a")).isEqualTo("a");
        assertThat(get(snap, "bb")).isNull();
        assertThat(keyAfter(snap, "a")).isEqualTo("b");
        assertThat(keys(snap.getRange(b(""), b("z")).asList().join())).containsExactly("a", "b", "c");
        assertThat(get(tr, "a")).as("serializable reads still see own writes").isEqualTo("mine");
        assertThat(keys(tr.getRange(b(""), b("z")).asList().join())).containsExactly("a", "bb", "c");
    }

    @Test
    void snapshotRywEnableCountsAgainstDisable() {
        writeMix(tr);
        tr.options().setSnapshotRywDisable();
        tr.options().setSnapshotRywDisable();
        tr.options().setSnapshotRywEnable();
        assertThat(get(tr.snapshot(), "a")).as("two disables, one enable").isEqualTo("a");
        tr.options().setSnapshotRywEnable();
        assertThat(get(tr.snapshot(), "a")).isEqualTo("mine");
    }

    @Test
    void databaseSnapshotRywDisableIsTheDefaultOfNewTransactions() {
        db.options().setSnapshotRywDisable();
        try (Transaction t = db.createTransaction()) {
            writeMix(t);
            assertThat(get(t.snapshot(), "a")).isEqualTo("a");
            t.options().setSnapshotRywEnable();
            assertThat(get(t.snapshot(), "a")).isEqualTo("mine");
        }
    }
}
