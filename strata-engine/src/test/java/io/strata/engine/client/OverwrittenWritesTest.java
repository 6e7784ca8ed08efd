package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.TransactionOptions;
import io.strata.Strata;
import io.strata.engine.commit.CommitCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A write of a key that the same transaction wrote before makes the earlier mutation dead:
 * the commit sends only the live ones, and the key's write conflict range once. What the
 * database holds afterwards, what the transaction reads and what it is charged
 * ({@code getApproximateSize}, the status counters) are as if every write were sent.
 * {@link RywModelPropertyTest} checks the committed data against a model for random mixes.
 */
class OverwrittenWritesTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private EngineTransaction begin() {
        return (EngineTransaction) db.createTransaction();
    }

    private byte[] committed(String key) {
        return db.read(tr -> tr.get(b(key)).join());
    }

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    @Test
    void aThousandSetsOfOneKeySendOneMutationAndOneConflictRange() {
        EngineTransaction tr = begin();
        for (int i = 0; i < 1000; i++) {
            tr.set(b("k"), b("v" + i));
        }
        synchronized (tr) {
            assertThat(tr.mutations).hasSize(1000);
            assertThat(tr.liveMutations()).hasSize(1);
            assertThat(tr.liveMutations().get(0).param()).isEqualTo(b("v999"));
            assertThat(tr.writeConflicts.size()).isEqualTo(1);
        }
        await(tr.commit());
        assertThat(committed("k")).isEqualTo(b("v999"));
    }

    @Test
    void theChargedSizeCountsEveryWrite() {
        Transaction once = db.createTransaction();
        once.set(b("k"), b("v"));
        long one = await(once.getApproximateSize());
        Transaction thrice = db.createTransaction();
        for (int i = 0; i < 3; i++) {
            thrice.set(b("k"), b("v"));
        }
        assertThat(await(thrice.getApproximateSize())).isEqualTo(3 * one);
    }

    @Test
    void statusCountersCountTheMutationsAsIssued() {
        CommitCounters counters = ((EngineDatabase) db).engine().pipeline().counters();
        long before = counters.mutations();
        db.run(tr -> {
            for (int i = 0; i < 10; i++) {
                tr.set(b("k"), b("v" + i));
            }
            return null;
        });
        assertThat(counters.mutations() - before).isEqualTo(10);
    }

    @Test
    void aSetAfterAnAtomicOperationWins() {
        db.run(tr -> {
            tr.set(b("n"), le(5));
            tr.mutate(MutationType.ADD, b("n"), le(1));
            tr.set(b("n"), le(40));
            tr.mutate(MutationType.ADD, b("n"), le(2));
            return null;
        });
        assertThat(committed("n")).isEqualTo(le(42));
    }

    @Test
    void atomicOperationsOnAStoredValueAllApplyBeforeALaterSet() {
        db.run(tr -> {
            tr.set(b("n"), le(100));
            return null;
        });
        db.run(tr -> {
            tr.mutate(MutationType.ADD, b("n"), le(1));
            tr.mutate(MutationType.ADD, b("n"), le(1));
            return null;
        });
        assertThat(committed("n")).isEqualTo(le(102));
        db.run(tr -> {
            tr.mutate(MutationType.ADD, b("n"), le(1));
            tr.mutate(MutationType.ADD, b("n"), le(1));
            tr.set(b("n"), le(7));
            tr.mutate(MutationType.ADD, b("n"), le(1));
            return null;
        });
        assertThat(committed("n")).isEqualTo(le(8));
    }

    @Test
    void manyAddsToAnUnreadKeyAreReadAsTheirSum() {
        db.run(tr -> {
            tr.set(b("n"), le(1000));
            return null;
        });
        EngineTransaction tr = begin();
        for (int i = 0; i < 50_000; i++) {
            tr.mutate(MutationType.ADD, b("n"), le(1));
            if (i % 1000 == 0) {
                // Each read applies the pending operations to the stored value: one, once folded.
                assertThat(await(tr.get(b("n")))).isEqualTo(le(1000 + i + 1));
            }
        }
        tr.mutate(MutationType.ADD, b("n"), new byte[] {5}); // another width: not folded into the 8-byte sum
        assertThat(await(tr.get(b("n")))).isEqualTo(new byte[] {(byte) ((1000 + 50_000 + 5) & 0xff)});
        synchronized (tr) {
            assertThat(tr.liveMutations()).hasSize(50_001);
        }
        await(tr.commit());
        assertThat(committed("n")).isEqualTo(new byte[] {(byte) ((1000 + 50_000 + 5) & 0xff)});
    }

    @Test
    void clearsAndSetsOfOneKeyEndWithTheLast() {
        db.run(tr -> {
            tr.set(b("a"), b("1"));
            tr.set(b("b"), b("1"));
            return null;
        });
        db.run(tr -> {
            tr.set(b("a"), b("2"));
            tr.clear(b("a"));
            tr.clear(b("b"));
            tr.set(b("b"), b("3"));
            return null;
        });
        assertThat(committed("a")).isNull();
        assertThat(committed("b")).isEqualTo(b("3"));
    }

    @Test
    void aRangeClearBetweenTwoSetsIsKept() {
        db.run(tr -> {
            tr.set(b("a"), b("1"));
            tr.set(b("c"), b("1"));
            return null;
        });
        db.run(tr -> {
            tr.set(b("a"), b("2"));
            tr.clear(b("a"), b("d"));
            tr.set(b("a"), b("3"));
            return null;
        });
        assertThat(committed("a")).isEqualTo(b("3"));
        assertThat(committed("c")).isNull();
    }

    @Test
    void versionstampedValuesOverwriteAndAreOverwritten() {
        byte[] stampPlaceholder = new byte[14]; // 10-byte stamp, then its offset (0) in 4 bytes
        EngineTransaction tr = begin();
        tr.set(b("s"), b("plain"));
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("s"), stampPlaceholder);
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, b("t"), stampPlaceholder);
        tr.set(b("t"), b("plain"));
        CompletableFuture<byte[]> stamp = tr.getVersionstamp();
        synchronized (tr) {
            assertThat(tr.liveMutations()).hasSize(2);
        }
        await(tr.commit());
        assertThat(committed("s")).isEqualTo(Arrays.copyOf(await(stamp), 10));
        assertThat(committed("t")).isEqualTo(b("plain"));
    }

    @Test
    void withReadYourWritesDisabledEveryWriteConflictRangeIsSent() {
        EngineTransaction tr = begin();
        tr.options().setReadYourWritesDisable();
        for (int i = 0; i < 3; i++) {
            tr.set(b("k"), b("v" + i));
        }
        synchronized (tr) {
            assertThat(tr.writeConflicts.size()).isEqualTo(3);
            assertThat(tr.liveMutations()).hasSize(1);
        }
        await(tr.commit());
        assertThat(committed("k")).isEqualTo(b("v2"));
    }

    @Test
    void aWriteWithoutConflictRangeThenOneWithItRecordsIt() {
        EngineTransaction tr = begin();
        TransactionOptions options = tr.options();
        options.setNextWriteNoWriteConflictRange();
        tr.set(b("k"), b("1"));
        synchronized (tr) {
            assertThat(tr.writeConflicts.size()).isZero();
        }
        tr.set(b("k"), b("2"));
        tr.mutate(MutationType.ADD, b("k"), le(1));
        synchronized (tr) {
            assertThat(tr.writeConflicts.size()).isEqualTo(1);
        }
    }

    @Test
    void aKeyWrittenManyTimesStillConflictsWithItsReaders() {
        db.run(tr -> {
            tr.set(b("k"), b("0"));
            return null;
        });
        Transaction reader = db.createTransaction();
        assertThat(await(reader.get(b("k")))).isEqualTo(b("0"));
        reader.set(b("other"), b("x"));
        db.run(tr -> {
            for (int i = 0; i < 5; i++) {
                tr.set(b("k"), b("w" + i));
            }
            return null;
        });
        assertThat(reader.commit()).failsWithin(Duration.ofSeconds(5))
                .withThrowableOfType(ExecutionException.class)
                .havingCause()
                .isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1020));
    }
}
