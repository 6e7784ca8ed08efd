package io.strata.engine.durability;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.Engine;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.commit.BatchLog;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;
import io.strata.engine.store.VersionedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurabilityTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final class StandardCharsets {
        static final java.nio.charset.Charset UTF_8 = java.nio.charset.StandardCharsets.UTF_8;
    }

    private static void put(Database db, String k, String v) {
        db.run(tr -> {
            tr.set(b(k), b(v));
            return null;
        });
    }

    private static String get(Database db, String k) {
        byte[] v = db.read(tr -> tr.get(b(k)).join());
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    private Path newestSegment() throws IOException {
        List<Path> segments = LogReplay.segments(dir);
        return segments.get(segments.size() - 1);
    }

    /** The newest segment that holds records (later ones may be empty, from the last open). */
    private Path newestNonEmptySegment() throws IOException {
        List<Path> segments = new ArrayList<>(LogReplay.segments(dir));
        for (int i = segments.size() - 1; i >= 0; i--) {
            if (Files.size(segments.get(i)) > LogFormat.HEADER_BYTES) {
                return segments.get(i);
            }
        }
        throw new AssertionError("no records");
    }

    @Test
    void committedDataSurvivesReopenWithAtomicOpsClearsAndVersionstamps() {
        long versionBefore;
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            put(db, "b", "2");
            db.run(tr -> {
                tr.clear(b("b"));
                tr.mutate(MutationType.ADD, b("n"), new byte[] {5, 0});
                tr.mutate(MutationType.ADD, b("n"), new byte[] {7, 0});
                return null;
            });
            Transaction tr = db.createTransaction();
            tr.set(b("c"), b("3"));
            tr.commit().join();
            versionBefore = tr.getCommittedVersion();
            tr.close();
        }
        try (Database db = Strata.open(dir)) {
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isNull();
            assertThat(get(db, "c")).isEqualTo("3");
            byte[] n = db.read(tr -> tr.get(b("n")).join());
            assertThat(n).containsExactly(12, 0);
            Transaction tr = db.createTransaction();
            tr.set(b("d"), b("4"));
            tr.commit().join();
            assertThat(tr.getCommittedVersion()).isGreaterThan(versionBefore);
            tr.close();
        }
    }

    @Test
    void aSecondOpenOfTheSameDirectoryFailsAtOnceAndAReopenAfterCloseWorks() {
        Database db = Strata.open(dir);
        put(db, "k", "v");
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already open");
        db.close();
        try (Database again = Strata.open(dir)) {
            assertThat(get(again, "k")).isEqualTo("v");
        }
    }

    @Test
    void aClosedDatabaseRejectsUse() {
        Database db = Strata.open(dir);
        db.close();
        assertThatThrownBy(db::createTransaction).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void reopeningWithoutCommitsInBetweenWorksRepeatedly() {
        try (Database db = Strata.open(dir)) {
            put(db, "k", "v");
        }
        for (int i = 0; i < 3; i++) {
            try (Database db = Strata.open(dir)) {
                assertThat(get(db, "k")).isEqualTo("v");
            }
        }
    }

    @Test
    void aRecordCutShortAtTheEndIsTruncatedAndEverythingBeforeItKept() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            put(db, "b", "2");
        }
        Path segment = newestNonEmptySegment();
        long size = Files.size(segment);
        append(segment, ByteBuffer.allocate(12).putInt(100).putInt(0).putInt(7).flip()); // claims 100 bytes, has 4
        assertReopensWithAAndBAndCutsBackTo(segment, size);
    }

    @Test
    void aLastRecordWithABadChecksumIsATornWriteAndIsDropped() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            put(db, "b", "2");
        }
        Path segment = newestNonEmptySegment();
        flipByte(segment, Files.size(segment) - 1);
        try (Database db = Strata.open(dir)) {
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isNull();
        }
    }

    @Test
    void aBadChecksumBeforeTheEndRefusesToOpenAndNamesFileAndOffset() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            put(db, "b", "2");
        }
        Path segment = newestNonEmptySegment();
        flipByte(segment, LogFormat.HEADER_BYTES + LogFormat.RECORD_HEADER_BYTES + 2); // inside the first record
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(CorruptLogException.class)
                .satisfies(e -> {
                    CorruptLogException c = (CorruptLogException) e;
                    assertThat(c.file()).isEqualTo(segment);
                    assertThat(c.offset()).isEqualTo(LogFormat.HEADER_BYTES);
                    assertThat(c.getMessage()).contains(segment.toString()).contains("offset " + LogFormat.HEADER_BYTES);
                });
        // Refusing changed nothing: the damaged file is still all there.
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class);
    }

    /** Writes a=1, closes, reopens and writes b=2: returns the segment that holds a. */
    private Path olderSegmentAfterTwoOpens() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
        }
        Path older = newestNonEmptySegment();
        try (Database db = Strata.open(dir)) {
            put(db, "b", "2");
        }
        return older;
    }

    /** Reopening keeps a=1 and b=2 and cuts {@code segment} back to {@code size} bytes. */
    private void assertReopensWithAAndBAndCutsBackTo(Path segment, long size) throws IOException {
        try (Database db = Strata.open(dir)) {
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isEqualTo("2");
        }
        assertThat(Files.size(segment)).isEqualTo(size);
    }

    private static void append(Path file, ByteBuffer bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
            ch.write(bytes);
        }
    }

    @Test
    void damageInAnOlderSegmentIsCorruptionEvenAtItsEnd() throws IOException {
        Path older = olderSegmentAfterTwoOpens();
        flipByte(older, Files.size(older) - 1);
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(CorruptLogException.class).hasMessageContaining(older.getFileName().toString());
    }

    @Test
    void anOpenSegmentIsPreallocatedWithZerosAndAClosedOneEndsAtItsLastRecord() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            Path open = newestSegment();
            assertThat(Files.size(open)).isGreaterThanOrEqualTo(WriteAheadLog.PREALLOCATE_BYTES);
        }
        Path closed = newestNonEmptySegment();
        byte[] bytes = Files.readAllBytes(closed);
        assertThat(bytes.length).isLessThan(200);
        assertThat(bytes[bytes.length - 1]).isNotZero(); // the last byte of "1"
    }

    @Test
    void anInterruptedThreadCommitsDurablyKeepsItsInterruptAndLeavesTheLogUsable() throws Exception {
        try (Database db = Strata.open(dir)) {
            Thread committer = new Thread(() -> {
                Thread.currentThread().interrupt();
                put(db, "a", "1"); // a blocking commit on an idle database: this thread writes the log
                if (!Thread.currentThread().isInterrupted()) {
                    throw new AssertionError("the interrupt was swallowed");
                }
            });
            List<Throwable> failures = new ArrayList<>();
            committer.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            committer.start();
            committer.join(10_000);
            assertThat(failures).isEmpty();
            put(db, "b", "2");
        }
        try (Database db = Strata.open(dir)) {
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isEqualTo("2");
        }
    }

    /** The state a crash leaves: the files as they are while the database is open, copied. */
    private Path crashCopy(Path into) throws IOException {
        Files.createDirectories(into);
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().endsWith(".log")) {
                    Files.copy(f, into.resolve(f.getFileName()));
                }
            }
        }
        return into;
    }

    @Test
    void aCrashLeavesZerosAfterTheLastRecordAndRecoveryKeepsEveryRecordAndCutsThem(@TempDir Path crashed) throws IOException {
        try (Database db = Strata.open(dir)) {
            for (int i = 0; i < 100; i++) {
                put(db, "k" + i, "v" + i);
            }
            crashCopy(crashed);
        }
        Path segment = LogReplay.segments(crashed).get(LogReplay.segments(crashed).size() - 1);
        assertThat(Files.size(segment)).isGreaterThanOrEqualTo(WriteAheadLog.PREALLOCATE_BYTES);
        try (Database db = Strata.open(crashed)) {
            for (int i = 0; i < 100; i++) {
                assertThat(get(db, "k" + i)).isEqualTo("v" + i);
            }
        }
        assertThat(Files.size(segment)).isLessThan(WriteAheadLog.PREALLOCATE_BYTES / 10);
    }

    @Test
    void aTornLastRecordFollowedByPreallocatedZerosIsDropped(@TempDir Path crashed) throws IOException {
        long before;
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
            crashCopy(crashed);
            before = recordsEnd(LogReplay.segments(crashed).get(LogReplay.segments(crashed).size() - 1));
            put(db, "b", "2");
            crashCopy(crashed.resolve("later"));
        }
        Path segment = LogReplay.segments(crashed.resolve("later")).get(LogReplay.segments(crashed.resolve("later")).size() - 1);
        long end = recordsEnd(segment);
        flipByte(segment, end - 1); // the last record's final byte never reached the disk
        try (Database db = Strata.open(crashed.resolve("later"))) {
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isNull();
        }
        assertThat(Files.size(segment)).isEqualTo(before);
    }

    @Test
    void zerosLeftInAnOlderSegmentByACrashDuringRotationAreUnwrittenSpace() throws IOException {
        Path older = olderSegmentAfterTwoOpens();
        long size = Files.size(older);
        append(older, ByteBuffer.allocate(WriteAheadLog.PREALLOCATE_BYTES));
        assertReopensWithAAndBAndCutsBackTo(older, size);
    }

    @Test
    void dataAfterZerosInAnOlderSegmentIsCorruption() throws IOException {
        Path older = olderSegmentAfterTwoOpens();
        append(older, ByteBuffer.allocate(4096).put(4000, (byte) 1));
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(CorruptLogException.class).hasMessageContaining(older.getFileName().toString());
    }

    /** Where a segment's records end: the first zero record header after its file header. */
    private static long recordsEnd(Path segment) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(segment));
        int pos = LogFormat.HEADER_BYTES;
        while (pos + LogFormat.RECORD_HEADER_BYTES <= all.limit() && all.getInt(pos) != 0) {
            pos += LogFormat.RECORD_HEADER_BYTES + all.getInt(pos);
        }
        return pos;
    }

    @Test
    void aFileThatIsNotALogSegmentRefusesToOpen() throws IOException {
        try (Database db = Strata.open(dir)) {
            put(db, "a", "1");
        }
        flipByte(newestNonEmptySegment(), 0);
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("bad magic");
    }

    @Test
    void osBufferedDurabilityAlsoRecoversAfterAnOrderlyClose() {
        try (Database db = Strata.builder().durability(Durability.OS_BUFFERED).open(dir)) {
            put(db, "a", "1");
        }
        try (Database db = Strata.open(dir)) {
            assertThat(get(db, "a")).isEqualTo("1");
        }
    }

    @Test
    void concurrentCommitsShareLogRecords() throws Exception {
        int threads = 16;
        int each = 50;
        try (Database db = Strata.open(dir)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        put(db, "k" + thread + "-" + i, "v");
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
        }
        LogReplay.Result replay = LogReplay.replay(dir, new VersionedStore());
        // Group commit: with 16 committers waiting on fsyncs, batches hold several commits each.
        assertThat(replay.records()).isLessThan((long) threads * each);
    }

    @Test
    void aLogWriteFailureFailsTheBatchAndEveryLaterCommitButReadsGoOn() {
        BatchLog failing = new BatchLog() {
            int appends;

            @Override
            public void append(long version, List<io.strata.engine.commit.Mutation> effects) throws IOException {
                if (++appends > 1) {
                    throw new IOException("No space left on device");
                }
            }

            @Override
            public void close() {
            }
        };
        Engine engine = new Engine(FaultPolicy.none(), LatencyModel.none(), System::nanoTime, new VersionedStore(), 0, failing, null);
        try (Database db = new EngineDatabase(engine, engine.pool(), null)) {
            put(db, "a", "1");
            assertThatThrownBy(() -> put(db, "b", "2")).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(FDBException.class)
                    .satisfies(e -> assertThat(((FDBException) e).getCode()).isEqualTo(1510))
                    .hasMessageContaining("No space left on device");
            assertThatThrownBy(() -> put(db, "c", "3")).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(FDBException.class);
            assertThat(get(db, "a")).isEqualTo("1");
            assertThat(get(db, "b")).isNull();
        }
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
            ch.write(one, offset);
        }
    }
}
