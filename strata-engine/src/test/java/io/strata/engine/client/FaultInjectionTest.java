package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
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

/** FaultPolicy outcomes at commit, and LatencyModel delays that must not change results. */
class FaultInjectionTest {
    private static final long SEED = 20_240_601L;

    private static Database withFaults(FaultPolicy faults) {
        return Strata.builder().faults(faults).inMemory();
    }

    /** Reads {@code key} in a read-only transaction: reads and read-only commits are never faulted. */
    private static byte[] valueOf(Database db, String key) {
        return Fdb.valueOf(db, key);
    }

    private static int commitSet(Database db, String key) {
        Transaction tr = db.createTransaction();
        tr.set(b(key), b("v"));
        try {
            return errorOf(tr.commit());
        } finally {
            tr.close();
        }
    }

    @Test
    void notCommittedFaultFailsEveryCommitWith1020AndWritesNothing() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).notCommitted(1.0).build())) {
            assertThat(commitSet(db, "k")).isEqualTo(1020);
            assertThat(valueOf(db, "k")).isNull();
        }
    }

    @Test
    void unknownResultCommittedFaultReports1021AndTheWriteIsThere() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).unknownResultCommitted(1.0).build())) {
            assertThat(commitSet(db, "k")).isEqualTo(1021);
            assertThat(valueOf(db, "k")).isEqualTo(b("v"));
        }
    }

    @Test
    void unknownResultNotCommittedFaultReports1021AndTheWriteIsNotThere() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).unknownResultNotCommitted(1.0).build())) {
            assertThat(commitSet(db, "k")).isEqualTo(1021);
            assertThat(valueOf(db, "k")).isNull();
        }
    }

    @Test
    void transactionTooOldFaultFailsWith1007AndWritesNothing() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).transactionTooOld(1.0).build())) {
            assertThat(commitSet(db, "k")).isEqualTo(1007);
            assertThat(valueOf(db, "k")).isNull();
        }
    }

    @Test
    void readOnlyCommitsAreNeverFaulted() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).notCommitted(1.0).build())) {
            Transaction tr = db.createTransaction();
            await(tr.get(b("k")));
            await(tr.commit());
        }
    }

    @Test
    void unknownResultFailsTheVersionstampWithTransactionInvalidVersion() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).unknownResultCommitted(1.0).build())) {
            Transaction tr = db.createTransaction();
            tr.set(b("k"), b("v"));
            CompletableFuture<byte[]> vs = tr.getVersionstamp();
            assertThat(errorOf(tr.commit())).isEqualTo(1021);
            assertThat(errorOf(vs)).isEqualTo(2020);
        }
    }

    @Test
    void runRetriesThroughNotCommittedFaults() {
        try (Database db = withFaults(FaultPolicy.seeded(SEED).notCommitted(0.5).build())) {
            for (int i = 0; i < 20; i++) {
                db.run(tr -> {
                    tr.mutate(MutationType.ADD, b("counter"), le64(1));
                    return null;
                });
            }
            assertThat(valueOf(db, "counter")).isEqualTo(le64(20));
        }
    }

    @Test
    void sameSeedGivesTheSameSequenceOfOutcomes() {
        FaultPolicy.Builder rates = FaultPolicy.seeded(SEED).notCommitted(0.2).unknownResultCommitted(0.2)
                .unknownResultNotCommitted(0.2).transactionTooOld(0.2);
        List<Integer> first = outcomes(rates.build());
        List<Integer> second = outcomes(rates.build());
        assertThat(first).isEqualTo(second);
        assertThat(first).contains(0, 1020, 1021, 1007);
    }

    private static List<Integer> outcomes(FaultPolicy faults) {
        List<Integer> out = new ArrayList<>();
        try (Database db = withFaults(faults)) {
            for (int i = 0; i < 40; i++) {
                Transaction tr = db.createTransaction();
                tr.set(b("k" + i), b("v"));
                CompletableFuture<Void> f = tr.commit();
                out.add(f.handle((v, e) -> e == null ? 0 : Fdb.code(e)).join());
                tr.close();
            }
        }
        return out;
    }

    private static byte[] le64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    // ---------------------------------------------------------------- latency

    private static Database withLatency() {
        return Strata.builder().latency(LatencyModel.of(Duration.ofMillis(2), Duration.ofMillis(2), Duration.ofMillis(6))).inMemory();
    }

    @Test
    void readsAndCommitsCompleteUnderLatency() {
        try (Database db = withLatency()) {
            db.run(tr -> {
                tr.set(b("a"), b("1"));
                tr.set(b("b"), b("2"));
                return null;
            });
            List<KeyValue> rows = db.read(tr -> tr.getRange(b("a"), b("z")).asList().join());
            assertThat(rows).hasSize(2);
            assertThat(valueOf(db, "b")).isEqualTo(b("2"));
        }
    }

    @Test
    void conflictsAreStillDetectedUnderLatency() {
        try (Database db = withLatency()) {
            Transaction t1 = db.createTransaction();
            await(t1.get(b("k")));
            db.run(tr -> {
                tr.set(b("k"), b("theirs"));
                return null;
            });
            t1.set(b("k"), b("mine"));
            assertThat(errorOf(t1.commit())).isEqualTo(1020);
        }
    }

    @Test
    void sequentialCommitsUnderLatencyAreVisibleInOrder() {
        try (Database db = withLatency()) {
            long last = 0;
            for (int i = 0; i < 5; i++) {
                Transaction tr = db.createTransaction();
                tr.set(b("k"), b(Integer.toString(i)));
                await(tr.commit());
                assertThat(tr.getCommittedVersion()).isGreaterThan(last);
                last = tr.getCommittedVersion();
                Transaction reader = db.createTransaction();
                assertThat(await(reader.getReadVersion())).isGreaterThanOrEqualTo(last);
                assertThat(await(reader.get(b("k")))).isEqualTo(b(Integer.toString(i)));
            }
        }
    }

    @Test
    void concurrentIncrementsUnderLatencyAllLand() {
        try (Database db = withLatency()) {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                all.add(db.runAsync(tr -> tr.get(b("n")).thenAccept(v -> {
                    long n = v == null ? 0 : ByteBuffer.wrap(v).getLong();
                    tr.set(b("n"), ByteBuffer.allocate(8).putLong(n + 1).array());
                })));
            }
            all.forEach(Fdb::await);
            byte[] n = valueOf(db, "n");
            assertThat(ByteBuffer.wrap(n).getLong()).isEqualTo(20);
        }
    }
}
