package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.MvccWindow;
import io.strata.Strata;
import io.strata.engine.Engine;
import io.strata.engine.version.VersionClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MvccWindow#OPEN_TRANSACTIONS}: open transactions read and commit as under FoundationDB's
 * five seconds, whatever is written meanwhile; versions no open transaction can read are
 * dropped at the next pruning; a version set with {@code setReadVersion} that nothing holds is
 * too old sooner than five seconds (the documented difference); a transaction never closed
 * keeps versions for five seconds at most.
 */
class MvccWindowTest {
    private final Fdb.FakeClock clock = new Fdb.FakeClock();
    private Engine engine;
    private Database db;

    private void open(MvccWindow window) {
        engine = Strata.builder().nanoTime(clock).mvccWindow(window).inMemoryEngine();
        db = EngineDatabase.owning(engine, engine.pool(), Connection.direct("strata:memory"));
    }

    @AfterEach
    void close() {
        if (db != null) {
            db.close();
        }
    }

    private long set(String key, String value) {
        try (Transaction tr = db.createTransaction()) {
            tr.set(b(key), b(value));
            await(tr.commit());
            return tr.getCommittedVersion();
        }
    }

    /** Commits {@code count} writes of {@code key}, the clock moving past a pruning interval before each. */
    private void rewriteWhilePruning(String key, int count) {
        for (int i = 0; i < count; i++) {
            clock.advance(Duration.ofMillis(60));
            set(key, "v" + i);
        }
    }

    @ParameterizedTest
    @EnumSource(MvccWindow.class)
    void anOpenTransactionReadsItsSnapshotAndConflictsAsUsual(MvccWindow window) {
        open(window);
        set("k", "old");
        Transaction reader = db.createTransaction();
        long rv = await(reader.getReadVersion());
        rewriteWhilePruning("k", 20); // 1.2 s of writes, 20 prunings
        assertThat(await(reader.get(b("k")))).isEqualTo(b("old"));
        assertThat(await(reader.getRange(b("a"), b("z")).asList())).hasSize(1);
        assertThat(await(reader.getReadVersion())).isEqualTo(rv);
        reader.set(b("other"), b("x"));
        assertThat(errorOf(reader.commit())).isEqualTo(1020); // not_committed: k changed, not too old
        reader.close();
    }

    @Test
    void versionsNoOpenTransactionReadsAreDroppedAtTheNextPruning() {
        open(MvccWindow.OPEN_TRANSACTIONS);
        rewriteWhilePruning("k", 3);
        long latest = set("k", "latest");
        clock.advance(Duration.ofMillis(60));
        set("other", "x"); // a pruning with no transaction open
        assertThat(engine.store().oldestReadableVersion()).isGreaterThanOrEqualTo(latest);
    }

    @Test
    void underFiveSecondsTheSameVersionsStayReadable() {
        open(MvccWindow.FIVE_SECONDS);
        long first = set("k", "first");
        rewriteWhilePruning("k", 10);
        assertThat(engine.store().oldestReadableVersion()).isLessThan(first);
        try (Transaction tr = db.createTransaction()) {
            tr.setReadVersion(first);
            assertThat(await(tr.get(b("k")))).isEqualTo(b("first"));
        }
    }

    @Test
    void aVersionNothingHoldsIsTooOldForSetReadVersion() {
        open(MvccWindow.OPEN_TRANSACTIONS);
        long first = set("k", "first");
        rewriteWhilePruning("k", 3);
        try (Transaction tr = db.createTransaction()) {
            tr.setReadVersion(first);
            assertThat(errorOf(tr.get(b("k")))).isEqualTo(1007);
        }
    }

    @Test
    void aVersionAnOpenTransactionHoldsStaysReadableForSetReadVersion() {
        open(MvccWindow.OPEN_TRANSACTIONS);
        set("k", "first");
        Transaction holder = db.createTransaction();
        long held = await(holder.getReadVersion());
        rewriteWhilePruning("k", 5);
        try (Transaction tr = db.createTransaction()) {
            tr.setReadVersion(held);
            assertThat(await(tr.get(b("k")))).isEqualTo(b("first"));
        }
        holder.close();
        rewriteWhilePruning("k", 2);
        try (Transaction tr = db.createTransaction()) {
            tr.setReadVersion(held);
            assertThat(errorOf(tr.get(b("k")))).isEqualTo(1007);
        }
    }

    @Test
    void cancelAndOnErrorReleaseTheReadVersionToo() {
        open(MvccWindow.OPEN_TRANSACTIONS);
        set("k", "first");
        Transaction cancelled = db.createTransaction();
        await(cancelled.getReadVersion());
        cancelled.cancel();
        Transaction retried = db.createTransaction();
        await(retried.getReadVersion());
        Transaction next = await(retried.onError(new com.apple.foundationdb.FDBException("not_committed", 1020)));
        long latest = set("k", "latest");
        clock.advance(Duration.ofMillis(60));
        set("other", "x");
        assertThat(engine.store().oldestReadableVersion()).isGreaterThanOrEqualTo(latest);
        next.close();
        cancelled.close();
    }

    @Test
    void aTransactionNeverClosedHoldsVersionsForFiveSecondsAtMost() {
        open(MvccWindow.OPEN_TRANSACTIONS);
        set("k", "first");
        Transaction forgotten = db.createTransaction();
        long rv = await(forgotten.getReadVersion());
        rewriteWhilePruning("k", 50); // 3 s
        assertThat(engine.store().oldestReadableVersion()).isLessThanOrEqualTo(rv);
        assertThat(await(forgotten.get(b("k")))).isEqualTo(b("first"));
        rewriteWhilePruning("k", 50); // 6 s: past the window
        assertThat(engine.store().oldestReadableVersion())
                .isGreaterThan(rv + VersionClock.MAX_READ_TRANSACTION_LIFE_VERSIONS - 200_000);
        assertThat(errorOf(forgotten.get(b("never-read")))).isEqualTo(1007);
        forgotten.close();
    }
}
