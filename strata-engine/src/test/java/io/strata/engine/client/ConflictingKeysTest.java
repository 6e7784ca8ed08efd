package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code \xff\xff/transaction/}: the conflicting keys of a commit that failed with
 * {@code not_committed} under {@code report_conflicting_keys} (FoundationDB's
 * {@code ConflictingKeysImpl}, filled by NativeAPI's {@code tryCommit} from the resolver's
 * report), and the transaction's own read and write conflict ranges
 * ({@code ReadConflictRangeImpl}, {@code WriteConflictRangeImpl}). Each is shown as boundaries:
 * a key valued {@code "1"} where a range begins and {@code "0"} where it ends.
 */
class ConflictingKeysTest {
    private static final String CONFLICTING = "\u00ff\u00ff/transaction/conflicting_keys/";
    private static final String READS = "\u00ff\u00ff/transaction/read_conflict_range/";
    private static final String WRITES = "\u00ff\u00ff/transaction/write_conflict_range/";

    private Database db;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        ReadTests.load(db, "a", "b", "c", "d", "e");
    }

    @AfterEach
    void close() {
        db.close();
    }

    /** The boundaries under {@code prefix}, with the prefix removed, in order. */
    private static Map<String, String> boundaries(Transaction tr, String prefix) {
        List<KeyValue> rows = tr.getRange(Range.startsWith(b(prefix))).asList().join();
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : rows) {
            out.put(s(kv.getKey()).substring(prefix.length()), s(kv.getValue()));
        }
        return out;
    }

    private void write(String... keys) {
        db.run(tr -> {
            for (String k : keys) {
                tr.set(b(k), b("new"));
            }
            return null;
        });
    }

    /** A transaction that read {@code a}, {@code c}, the range {@code [d, e)}, and writes {@code x}. */
    private Transaction reader(boolean report) {
        Transaction tr = db.createTransaction();
        if (report) {
            tr.options().setReportConflictingKeys();
        }
        tr.get(b("a")).join();
        tr.get(b("c")).join();
        tr.getRange(b("d"), b("e")).asList().join();
        tr.set(b("x"), b("1"));
        return tr;
    }

    @Test
    void afterNotCommittedTheConflictingRangesAreReported() {
        try (Transaction tr = reader(true)) {
            write("c", "d");
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            assertThat(boundaries(tr, CONFLICTING)).containsExactly(
                    Map.entry("c", "1"), Map.entry("c\u0000", "0"), Map.entry("d", "1"), Map.entry("e", "0"));
        }
    }

    @Test
    void nothingIsReportedWithoutTheOption() {
        try (Transaction tr = reader(false)) {
            write("c");
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            assertThat(boundaries(tr, CONFLICTING)).isEmpty();
        }
    }

    @Test
    void theReportSurvivesOnErrorUntilTheNextNotCommitted() {
        Transaction tr = reader(true);
        write("a");
        FDBException failure = (FDBException) EngineTransaction.unwrap(tr.commit().handle((v, e) -> e).join());
        assertThat(failure.getCode()).isEqualTo(1020);
        // NativeAPI keeps conflictingKeys in the TransactionState that onError's reset clones.
        Transaction retry = tr.onError(failure).join();
        try {
            assertThat(boundaries(retry, CONFLICTING)).containsExactly(Map.entry("a", "1"), Map.entry("a\u0000", "0"));
            // The retry has lost the option (onError resets options) but still shows the report,
            // and a successful commit leaves it.
            retry.set(b("y"), b("1"));
            retry.commit().join();
            assertThat(boundaries(retry, CONFLICTING)).containsExactly(Map.entry("a", "1"), Map.entry("a\u0000", "0"));
        } finally {
            retry.close();
        }
    }

    @Test
    void aLaterNotCommittedWithoutTheOptionClearsTheReport() {
        Transaction tr = reader(true);
        write("a");
        FDBException failure = (FDBException) EngineTransaction.unwrap(tr.commit().handle((v, e) -> e).join());
        Transaction retry = tr.onError(failure).join();
        try {
            retry.get(b("b")).join();
            retry.set(b("y"), b("1"));
            write("b");
            assertThat(errorCode(retry.commit())).isEqualTo(1020);
            assertThat(boundaries(retry, CONFLICTING)).isEmpty();
        } finally {
            retry.close();
        }
    }

    @Test
    void withReadYourWritesTouchingReadsAreReportedAsOneRange() {
        // RYW sends its coalesced read-conflict map: [a, a\0) and [a\0, a\0\0) are one range.
        try (Transaction tr = db.createTransaction()) {
            tr.options().setReportConflictingKeys();
            tr.get(b("a")).join();
            tr.get(b("a\u0000")).join();
            tr.set(b("x"), b("1"));
            write("a");
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            assertThat(boundaries(tr, CONFLICTING)).containsExactly(Map.entry("a", "1"), Map.entry("a\u0000\u0000", "0"));
        }
        // NativeAPI sends the ranges as added when read-your-writes is off: only the one that conflicted.
        try (Transaction tr = db.createTransaction()) {
            tr.options().setReadYourWritesDisable();
            tr.options().setReportConflictingKeys();
            tr.get(b("a")).join();
            tr.get(b("a\u0000")).join();
            tr.set(b("x"), b("1"));
            write("a");
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            assertThat(boundaries(tr, CONFLICTING)).containsExactly(Map.entry("a", "1"), Map.entry("a\u0000", "0"));
        }
    }

    @Test
    void readableWithinTheTransactionModuleAlone() {
        try (Transaction tr = reader(true)) {
            write("c");
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            List<KeyValue> all = tr.getRange(b("\u00ff\u00ff/transaction/"), b("\u00ff\u00ff/transaction0")).asList().join();
            assertThat(ReadTests.keys(all)).startsWith(CONFLICTING + "c", CONFLICTING + "c\u0000");
            assertThat(s(tr.get(b(CONFLICTING + "c")).join())).isEqualTo("1");
            assertThat(tr.get(b(CONFLICTING + "b")).join()).isNull();
        }
    }

    @Test
    void readConflictRangesAreTheUnionOfWhatTheReadsDependedOn() {
        try (Transaction tr = db.createTransaction()) {
            tr.get(b("a")).join();
            tr.get(b("b")).join();
            tr.getRange(b("c"), b("e")).asList().join();
            tr.snapshot().get(b("z")).join(); // no conflict range
            tr.addReadConflictRange(b("p"), b("q"));
            assertThat(boundaries(tr, READS)).containsExactly(
                    Map.entry("a", "1"), Map.entry("a\u0000", "0"),
                    Map.entry("b", "1"), Map.entry("b\u0000", "0"),
                    Map.entry("c", "1"), Map.entry("e", "0"),
                    Map.entry("p", "1"), Map.entry("q", "0"));
        }
    }

    @Test
    void readsAnsweredByOwnWritesAddNoReadConflictRange() {
        try (Transaction tr = db.createTransaction()) {
            tr.set(b("a"), b("mine"));
            tr.get(b("a")).join();
            tr.get(b("b")).join();
            assertThat(boundaries(tr, READS)).containsExactly(Map.entry("b", "1"), Map.entry("b\u0000", "0"));
        }
    }

    @Test
    void writeConflictRangesIncludeWritesClearsAndExplicitRanges() {
        try (Transaction tr = db.createTransaction()) {
            tr.set(b("a"), b("1"));
            tr.clear(b("c"), b("e"));
            tr.mutate(MutationType.ADD, b("f"), new byte[8]);
            tr.addWriteConflictRange(b("p"), b("q"));
            tr.options().setNextWriteNoWriteConflictRange();
            tr.set(b("z"), b("1")); // no write conflict range
            assertThat(boundaries(tr, WRITES)).containsExactly(
                    Map.entry("a", "1"), Map.entry("a\u0000", "0"),
                    Map.entry("c", "1"), Map.entry("e", "0"),
                    Map.entry("f", "1"), Map.entry("f\u0000", "0"),
                    Map.entry("p", "1"), Map.entry("q", "0"));
        }
    }

    @Test
    void aVersionstampedKeyShowsWhereItMayLandThenWhereItLanded() {
        byte[] param = new byte[] {'k', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
        try (Transaction tr = db.createTransaction()) {
            long rv = tr.getReadVersion().join();
            tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, param, b("v"));
            var stamp = tr.getVersionstamp();
            Map<String, String> before = boundaries(tr, WRITES);
            assertThat(before).hasSize(2);
            byte[] low = b(before.keySet().iterator().next());
            assertThat(low[0]).isEqualTo((byte) 'k');
            assertThat(java.nio.ByteBuffer.wrap(low, 1, 8).getLong()).isEqualTo(rv);
            tr.commit().join();
            byte[] landed = new byte[11];
            landed[0] = 'k';
            System.arraycopy(stamp.join(), 0, landed, 1, 10);
            assertThat(boundaries(tr, WRITES)).containsExactly(Map.entry(s(landed), "1"), Map.entry(s(landed) + "\u0000", "0"));
        }
    }

    @Test
    void anInjectedNotCommittedReportsNoRange() {
        try (Database faulty = Strata.builder()
                .faults(io.strata.engine.fault.FaultPolicy.seeded(1).notCommitted(1.0).build()).inMemory();
             Transaction tr = faulty.createTransaction()) {
            tr.options().setReportConflictingKeys();
            tr.get(b("a")).join();
            tr.set(b("x"), b("1"));
            assertThat(errorCode(tr.commit())).isEqualTo(1020);
            assertThat(boundaries(tr, CONFLICTING)).isEmpty();
        }
    }
}
