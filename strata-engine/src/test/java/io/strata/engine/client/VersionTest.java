package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/** Read versions, setReadVersion, and commit versions advancing with the clock. */
class VersionTest {
    private final Fdb.FakeClock clock = new Fdb.FakeClock();
    private final Database db = Strata.builder().nanoTime(clock).inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private long commitSomething(String key) {
        Transaction tr = db.createTransaction();
        tr.set(b(key), b("v"));
        await(tr.commit());
        long v = tr.getCommittedVersion();
        tr.close();
        return v;
    }

    @Test
    void readVersionsAreMonotoneAcrossTransactions() {
        long last = 0;
        for (int i = 0; i < 50; i++) {
            if (i % 5 == 0) {
                commitSomething("k" + i);
            }
            if (i % 7 == 0) {
                clock.advance(Duration.ofMillis(3));
            }
            Transaction tr = db.createTransaction();
            long rv = await(tr.getReadVersion());
            assertThat(rv).isGreaterThanOrEqualTo(last);
            last = rv;
            tr.close();
        }
    }

    @Test
    void readVersionAfterACommitIsAtLeastItsCommitVersion() {
        long committed = commitSomething("k");
        Transaction tr = db.createTransaction();
        assertThat(await(tr.getReadVersion())).isGreaterThanOrEqualTo(committed);
        byte[] seen = await(tr.get(b("k")));
        assertThat(seen).isEqualTo(b("v"));
    }

    @Test
    void readVersionIsFixedForTheTransaction() {
        Transaction tr = db.createTransaction();
        long rv = await(tr.getReadVersion());
        commitSomething("k");
        assertThat(await(tr.getReadVersion())).isEqualTo(rv);
        assertThat(await(tr.get(b("k")))).isNull();
    }

    @Test
    void setReadVersionReadsThatSnapshot() {
        long before = commitSomething("k");
        Transaction later = db.createTransaction();
        later.set(b("k"), b("newer"));
        await(later.commit());
        Transaction tr = db.createTransaction();
        tr.setReadVersion(before);
        assertThat(await(tr.getReadVersion())).isEqualTo(before);
        assertThat(await(tr.get(b("k")))).isEqualTo(b("v"));
    }

    @Test
    void setReadVersionOlderThanTheWindowFailsReadsWithTransactionTooOld() {
        long old = commitSomething("k");
        clock.advance(Duration.ofSeconds(10));
        commitSomething("later");
        Transaction tr = db.createTransaction();
        tr.setReadVersion(old);
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1007);
    }

    @Test
    void setReadVersionInTheFutureFailsReadsWithFutureVersion() {
        Transaction tr = db.createTransaction();
        long now = await(db.createTransaction().getReadVersion());
        tr.setReadVersion(now + 1_000_000_000L);
        assertThat(errorOf(tr.get(b("k")))).isEqualTo(1009);
    }

    @Test
    void setReadVersionTwiceFailsWithReadVersionAlreadySet() {
        Transaction tr = db.createTransaction();
        long now = await(db.createTransaction().getReadVersion());
        tr.setReadVersion(now);
        assertThat(deferredErrorOf(() -> tr.setReadVersion(now), () -> tr.get(b("k")))).isEqualTo(2010);
    }

    @Test
    void setReadVersionAfterReadingFailsWithReadVersionAlreadySet() {
        Transaction tr = db.createTransaction();
        long rv = await(tr.getReadVersion());
        await(tr.get(b("k")));
        assertThat(deferredErrorOf(() -> tr.setReadVersion(rv), () -> tr.get(b("k")))).isEqualTo(2010);
    }

    @Test
    void setReadVersionZeroFailsWithVersionInvalid() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.setReadVersion(0), () -> tr.get(b("k")))).isEqualTo(2011);
    }

    @Test
    void committedVersionsStrictlyIncrease() {
        long last = 0;
        for (int i = 0; i < 100; i++) {
            long v = commitSomething("k" + (i % 3));
            assertThat(v).isGreaterThan(last);
            last = v;
        }
    }

    @Test
    void versionsAdvanceAboutOneMillionPerSecondOfClockTime() {
        long first = commitSomething("a");
        clock.advance(Duration.ofSeconds(1));
        long second = commitSomething("b");
        // Idle ticks while the clock stands still add one version each; a handful at most.
        assertThat(second - first).isBetween(990_000L, 1_010_000L);
    }

    @Test
    void versionsAdvanceWithoutCommitsAsTimePasses() {
        Transaction before = db.createTransaction();
        long rv1 = await(before.getReadVersion());
        clock.advance(Duration.ofSeconds(2));
        // The sequencer's idle tick publishes a new version at most IDLE_TICK_MILLIS later.
        long rv2 = rv1;
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (rv2 < rv1 + 1_900_000 && System.nanoTime() < deadline) {
            Transaction tr = db.createTransaction();
            rv2 = await(tr.getReadVersion());
            tr.close();
            Thread.onSpinWait();
        }
        assertThat(rv2).isGreaterThanOrEqualTo(rv1 + 1_900_000);
    }
}
