package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Serializable optimistic concurrency as FoundationDB resolves it: read conflict ranges of a
 * committing transaction against write conflict ranges committed after its read version.
 */
class ConflictTest {
    private Database db = Strata.inMemory();

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

    private Transaction begun() {
        Transaction tr = db.createTransaction();
        await(tr.getReadVersion());
        return tr;
    }

    private static byte[] le64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    @Test
    void readOfAKeyWrittenConcurrentlyFailsWithNotCommitted() {
        put("k", "0");
        Transaction t1 = db.createTransaction();
        await(t1.get(b("k")));
        put("k", "1");
        t1.set(b("other"), b("x"));
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
        assertThat(Fdb.valueOf(db, "other")).isNull();
    }

    @Test
    void rangeReadConflictsWithAConcurrentInsertIntoTheRange() {
        put("a", "1");
        put("z", "1");
        Transaction t1 = db.createTransaction();
        assertThat(await(t1.getRange(b("b"), b("y")).asList())).isEmpty();
        put("m", "phantom");
        t1.set(b("count"), b("0"));
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void insertOutsideTheReadRangeDoesNotConflict() {
        Transaction t1 = db.createTransaction();
        await(t1.getRange(b("b"), b("d")).asList());
        put("d", "end is exclusive");
        put("a", "before");
        t1.set(b("x"), b("1"));
        await(t1.commit());
    }

    @Test
    void rangeReadPastTheLastKeyConflictsOnlyUpToItsEnd() {
        put("a", "1");
        Transaction t1 = db.createTransaction();
        assertThat(await(t1.getRange(b("a"), b("m")).asList())).hasSize(1);
        put("n", "after the range, and after every key");
        t1.set(b("x"), b("1"));
        await(t1.commit());
    }

    @Test
    void keySelectorRunningOffTheEndConflictsThroughTheEnd() {
        // firstGreaterThan(a) + 2 needs two keys after "a" and finds one: the read went through
        // the end of the database, so any later key conflicts.
        put("a", "1");
        put("b", "2");
        Transaction t1 = db.createTransaction();
        assertThat(await(t1.getKey(new com.apple.foundationdb.KeySelector(b("a"), true, 3)))).isEqualTo(new byte[] {(byte) 0xff});
        put("z", "late");
        t1.set(b("x"), b("1"));
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void limitedRangeReadConflictsOnlyUpToTheLastKeyReturned() {
        put("a", "1");
        put("b", "2");
        put("c", "3");
        Transaction unaffected = db.createTransaction();
        assertThat(await(unaffected.getRange(b("a"), b("z"), 2).asList())).hasSize(2);
        Transaction affected = db.createTransaction();
        assertThat(await(affected.getRange(b("a"), b("z"), 2).asList())).hasSize(2);
        put("c", "changed beyond the limit");
        unaffected.set(b("x"), b("1"));
        await(unaffected.commit());
        put("b", "changed within the limit");
        affected.set(b("y"), b("1"));
        assertThat(errorOf(affected.commit())).isEqualTo(1020);
    }

    @Test
    void writeSkewIsPrevented() {
        put("x", "on");
        put("y", "on");
        // Invariant: at least one of x, y stays "on". Each transaction turns one off after
        // checking the other; only one of them may commit.
        Transaction t1 = db.createTransaction();
        Transaction t2 = db.createTransaction();
        assertThat(await(t1.get(b("y")))).isEqualTo(b("on"));
        assertThat(await(t2.get(b("x")))).isEqualTo(b("on"));
        t1.set(b("x"), b("off"));
        t2.set(b("y"), b("off"));
        await(t1.commit());
        assertThat(errorOf(t2.commit())).isEqualTo(1020);
        byte[] y = Fdb.valueOf(db, "y");
        assertThat(y).isEqualTo(b("on"));
    }

    @Test
    void ofConcurrentReadModifyWritesOnlyOneCommits() {
        // All read the same version and are committed together, most in one batch: the
        // resolver accepts the first and must fail every other, in the batch or after it.
        put("k", "0");
        List<Transaction> txs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Transaction tr = db.createTransaction();
            await(tr.get(b("k")));
            tr.set(b("k"), b("from " + i));
            txs.add(tr);
        }
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        txs.forEach(tr -> commits.add(tr.commit()));
        int committed = 0;
        for (CompletableFuture<Void> c : commits) {
            Integer code = c.handle((v, e) -> e == null ? null : Fdb.code(e)).join();
            if (code == null) {
                committed++;
            } else {
                assertThat(code).isEqualTo(1020);
            }
        }
        assertThat(committed).isEqualTo(1);
    }

    @Test
    void snapshotReadsNeverConflict() {
        put("k", "0");
        Transaction t1 = db.createTransaction();
        await(t1.snapshot().get(b("k")));
        await(t1.snapshot().getRange(b("a"), b("z")).asList());
        put("k", "1");
        put("m", "1");
        t1.set(b("other"), b("x"));
        await(t1.commit());
    }

    @Test
    void blindWritesNeverConflict() {
        Transaction t1 = begun();
        t1.set(b("k"), b("first"));
        put("k", "concurrent");
        await(t1.commit());
        byte[] k = Fdb.valueOf(db, "k");
        assertThat(k).isEqualTo(b("first"));
    }

    @Test
    void explicitReadConflictKeyConflicts() {
        Transaction t1 = begun();
        t1.addReadConflictKey(b("k"));
        t1.set(b("other"), b("x"));
        put("k", "1");
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void explicitReadConflictRangeConflicts() {
        Transaction t1 = begun();
        t1.addReadConflictRange(b("a"), b("c"));
        t1.set(b("other"), b("x"));
        put("b", "1");
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void explicitReadConflictRangeEndIsExclusive() {
        Transaction t1 = begun();
        t1.addReadConflictRange(b("a"), b("c"));
        t1.set(b("other"), b("x"));
        put("c", "1");
        await(t1.commit());
    }

    @Test
    void explicitWriteConflictKeyConflictsWithReaders() {
        Transaction reader = db.createTransaction();
        await(reader.get(b("k")));
        Transaction writer = db.createTransaction();
        writer.addWriteConflictKey(b("k"));
        await(writer.commit());
        reader.set(b("other"), b("x"));
        assertThat(errorOf(reader.commit())).isEqualTo(1020);
    }

    @Test
    void explicitWriteConflictRangeConflictsWithReaders() {
        Transaction reader = db.createTransaction();
        await(reader.get(b("m")));
        Transaction writer = db.createTransaction();
        writer.addWriteConflictRange(b("a"), b("z"));
        await(writer.commit());
        reader.set(b("other"), b("x"));
        assertThat(errorOf(reader.commit())).isEqualTo(1020);
    }

    @Test
    void transactionWithOnlyAWriteConflictRangeGetsACommitVersion() {
        Transaction tr = db.createTransaction();
        tr.addWriteConflictKey(b("k"));
        await(tr.commit());
        assertThat(tr.getCommittedVersion()).isPositive();
    }

    @Test
    void nextWriteNoWriteConflictRangeSuppressesOnlyTheNextWrite() {
        Transaction readsK1 = db.createTransaction();
        await(readsK1.get(b("k1")));
        Transaction readsK2 = db.createTransaction();
        await(readsK2.get(b("k2")));
        db.run(tr -> {
            tr.options().setNextWriteNoWriteConflictRange();
            tr.set(b("k1"), b("1"));
            tr.set(b("k2"), b("2"));
            return null;
        });
        readsK1.set(b("x"), b("1"));
        await(readsK1.commit());
        readsK2.set(b("y"), b("1"));
        assertThat(errorOf(readsK2.commit())).isEqualTo(1020);
        // The write itself still happened.
        byte[] k1 = Fdb.valueOf(db, "k1");
        assertThat(k1).isEqualTo(b("1"));
    }

    @Test
    void nextWriteNoWriteConflictRangeAppliesToAtomicOperationsAndClears() {
        Transaction readsA = db.createTransaction();
        await(readsA.get(b("a")));
        Transaction readsC = db.createTransaction();
        await(readsC.get(b("c")));
        db.run(tr -> {
            tr.options().setNextWriteNoWriteConflictRange();
            tr.mutate(MutationType.ADD, b("a"), le64(1));
            tr.options().setNextWriteNoWriteConflictRange();
            tr.clear(b("b"), b("d"));
            return null;
        });
        readsA.set(b("x"), b("1"));
        await(readsA.commit());
        readsC.set(b("y"), b("1"));
        await(readsC.commit());
    }

    @Test
    void concurrentAtomicAddsBothCommit() {
        Transaction t1 = begun();
        Transaction t2 = begun();
        t1.mutate(MutationType.ADD, b("counter"), le64(1));
        t2.mutate(MutationType.ADD, b("counter"), le64(1));
        await(t1.commit());
        await(t2.commit());
        byte[] counter = Fdb.valueOf(db, "counter");
        assertThat(counter).isEqualTo(le64(2));
    }

    @Test
    void atomicOperationAddsAWriteConflictRange() {
        Transaction reader = db.createTransaction();
        await(reader.get(b("counter")));
        db.run(tr -> {
            tr.mutate(MutationType.ADD, b("counter"), le64(1));
            return null;
        });
        reader.set(b("x"), b("1"));
        assertThat(errorOf(reader.commit())).isEqualTo(1020);
    }

    @Test
    void readOnlyCommitSucceedsWithCommittedVersionMinusOne() {
        Transaction t1 = db.createTransaction();
        await(t1.get(b("k")));
        put("k", "changed");
        await(t1.commit());
        assertThat(t1.getCommittedVersion()).isEqualTo(-1L);
    }

    @Test
    void committedVersionIsMinusOneBeforeCommit() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        assertThat(tr.getCommittedVersion()).isEqualTo(-1L);
    }

    @Test
    void ownWriteReadBackAddsNoReadConflict() {
        Transaction t1 = db.createTransaction();
        t1.set(b("k"), b("mine"));
        assertThat(await(t1.get(b("k")))).isEqualTo(b("mine"));
        put("k", "theirs");
        await(t1.commit());
    }

    @Test
    void explicitReadConflictOnAKeyTheTransactionAlreadyWroteAddsNothing() {
        // RYW's addReadConflictRange goes through updateConflictMap, which skips keys whose
        // value the transaction itself determined (ReadYourWrites.actor.cpp).
        Transaction t1 = begun();
        t1.set(b("k"), b("mine"));
        t1.addReadConflictKey(b("k"));
        put("k", "theirs");
        await(t1.commit());
    }

    @Test
    void explicitReadConflictRangeAroundOwnWritesStillCoversTheRest() {
        Transaction t1 = begun();
        t1.set(b("b"), b("mine"));
        t1.addReadConflictRange(b("a"), b("c"));
        put("a", "theirs");
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void explicitReadConflictOnAKeyWrittenWithReadYourWritesDisabledConflicts() {
        Transaction t1 = db.createTransaction();
        t1.options().setReadYourWritesDisable();
        await(t1.getReadVersion());
        t1.set(b("k"), b("mine"));
        t1.addReadConflictKey(b("k"));
        put("k", "theirs");
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void readConflictOnMetadataVersionNeedsNoSystemKeyAccess() {
        Transaction t1 = begun();
        t1.addReadConflictKey(io.strata.engine.util.ByteKeys.METADATA_VERSION_KEY);
        t1.set(b("x"), b("1"));
        db.run(tr -> {
            tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, io.strata.engine.util.ByteKeys.METADATA_VERSION_KEY, new byte[14]);
            return null;
        });
        assertThat(errorOf(t1.commit())).isEqualTo(1020);
    }

    @Test
    void staleReadVersionWithReadConflictsFailsWithTransactionTooOld() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = db.createTransaction();
        await(t1.get(b("k")));
        t1.set(b("x"), b("1"));
        clock.advance(Duration.ofSeconds(6));
        assertThat(errorOf(t1.commit())).isEqualTo(1007);
    }

    @Test
    void readVersionJustInsideTheWindowStillCommits() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = db.createTransaction();
        await(t1.get(b("k")));
        t1.set(b("x"), b("1"));
        clock.advance(Duration.ofSeconds(4));
        await(t1.commit());
    }

    @Test
    void staleBlindWriteFailsWithTransactionTooOld() {
        // Without causal_write_risky the client makes every write transaction self-conflicting
        // (NativeAPI makeSelfConflicting), so it has a read conflict range and the resolver's
        // too-old check applies to it.
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = begun();
        t1.set(b("x"), b("1"));
        clock.advance(Duration.ofSeconds(6));
        assertThat(errorOf(t1.commit())).isEqualTo(1007);
    }

    @Test
    void staleBlindWriteWithCausalWriteRiskyCommits() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = begun();
        t1.options().setCausalWriteRisky();
        t1.set(b("x"), b("1"));
        clock.advance(Duration.ofSeconds(6));
        await(t1.commit());
    }

    @Test
    void blindWriteWithoutAReadVersionCommitsAfterALongIdle() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = db.createTransaction();
        t1.set(b("x"), b("1"));
        clock.advance(Duration.ofSeconds(6));
        await(t1.commit());
    }

    @Test
    void staleReadOnlyTransactionCommits() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        db.close();
        db = Strata.builder().nanoTime(clock).inMemory();
        Transaction t1 = db.createTransaction();
        await(t1.get(b("k")));
        clock.advance(Duration.ofSeconds(6));
        await(t1.commit());
        assertThat(t1.getCommittedVersion()).isEqualTo(-1L);
    }
}
