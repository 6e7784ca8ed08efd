package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.conflicts;
import static io.strata.engine.client.ReadTests.errorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code getMappedRange} as FoundationDB 7.3 serves fdb-java: index entries mapped to the
 * records they name, the mapper's rules and errors, limits, order and streaming modes (with
 * FoundationDB's byte-sized batches), the conflict ranges of the primary and secondary reads,
 * and RYW's refusal to read the transaction's own writes.
 *
 * <p>The database holds records {@code ("R", pk, split)} for pk 1..5, two splits each with
 * value {@code p<pk>s<split>}, and index entries {@code ("I", color, pk)} with an empty value:
 * blue 2 and 4, red 1, 3 and 5. The mapper {@code ("R", "{K[2]}", "{...}")} maps an index entry
 * to the record range of its primary key, as the Record Layer's index prefetch does.
 */
class MappedRangeTest {
    private static final byte[] MAPPER = Tuple.from("R", "{K[2]}", "{...}").pack();
    private static final byte[] EMPTY = new byte[0];

    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        db.run(t -> {
            for (int pk = 1; pk <= 5; pk++) {
                for (int split = 0; split < 2; split++) {
                    t.set(rec(pk, split), val("p" + pk + "s" + split));
                }
            }
            t.set(idx("blue", 2), EMPTY);
            t.set(idx("blue", 4), EMPTY);
            t.set(idx("red", 1), EMPTY);
            t.set(idx("red", 3), EMPTY);
            t.set(idx("red", 5), EMPTY);
            return null;
        });
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    // ---------------------------------------------------------------- helpers

    private static byte[] idx(Object... elements) {
        return Tuple.from("I").addAll(Arrays.asList(elements)).pack();
    }

    private static byte[] rec(Object... elements) {
        return Tuple.from("R").addAll(Arrays.asList(elements)).pack();
    }

    private static byte[] val(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static KeySelector fge(byte[] key) {
        return KeySelector.firstGreaterOrEqual(key);
    }

    /** The index entries of one color. */
    private static Range color(String c) {
        return Range.startsWith(Tuple.from("I", c).pack());
    }

    private static AsyncIterable<MappedKeyValue> mapped(Transaction t, Range r, byte[] mapper, int limit, boolean reverse, StreamingMode mode) {
        return t.getMappedRange(fge(r.begin), fge(r.end), mapper, limit, reverse, mode);
    }

    private static List<MappedKeyValue> red(Transaction t) {
        return mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList().join();
    }

    /** The row FoundationDB returns for index entry {@code indexKey} whose mapped prefix is {@code prefix}. */
    private static MappedKeyValue row(byte[] indexKey, byte[] indexValue, byte[] prefix, KeyValue... found) {
        return new MappedKeyValue(indexKey, indexValue, prefix, ByteArrayUtil.strinc(prefix), List.of(found));
    }

    /** The row of red or blue index entry {@code pk}, with both splits of record {@code pk}. */
    private static MappedKeyValue record(String color, int pk) {
        return row(idx(color, pk), EMPTY, rec(pk), new KeyValue(rec(pk, 0), val("p" + pk + "s0")),
                new KeyValue(rec(pk, 1), val("p" + pk + "s1")));
    }

    private static List<byte[]> primaryKeys(List<MappedKeyValue> rows) {
        List<byte[]> out = new ArrayList<>();
        for (MappedKeyValue m : rows) {
            out.add(m.getKey());
        }
        return out;
    }

    private static List<MappedKeyValue> iterate(AsyncIterable<MappedKeyValue> range) {
        List<MappedKeyValue> out = new ArrayList<>();
        AsyncIterator<MappedKeyValue> it = range.iterator();
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    private static Consumer<Transaction> readRed() {
        return t -> red(t);
    }

    private static Consumer<Transaction> setting(byte[] key) {
        return t -> t.set(key, val("changed"));
    }

    // ---------------------------------------------------------------- index -> record lookups

    @Test
    void indexEntriesMapToTheirRecords() {
        assertThat(red(tr)).containsExactly(record("red", 1), record("red", 3), record("red", 5));
        assertThat(iterate(mapped(tr, color("blue"), MAPPER, 0, false, StreamingMode.ITERATOR)))
                .containsExactly(record("blue", 2), record("blue", 4));
    }

    @Test
    void anIndexEntryWithoutItsRecordMapsToAnEmptyRange() {
        db.run(t -> {
            t.set(idx("red", 9), val("orphan"));
            return null;
        });
        assertThat(red(tr)).containsExactly(record("red", 1), record("red", 3), record("red", 5),
                row(idx("red", 9), val("orphan"), rec(9)));
    }

    @Test
    void recordLayerStyleMapperFromSubspaces() {
        // StandardIndexMaintainer.createRemoteFetchMapper: the records subspace, then {K[i + prefixLength]}, then {...}.
        Subspace records = new Subspace(Tuple.from("store", "records"));
        Subspace index = new Subspace(Tuple.from("store", "index", "by_name"));
        db.run(t -> {
            t.set(records.pack(Tuple.from("acme", 17L, 0L)), val("r17a"));
            t.set(records.pack(Tuple.from("acme", 17L, 1L)), val("r17b"));
            t.set(records.pack(Tuple.from("acme", 18L, 0L)), val("r18"));
            t.set(index.pack(Tuple.from("bolt", "acme", 18L)), EMPTY);
            t.set(index.pack(Tuple.from("nut", "acme", 17L)), EMPTY);
            return null;
        });
        int prefixLength = Tuple.fromBytes(index.pack()).size();
        byte[] mapper = Tuple.fromBytes(records.pack()).add("{K[" + (1 + prefixLength) + "]}").add("{K[" + (2 + prefixLength) + "]}")
                .add("{...}").pack();
        List<MappedKeyValue> rows = tr.getMappedRange(fge(index.range().begin), fge(index.range().end), mapper,
                0, false, StreamingMode.ITERATOR).asList().join();
        assertThat(rows).containsExactly(
                row(index.pack(Tuple.from("bolt", "acme", 18L)), EMPTY, records.pack(Tuple.from("acme", 18L)),
                        new KeyValue(records.pack(Tuple.from("acme", 18L, 0L)), val("r18"))),
                row(index.pack(Tuple.from("nut", "acme", 17L)), EMPTY, records.pack(Tuple.from("acme", 17L)),
                        new KeyValue(records.pack(Tuple.from("acme", 17L, 0L)), val("r17a")),
                        new KeyValue(records.pack(Tuple.from("acme", 17L, 1L)), val("r17b"))));
    }

    @Test
    void valueReferencesReadTheValueAsATuple() {
        db.run(t -> {
            t.set(Tuple.from("V", "x").pack(), Tuple.from("ignored", 3).pack());
            t.set(Tuple.from("V", "y").pack(), Tuple.from("ignored", 4).pack());
            return null;
        });
        byte[] mapper = Tuple.from("R", "{V[1]}", "{...}").pack();
        Range r = Range.startsWith(Tuple.from("V").pack());
        List<MappedKeyValue> rows = mapped(tr, r, mapper, 0, false, StreamingMode.WANT_ALL).asList().join();
        assertThat(rows).extracting(MappedKeyValue::getRangeBegin).containsExactly(rec(3), rec(4));
        assertThat(rows.get(0).getRangeResult()).containsExactly(new KeyValue(rec(3, 0), val("p3s0")), new KeyValue(rec(3, 1), val("p3s1")));
        assertThat(rows.get(0).getValue()).isEqualTo(Tuple.from("ignored", 3).pack());
    }

    @Test
    void literalsAndSeveralReferencesBuildTheMappedKey() {
        // Any non-reference element is copied as its bytes: an integer, null, a plain string.
        byte[] mapper = Tuple.from("X", 7L, "{K[1]}", null, "{K[2]}", "{V[0]}", "{...}").pack();
        db.run(t -> {
            t.set(idx("blue", 2), Tuple.from(true).pack());
            return null;
        });
        List<MappedKeyValue> rows = mapped(tr, color("blue"), mapper, 1, false, StreamingMode.EXACT).asList().join();
        assertThat(rows.get(0).getRangeBegin()).isEqualTo(Tuple.from("X", 7L, "blue", null, 2L, true).pack());
    }

    @Test
    void referencedElementsAreCopiedAsTheirRawBytes() {
        Object[] elements = {"text", new byte[] {0, 1, (byte) 0xff}, 42L, -42L, 0L, Long.MAX_VALUE, true, false, null, 1.5d, 2.5f,
            Versionstamp.complete(new byte[10], 7)};
        byte[] key = Tuple.from("E").addAll(Arrays.asList(elements)).pack();
        db.run(t -> {
            t.set(key, EMPTY);
            return null;
        });
        for (int i = 0; i < elements.length; i++) {
            byte[] mapper = Tuple.from("R", "{K[" + (i + 1) + "]}", "{...}").pack();
            List<MappedKeyValue> rows = tr.getMappedRange(fge(key), KeySelector.firstGreaterThan(key), mapper, 0, false,
                    StreamingMode.WANT_ALL).asList().join();
            assertThat(rows.get(0).getRangeBegin()).as("element %d", i).isEqualTo(Tuple.from("R", elements[i]).pack());
        }
    }

    @Test
    void escapedBracesBecomeLiteralByteStrings() {
        // As FoundationDB's own unit test: {{{{}} -> {{} and }} -> }. An escaped element is re-encoded
        // as a byte string (type 0x01), whatever its type was.
        byte[] mapper = Tuple.from("{{{{}}", "}}", "{{K[2]}}", "a{{b}}c", "{...}").pack();
        byte[] prefix = Tuple.from(val("{{}"), val("}"), val("{K[2]}"), val("a{b}c")).pack();
        db.run(t -> {
            t.set(ByteArrayUtil.join(prefix, Tuple.from(0).pack()), val("found"));
            return null;
        });
        List<MappedKeyValue> rows = mapped(tr, color("blue"), mapper, 0, false, StreamingMode.WANT_ALL).asList().join();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).getRangeBegin()).isEqualTo(prefix);
        assertThat(rows.get(0).getRangeResult()).containsExactly(new KeyValue(ByteArrayUtil.join(prefix, Tuple.from(0).pack()), val("found")));
    }

    @Test
    void referencesAreReadAsStdStoiReadsThem() {
        // Blanks, a sign and trailing junk are accepted; "{K[]}" is too short to be a reference.
        for (String ref : new String[] {"{K[2]}", "{K[ 2]}", "{K[+2]}", "{K[2abc]}", "{K[02]}"}) {
            byte[] mapper = Tuple.from("R", ref, "{...}").pack();
            assertThat(mapped(tr, color("red"), mapper, 1, false, StreamingMode.EXACT).asList().join().get(0).getRangeBegin())
                    .as(ref).isEqualTo(rec(1));
        }
        byte[] literal = Tuple.from("R", "{K[]}", "{...}").pack();
        assertThat(mapped(tr, color("red"), literal, 1, false, StreamingMode.EXACT).asList().join().get(0).getRangeBegin())
                .isEqualTo(Tuple.from("R", "{K[]}").pack());
    }

    @Test
    void byteStringReferencesWorkToo() {
        byte[] mapper = Tuple.from(val("R"), val("{K[2]}"), val("{...}")).pack();
        List<MappedKeyValue> rows = mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList().join();
        assertThat(rows).extracting(MappedKeyValue::getRangeBegin)
                .containsExactly(Tuple.from(val("R"), 1L).pack(), Tuple.from(val("R"), 3L).pack(), Tuple.from(val("R"), 5L).pack());
    }

    // ---------------------------------------------------------------- order, limits, modes

    @Test
    void reverseReturnsIndexEntriesLastFirstAndRecordsInOrder() {
        assertThat(mapped(tr, color("red"), MAPPER, 0, true, StreamingMode.WANT_ALL).asList().join())
                .containsExactly(record("red", 5), record("red", 3), record("red", 1));
        assertThat(iterate(mapped(tr, color("red"), MAPPER, 2, true, StreamingMode.ITERATOR)))
                .containsExactly(record("red", 5), record("red", 3));
    }

    @Test
    void limitsCountIndexEntries() {
        assertThat(mapped(tr, color("red"), MAPPER, 2, false, StreamingMode.ITERATOR).asList().join())
                .containsExactly(record("red", 1), record("red", 3));
        assertThat(iterate(mapped(tr, color("red"), MAPPER, 1, false, StreamingMode.SMALL))).containsExactly(record("red", 1));
        assertThat(mapped(tr, color("red"), MAPPER, 10, false, StreamingMode.EXACT).asList().join()).hasSize(3);
    }

    @ParameterizedTest
    @EnumSource(StreamingMode.class)
    void everyStreamingModeGivesTheSameRows(StreamingMode mode) {
        int limit = mode == StreamingMode.EXACT ? 10 : 0;
        List<MappedKeyValue> all = List.of(record("red", 1), record("red", 3), record("red", 5));
        assertThat(mapped(tr, color("red"), MAPPER, limit, false, mode).asList().join()).isEqualTo(all);
        assertThat(iterate(mapped(tr, color("red"), MAPPER, limit, false, mode))).isEqualTo(all);
        assertThat(iterate(mapped(tr, color("red"), MAPPER, 2, true, mode))).containsExactly(record("red", 5), record("red", 3));
    }

    @Test
    void limitErrors() {
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.EXACT).asList())).isEqualTo(2210);
        assertThat(errorCode(() -> mapped(tr, color("red"), MAPPER, -1, false, StreamingMode.EXACT).iterator().hasNext())).isEqualTo(2210);
        // asList of ITERATOR with a limit is EXACT, and -1 is the native "unlimited".
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, -1, false, StreamingMode.ITERATOR).asList())).isEqualTo(2210);
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, -2, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2012);
    }

    /** Index entries ("I", n) for n in 1..count, records ("R", n, 0) with values of {@code valueBytes} bytes. */
    private void loadNumbered(int count, int valueBytes) {
        db.run(t -> {
            t.clear(Range.startsWith(Tuple.from("I").pack()));
            t.clear(Range.startsWith(Tuple.from("R").pack()));
            for (int n = 1; n <= count; n++) {
                t.set(Tuple.from("I", n).pack(), EMPTY);
                t.set(Tuple.from("R", n, 0).pack(), new byte[valueBytes]);
            }
            return null;
        });
    }

    private static final byte[] NUMBERED = Tuple.from("R", "{K[1]}", "{...}").pack();

    /** What limit -1 returns, in a new transaction: fdb-java's iterator stops after the first batch. */
    private int firstBatch(StreamingMode mode) {
        Range r = Range.startsWith(Tuple.from("I").pack());
        try (Transaction t = db.createTransaction()) {
            return iterate(mapped(t, r, NUMBERED, -1, false, mode)).size();
        }
    }

    @Test
    void batchesFollowFoundationDbsByteTargets() {
        // Index rows cost 24 + 5 key bytes = 29; a fifth of the request's bytes goes to them, the
        // row reaching it included. Mapped rows cost 29 + 24 + 6 + value bytes, ten at a time
        // while the request's bytes last.
        loadNumbered(200, 0);
        assertThat(firstBatch(StreamingMode.SMALL)).as("256 B: 51 for the index -> 2 rows").isEqualTo(2);
        assertThat(firstBatch(StreamingMode.MEDIUM)).as("1000 B: 200 -> 7 rows").isEqualTo(7);
        assertThat(firstBatch(StreamingMode.LARGE)).as("4096 B: 819 -> 29 rows").isEqualTo(29);
        assertThat(firstBatch(StreamingMode.ITERATOR)).as("first iteration, 4096 B").isEqualTo(29);
        assertThat(firstBatch(StreamingMode.SERIAL)).as("80000 B: 16000 -> all 200").isEqualTo(200);
        assertThat(firstBatch(StreamingMode.WANT_ALL)).isEqualTo(200);

        loadNumbered(200, 200); // 259 B per mapped row: 4096 B last two groups of ten
        assertThat(firstBatch(StreamingMode.ITERATOR)).isEqualTo(20);
        loadNumbered(200, 500); // 559 B: the first group of ten uses them up
        assertThat(firstBatch(StreamingMode.ITERATOR)).isEqualTo(10);
        assertThat(firstBatch(StreamingMode.WANT_ALL)).as("80000 B, 559 B a row: 15 groups").isEqualTo(150);

        // Iterated to the end, every mode returns everything.
        for (StreamingMode mode : StreamingMode.values()) {
            int limit = mode == StreamingMode.EXACT ? 1000 : 0;
            try (Transaction t = db.createTransaction()) {
                assertThat(iterate(mapped(t, Range.startsWith(Tuple.from("I").pack()), NUMBERED, limit, false, mode))).as(mode.name())
                        .hasSize(200);
            }
        }
    }

    @Test
    void aSecondaryRangeIsCutAt2000Rows() {
        db.run(t -> {
            for (int split = 0; split < 2001; split++) {
                t.set(rec(7, split), val("s"));
            }
            t.set(idx("big", 7), EMPTY);
            return null;
        });
        Consumer<Transaction> read = t -> {
            List<MappedKeyValue> rows = mapped(t, color("big"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList().join();
            assertThat(rows.get(0).getRangeResult()).hasSize(2000);
            assertThat(rows.get(0).getRangeResult().get(1999).getKey()).isEqualTo(rec(7, 1999));
            assertThat(rows.get(0).getRangeEnd()).isEqualTo(ByteArrayUtil.strinc(rec(7)));
        };
        read.accept(tr);
        // The secondary read depended on the rows up to the 2000th only.
        assertThat(conflicts(db, read, setting(rec(7, 2000)))).isFalse();
        assertThat(conflicts(db, read, setting(rec(7, 1999)))).isTrue();
    }

    @Test
    void aSecondaryRangeIsCutAtTenMillionBytes() {
        // 24 + key + 100,000 bytes a row: the 100th row reaches 10,000,000 bytes.
        for (int from = 0; from < 101; from += 20) {
            int start = from;
            db.run(t -> {
                for (int split = start; split < Math.min(start + 20, 101); split++) {
                    t.set(rec(8, split), new byte[100_000]);
                }
                return null;
            });
        }
        db.run(t -> {
            t.set(idx("huge", 8), EMPTY);
            return null;
        });
        List<MappedKeyValue> rows = mapped(tr, color("huge"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList().join();
        assertThat(rows.get(0).getRangeResult()).hasSize(100);
    }

    // ---------------------------------------------------------------- conflicts

    @Test
    void aConcurrentWriteIntoARecordConflicts() {
        assertThat(conflicts(db, readRed(), setting(rec(3, 1)))).as("a split read").isTrue();
        assertThat(conflicts(db, readRed(), setting(rec(3, 7)))).as("a new split of a record read").isTrue();
        assertThat(conflicts(db, readRed(), setting(rec(9, 0)))).as("a missing record of no entry read").isFalse();
        assertThat(conflicts(db, readRed(), setting(rec(2, 0)))).as("a record of another color").isFalse();
    }

    @Test
    void aConcurrentWriteIntoTheIndexRangeConflicts() {
        assertThat(conflicts(db, readRed(), setting(idx("red", 4)))).isTrue();
        assertThat(conflicts(db, readRed(), setting(idx("blue", 9)))).isFalse();
    }

    @Test
    void anIndexEntryWhoseRecordIsMissingStillConflictsOnItsRecord() {
        db.run(t -> {
            t.set(idx("red", 9), EMPTY);
            return null;
        });
        assertThat(conflicts(db, readRed(), setting(rec(9, 0)))).isTrue();
    }

    @Test
    void aLimitedReadConflictsOnlyOnWhatItRead() {
        Consumer<Transaction> firstTwo = t -> mapped(t, color("red"), MAPPER, 2, false, StreamingMode.EXACT).asList().join();
        assertThat(conflicts(db, firstTwo, setting(idx("red", 2)))).isTrue();
        assertThat(conflicts(db, firstTwo, setting(idx("red", 4)))).as("after the last entry read").isFalse();
        assertThat(conflicts(db, firstTwo, setting(rec(5, 0)))).as("the record of an entry not read").isFalse();
        Consumer<Transaction> lastTwo = t -> mapped(t, color("red"), MAPPER, 2, true, StreamingMode.EXACT).asList().join();
        assertThat(conflicts(db, lastTwo, setting(idx("red", 2)))).as("before the last entry read in reverse").isFalse();
        assertThat(conflicts(db, lastTwo, setting(idx("red", 4)))).isTrue();
    }

    @Test
    void snapshotMappedReadsAreRefusedByFdbJava() {
        // FDBTransaction.ReadSnapshot throws before reaching the native client, whose RYW would
        // refuse a snapshot mapped read with 2108: there is no snapshot mapped read to conflict or not.
        assertThatThrownBy(() -> tr.snapshot().getMappedRange(fge(color("red").begin), fge(color("red").end), MAPPER, 0, false,
                StreamingMode.WANT_ALL))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("getMappedRange is only supported in serializable");
        // A snapshot range read of the same records, for contrast, does not conflict.
        assertThat(conflicts(db, t -> t.snapshot().getRange(Range.startsWith(rec(3))).asList().join(), setting(rec(3, 1)))).isFalse();
    }

    // ---------------------------------------------------------------- read-your-writes

    @Test
    void ownWritesIntoARecordFailTheReadWith2039() {
        tr.set(rec(3, 0), val("mine"));
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2039);
    }

    @Test
    void ownWritesOfEveryKindInAReadRangeFailTheRead() {
        List<Consumer<Transaction>> writes = List.of(
                t -> t.set(idx("red", 2), EMPTY),
                t -> t.clear(idx("red", 3)),
                t -> t.clear(rec(5, 1)),
                t -> t.clear(new Range(rec(1, 5), rec(1, 6))),
                t -> t.clear(new Range(rec(0), rec(2))),
                t -> t.mutate(MutationType.ADD, rec(1, 0), new byte[] {1}),
                t -> t.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, rec(5, 9), new byte[14]));
        for (Consumer<Transaction> write : writes) {
            try (Transaction t = db.createTransaction()) {
                write.accept(t);
                assertThat(errorCode(mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2039);
            }
        }
    }

    @Test
    void ownWritesOutsideTheReadRangesDoNotMatter() {
        tr.set(rec(2, 0), val("blue record"));
        tr.set(idx("blue", 6), EMPTY);
        tr.set(rec(6, 0), val("unread"));
        tr.clear(new Range(rec(3, 9), rec(4))); // past record 3's splits, but not past its prefix range
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList()))
                .as("the secondary range is the whole prefix range").isEqualTo(2039);
        try (Transaction t = db.createTransaction()) {
            t.set(rec(2, 0), val("blue record"));
            t.set(idx("blue", 6), EMPTY);
            t.set(rec(6, 0), val("unread"));
            t.clear(new Range(rec(4), rec(5)));
            assertThat(red(t)).containsExactly(record("red", 1), record("red", 3), record("red", 5));
        }
    }

    @Test
    void writeConflictRangesAndVersionstampedKeysAreNotOwnWrites() {
        // FoundationDB's write map keeps both as unmodified segments: the mapped read goes through.
        tr.addWriteConflictRange(rec(1), ByteArrayUtil.strinc(rec(5)));
        // ("R", 3, <incomplete versionstamp>) with its 4-byte little-endian offset, built by hand:
        // packWithVersionstamp needs the native client.
        byte[] prefix = ByteArrayUtil.join(rec(3), new byte[] {0x33});
        byte[] stamped = ByteArrayUtil.join(prefix, new byte[12], new byte[] {(byte) prefix.length, 0, 0, 0});
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, stamped, val("v"));
        assertThat(red(tr)).containsExactly(record("red", 1), record("red", 3), record("red", 5));
        // A plain read of where the versionstamped key may land is refused.
        assertThat(errorCode(tr.getRange(Range.startsWith(rec(3))).asList())).isEqualTo(1036);
    }

    @Test
    void writesAfterTheReadDoNotChangeItsResult() {
        List<MappedKeyValue> before = red(tr);
        tr.set(rec(9, 0), val("later"));
        assertThat(before).containsExactly(record("red", 1), record("red", 3), record("red", 5));
        tr.commit().join();
    }

    @Test
    void aWriteIntoALaterBatchFailsThatBatch() {
        loadNumbered(20, 0); // SMALL: two index entries a batch
        tr.set(Tuple.from("R", 6, 1).pack(), val("mine"));
        AsyncIterator<MappedKeyValue> it = mapped(tr, Range.startsWith(Tuple.from("I").pack()), NUMBERED, 0, false, StreamingMode.SMALL)
                .iterator();
        List<Object> seen = new ArrayList<>();
        // Batches (1,2) (3,4) (5,6): the third fails; the iterator asks for it when the third row is taken.
        for (int i = 0; i < 4; i++) {
            assertThat(it.hasNext()).isTrue();
            seen.add(Tuple.fromBytes(it.next().getKey()).get(1));
        }
        assertThat(seen).containsExactly(1L, 2L, 3L, 4L);
        assertThatThrownBy(it::hasNext).isInstanceOf(CompletionException.class);
        assertThat(errorCode(it::hasNext)).isEqualTo(2039);
    }

    @Test
    void theRangesAddedBeforeA2039Stay() {
        // The primary range and the first rows' records are added before row 5's record is
        // found written: a concurrent write to record 1 then fails the commit.
        assertThat(conflicts(db, t -> t.set(rec(5, 0), val("mine")), t -> assertThat(errorCode(
                mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2039), setting(rec(1, 0)))).isTrue();
    }

    @Test
    void readYourWritesDisabledRefusesMappedReads() {
        tr.options().setReadYourWritesDisable();
        assertThat(errorCode(mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2108);
        // RYW answers an inverted range before that check.
        assertThat(tr.getMappedRange(fge(idx("z")), fge(idx("a")), MAPPER, 0, false, StreamingMode.WANT_ALL).asList().join()).isEmpty();
    }

    @Test
    void aMappedReadDoesNotCountAsAReadForReadYourWritesDisable() {
        // RYW reads mapped ranges around its cache and its reading futures, so the option is still
        // accepted — and a commit with read-your-writes off sends only NativeAPI's conflict ranges,
        // so the mapped read no longer conflicts.
        assertThat(conflicts(db, t -> {}, t -> {
            red(t);
            t.options().setReadYourWritesDisable();
        }, setting(rec(3, 1)))).isFalse();
        assertThat(conflicts(db, t -> {}, t -> red(t), setting(rec(3, 1)))).isTrue();
    }

    @Test
    void anExplicitReadConflictRangeIsDroppedByReadYourWritesDisable() {
        assertThat(conflicts(db, t -> {}, t -> {
            t.addReadConflictRange(rec(3), ByteArrayUtil.strinc(rec(3)));
            t.options().setReadYourWritesDisable();
        }, setting(rec(3, 1)))).isFalse();
        assertThat(conflicts(db, t -> t.options().setReadYourWritesDisable(),
                t -> t.addReadConflictRange(rec(3), ByteArrayUtil.strinc(rec(3))), setting(rec(3, 1)))).isTrue();
    }

    // ---------------------------------------------------------------- errors

    @Test
    void aMapperThatIsNotATupleFails2043() {
        // Codes the C++ Tuple does not know: a nested tuple, a UUID, an arbitrary-precision integer.
        for (byte[] mapper : new byte[][] {{0x05, 0x00}, Tuple.from("R", Tuple.from("x"), "{...}").pack(),
            Tuple.from("R", UUID.randomUUID(), "{...}").pack(), Tuple.from(new java.math.BigInteger("123456789012345678901234567890")).pack(),
            {(byte) 0xfe}}) {
            assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2043);
        }
    }

    @Test
    void theMapperIsReadOnlyWhenTheRangeResolvesToKeys() {
        byte[] bad = {(byte) 0xfe};
        // [z, zz) holds no row, but it is a range: the storage server reads the mapper.
        assertThat(errorCode(tr.getMappedRange(fge(val("z")), fge(val("zz")), bad, 0, false, StreamingMode.WANT_ALL).asList()))
                .isEqualTo(2043);
        // Selectors resolving to an empty range are answered before the mapper is looked at.
        assertThat(tr.getMappedRange(fge(val("z")), KeySelector.lastLessThan(val("zz")), bad, 0, false, StreamingMode.WANT_ALL)
                .asList().join()).isEmpty();
        // RYW answers an inverted range at once.
        assertThat(tr.getMappedRange(fge(val("zz")), fge(val("z")), bad, 0, false, StreamingMode.WANT_ALL).asList().join()).isEmpty();
    }

    @Test
    void theRangeMarkerMustBeLast() {
        byte[] mapper = Tuple.from("R", "{...}", "{K[2]}").pack();
        assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2032);
        // Raised when the mapper is read, even without a row.
        assertThat(errorCode(tr.getMappedRange(fge(val("z")), fge(val("zz")), mapper, 0, false, StreamingMode.WANT_ALL).asList()))
                .isEqualTo(2032);
    }

    @Test
    void badIndexesFail2030() {
        for (String ref : new String[] {"{K[3]}", "{K[-1]}", "{K[x]}", "{K[2147483648]}", "{K[99999999999999999999]}", "{V[0]}"}) {
            byte[] mapper = Tuple.from("R", ref, "{...}").pack();
            // {V[0]}: the empty value is the empty tuple.
            assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).as(ref).isEqualTo(2030);
        }
        // Per row: a range without rows never reads an index.
        byte[] mapper = Tuple.from("R", "{K[9]}", "{...}").pack();
        assertThat(tr.getMappedRange(fge(val("z")), fge(val("zz")), mapper, 0, false, StreamingMode.WANT_ALL).asList().join()).isEmpty();
    }

    @Test
    void keysAndValuesThatAreNotTuplesFail2041And2042() {
        db.run(t -> {
            t.set(Tuple.from("U", UUID.randomUUID()).pack(), Tuple.from(Tuple.from(1)).pack());
            t.set(val("Vraw"), val("not a tuple \u00ff"));
            return null;
        });
        Range uuids = Range.startsWith(Tuple.from("U").pack());
        assertThat(errorCode(mapped(tr, uuids, Tuple.from("R", "{K[0]}", "{...}").pack(), 0, false, StreamingMode.WANT_ALL).asList()))
                .as("a UUID in the key, even when element 0 is referenced").isEqualTo(2041);
        assertThat(errorCode(mapped(tr, uuids, Tuple.from("R", "{V[0]}", "{...}").pack(), 0, false, StreamingMode.WANT_ALL).asList()))
                .as("a nested tuple in the value").isEqualTo(2042);
        assertThat(mapped(tr, uuids, Tuple.from("R", "x", "{...}").pack(), 0, false, StreamingMode.WANT_ALL).asList().join())
                .as("a key never referenced is never parsed").hasSize(1);
        Range raw = new Range(val("Vraw"), val("Vraw\u0000"));
        assertThat(mapped(tr, raw, Tuple.from("R", "x", "{...}").pack(), 0, false, StreamingMode.WANT_ALL).asList().join()).hasSize(1);
        // In element order: a bad index string is found before the key is parsed.
        assertThat(errorCode(mapped(tr, uuids, Tuple.from("R", "{K[x]}", "{K[0]}", "{...}").pack(), 0, false, StreamingMode.WANT_ALL)
                .asList())).isEqualTo(2030);
        assertThat(errorCode(mapped(tr, uuids, Tuple.from("R", "{V[0]}", "{K[x]}", "{...}").pack(), 0, false, StreamingMode.WANT_ALL)
                .asList())).isEqualTo(2042);
    }

    @Test
    void aMapperWithOnlyTheRangeMarkerFailsWithAnInternalError() {
        // FoundationDB's storage server fails an ASSERT computing strinc("") there.
        byte[] mapper = Tuple.from("{...}").pack();
        assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(4100);
        assertThat(tr.getMappedRange(fge(val("z")), fge(val("zz")), mapper, 0, false, StreamingMode.WANT_ALL).asList().join()).isEmpty();
    }

    @Test
    void aMapperWithoutTheRangeMarkerIsUnsupported() {
        // Point reads, which FoundationDB 7.3's C binding reads as range results: refused once a row maps.
        byte[] mapper = Tuple.from("R", "{K[2]}", 0).pack();
        assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2108);
        assertThat(tr.getMappedRange(fge(val("z")), fge(val("zz")), mapper, 0, false, StreamingMode.WANT_ALL).asList().join()).isEmpty();
        // Own writes are checked first, against the keys it would read.
        tr.set(rec(3, 0), val("mine"));
        assertThat(errorCode(mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(2039);
    }

    @Test
    void keySpaceErrors() {
        byte[] special = {(byte) 0xff, (byte) 0xff, '/', 'a'};
        byte[] specialEnd = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
        assertThat(errorCode(tr.getMappedRange(fge(special), fge(specialEnd), MAPPER, 0, false, StreamingMode.WANT_ALL).asList()))
                .as("the special key space").isEqualTo(2000);
        assertThat(errorCode(tr.getMappedRange(fge(special), fge(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0}), MAPPER, 0, false,
                StreamingMode.WANT_ALL).asList())).as("past it").isEqualTo(2004);
        assertThat(errorCode(tr.getMappedRange(fge(val("a")), fge(new byte[] {(byte) 0xff, 1}), MAPPER, 0, false, StreamingMode.WANT_ALL)
                .asList())).as("system keys").isEqualTo(2004);
        try (Transaction t = db.createTransaction()) {
            t.options().setReadSystemKeys();
            assertThat(t.getMappedRange(fge(new byte[] {(byte) 0xff, 1}), fge(new byte[] {(byte) 0xff, (byte) 0xff}), MAPPER, 0, false,
                    StreamingMode.WANT_ALL).asList().join()).isEmpty();
        }
    }

    @Test
    void lifecycleErrors() {
        AsyncIterable<MappedKeyValue> range = mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL);
        tr.commit().join();
        assertThat(errorCode(range.asList())).as("after commit").isEqualTo(2017);
        try (Transaction t = db.createTransaction()) {
            t.cancel();
            assertThat(errorCode(mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList())).isEqualTo(1025);
        }
        Transaction closed = db.createTransaction();
        AsyncIterable<MappedKeyValue> later = mapped(closed, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL);
        closed.close();
        assertThatThrownBy(later::iterator).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNullMapperIsAnIllegalArgument() {
        assertThatThrownBy(() -> tr.getMappedRange(null, null, null, 0, false, StreamingMode.WANT_ALL))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("Mapper must be non-null");
    }

    @Test
    void withClusterLatencyTheReadWaitsForItsVersionAndChecksTheWritesMadeMeanwhile() {
        try (Database slow = Strata.builder().latency(LatencyModel.of(Duration.ofMillis(20), Duration.ofMillis(5), Duration.ZERO)).inMemory()) {
            slow.run(t -> {
                t.set(rec(1, 0), val("p1s0"));
                t.set(idx("red", 1), EMPTY);
                return null;
            });
            try (Transaction t = slow.createTransaction()) {
                assertThat(mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList().join())
                        .containsExactly(row(idx("red", 1), EMPTY, rec(1), new KeyValue(rec(1, 0), val("p1s0"))));
            }
            try (Transaction t = slow.createTransaction()) {
                // Issued before the write, read after it (the read version arrives 20 ms later):
                // RYW checks the result against the writes made by the time it arrives.
                java.util.concurrent.CompletableFuture<List<MappedKeyValue>> pending =
                        mapped(t, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).asList();
                t.set(rec(1, 5), val("mine"));
                assertThat(errorCode(pending)).isEqualTo(2039);
            }
        }
    }

    // ---------------------------------------------------------------- selectors, iterator, arrays

    @Test
    void primaryRowsAreThoseOfGetRange() {
        byte[] all = Tuple.from("I").pack();
        byte[] end = ByteArrayUtil.strinc(all);
        KeySelector[] begins = {fge(all), KeySelector.firstGreaterThan(idx("blue", 2)), KeySelector.lastLessThan(idx("red", 3)),
            KeySelector.lastLessOrEqual(idx("red", 3)), fge(idx("blue")).add(2), KeySelector.lastLessThan(all)};
        KeySelector[] ends = {fge(end), KeySelector.firstGreaterThan(idx("red", 3)), KeySelector.lastLessThan(idx("red", 5)),
            fge(idx("red")).add(-1), fge(end).add(3)};
        for (KeySelector b : begins) {
            for (KeySelector e : ends) {
                for (boolean reverse : new boolean[] {false, true}) {
                    for (int limit : new int[] {0, 2}) {
                        List<KeyValue> plain = tr.snapshot().getRange(b, e, limit, reverse).asList().join();
                        List<MappedKeyValue> rows = tr.getMappedRange(b, e, MAPPER, limit, reverse, StreamingMode.ITERATOR).asList().join();
                        List<byte[]> expected = new ArrayList<>();
                        for (KeyValue kv : plain) {
                            expected.add(kv.getKey()); // record keys too, where a selector steps past the index
                        }
                        assertThat(primaryKeys(rows)).as("%s %s reverse=%s limit=%d", b, e, reverse, limit)
                                .containsExactlyElementsOf(expected);
                    }
                }
            }
        }
    }

    @Test
    void removeClearsTheIndexEntry() {
        AsyncIterator<MappedKeyValue> it = mapped(tr, color("red"), MAPPER, 0, false, StreamingMode.WANT_ALL).iterator();
        it.next();
        it.remove();
        assertThat(tr.get(idx("red", 1)).join()).isNull();
        assertThat(tr.get(rec(1, 0)).join()).isNotNull();
    }

    @Test
    void returnedArraysAreTheCallersOwn() {
        List<MappedKeyValue> first = red(tr);
        first.get(0).getKey()[0] = 'x';
        first.get(0).getRangeBegin()[0] = 'x';
        first.get(0).getRangeResult().get(0).getValue()[0] = 'x';
        assertThat(red(tr)).containsExactly(record("red", 1), record("red", 3), record("red", 5));
    }

    @Test
    void theMapperArrayIsReadWhenEachBatchIsRead() {
        // fdb-java hands the caller's array to the native call of each batch.
        byte[] mapper = MAPPER.clone();
        AsyncIterable<MappedKeyValue> range = mapped(tr, color("red"), mapper, 0, false, StreamingMode.WANT_ALL);
        mapper[1] = 'X'; // ("X", ...)
        assertThat(range.asList().join().get(0).getRangeBegin()).isEqualTo(Tuple.from("X", 1L).pack());
    }
}
