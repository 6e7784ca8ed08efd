package io.strata.engine.disk;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.store.VersionedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The disk engine through the public API: a manual clock moves versions past the 5-second
 * window at once, so writes reach the disk store and leave memory within the test, and every
 * read — point, range both ways, after overwrites, clears and range clears, after a reopen —
 * is checked against a model.
 */
class DiskStorageTest {
    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private Database open() {
        return Strata.builder().storage(Storage.SSD).nanoTime(nanos::get).open(dir);
    }

    private static VersionedStore store(Database db) {
        return ((EngineDatabase) db).engine().store();
    }

    /**
     * Moves the clock past the window, commits so the sequencer hands what left it to the
     * catch-up, waits until written, and commits again so the written versions leave memory.
     */
    private void pushToDisk(Database db) throws InterruptedException {
        for (int round = 0; round < 2; round++) {
            nanos.addAndGet(6_000_000_000L);
            db.run(tr -> {
                tr.set(b("\u0001tick"), b("x"));
                return null;
            });
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!store(db).caughtUp() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(store(db).caughtUp()).isTrue();
        }
    }

    private static void assertMatches(Database db, TreeMap<String, String> model) {
        List<KeyValue> all = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
        assertThat(all.stream().map(kv -> s(kv.getKey()) + "=" + s(kv.getValue())).toList())
                .containsExactlyElementsOf(model.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        List<KeyValue> reversed = db.read(tr -> tr.getRange(b("k"), b("l"), 0, true).asList().join());
        assertThat(reversed.stream().map(kv -> s(kv.getKey())).toList())
                .containsExactlyElementsOf(model.descendingKeySet());
        for (int i = 0; i < 300; i += 7) {
            String key = String.format("k%04d", i);
            byte[] got = db.read(tr -> tr.get(b(key)).join());
            assertThat(got == null ? null : s(got)).as(key).isEqualTo(model.get(key));
        }
    }

    @Test
    void writesReachTheDiskLeaveMemoryAndReadTheSameBeforeAndAfterReopening() throws Exception {
        TreeMap<String, String> model = new TreeMap<>();
        try (Database db = open()) {
            for (int i = 0; i < 300; i++) {
                String key = String.format("k%04d", i);
                db.run(tr -> {
                    tr.set(b(key), b("v1-" + key));
                    return null;
                });
                model.put(key, "v1-" + key);
            }
            assertMatches(db, model);
            pushToDisk(db);
            assertThat(store(db).keyCount()).as("only the window stays in memory").isLessThan(5);
            assertThat(store(db).diskVersion()).isPositive();
            assertMatches(db, model);

            // Overwrites, clears and a range clear of keys that are on disk only.
            db.run(tr -> {
                tr.set(b("k0003"), b("v2"));
                tr.clear(b("k0005"));
                tr.clear(b("k0100"), b("k0200"));
                tr.set(b("k0150"), b("back"));
                return null;
            });
            model.put("k0003", "v2");
            model.remove("k0005");
            model.subMap("k0100", "k0200").clear();
            model.put("k0150", "back");
            assertMatches(db, model);
            pushToDisk(db);
            assertMatches(db, model);
        }
        try (Database db = open()) {
            assertMatches(db, model);
        }
        // Without choosing, the directory's own storage.
        try (Database db = Strata.open(dir)) {
            assertThat(store(db).onDisk()).isTrue();
            assertMatches(db, model);
        }
    }

    @Test
    void aReadAtAnOlderVersionInTheWindowSeesTheDiskKeyItsWritesHaveNotReplaced() throws Exception {
        try (Database db = open()) {
            db.run(tr -> {
                tr.set(b("k0001"), b("old"));
                tr.set(b("k0002"), b("old"));
                return null;
            });
            pushToDisk(db);
            try (var reader = db.createTransaction()) {
                reader.getReadVersion().join();
                db.run(tr -> {
                    tr.set(b("k0001"), b("new"));
                    tr.clear(b("k0000"), b("k0003"));
                    tr.set(b("k0002"), b("newer"));
                    return null;
                });
                // Two seconds later, still in the window: the reader sees the state it began at.
                nanos.addAndGet(2_000_000_000L);
                assertThat(s(reader.get(b("k0001")).join())).isEqualTo("old");
                assertThat(reader.getRange(b("k"), b("l")).asList().join()).hasSize(2);
            }
            byte[] cleared = db.read(tr -> tr.get(b("k0001")).join());
            assertThat(cleared).isNull();
            assertThat(s(db.read(tr -> tr.get(b("k0002")).join()))).isEqualTo("newer");
        }
    }

    @Test
    void atomicOperationsOnKeysOnlyOnDiskStartFromTheDiskValue() throws Exception {
        byte[] one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();
        try (Database db = open()) {
            db.run(tr -> {
                tr.mutate(MutationType.ADD, b("kcount"), one);
                return null;
            });
            pushToDisk(db);
            db.run(tr -> {
                tr.mutate(MutationType.ADD, b("kcount"), one);
                return null;
            });
            byte[] v = db.read(tr -> tr.get(b("kcount")).join());
            assertThat(ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong()).isEqualTo(2);
        }
    }

    @Test
    void pastTheMemoryLimitCommitsAreRefusedRetryablyUntilTheWindowDrainsToDisk() throws Exception {
        try (Database db = Strata.builder().storage(Storage.SSD).nanoTime(nanos::get).memoryLimit(1 << 20).open(dir)) {
            int i = 0;
            com.apple.foundationdb.FDBException refused = null;
            while (refused == null) {
                String key = String.format("k%06d", i++);
                try (var tr = db.createTransaction()) {
                    tr.set(b(key), new byte[1000]);
                    tr.commit().join();
                } catch (java.util.concurrent.CompletionException e) {
                    refused = (com.apple.foundationdb.FDBException) e.getCause();
                }
            }
            assertThat(refused.getCode()).isEqualTo(1042);
            assertThat(io.strata.engine.error.RetryPolicy.isRetryable(refused.getCode())).isTrue();
            pushToDisk(db); // the window leaves memory for the disk: room again
            db.run(tr -> {
                tr.set(b("kafter"), new byte[1000]);
                return null;
            });
            List<KeyValue> all = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(all).hasSize(i); // every acknowledged write, and the one after
        }
    }

    @Test
    void theEstimatedRangeSizeComesFromTheDiskStoresStatistics() throws Exception {
        try (Database db = open()) {
            writeRandomValues(db, 2_000, 7);
            long exact = 2_000L * (7 + 1_000);
            pushToDisk(db);
            assertThat(store(db).keyCount()).isLessThan(5);
            long inMemtables = db.read(tr -> tr.getEstimatedRangeSizeBytes(b("k"), b("l")).join());
            store(db).makeDiskDurable(); // now in table files, with their statistics
            long inFiles = db.read(tr -> tr.getEstimatedRangeSizeBytes(b("k"), b("l")).join());
            long half = db.read(tr -> tr.getEstimatedRangeSizeBytes(b("k"), b("k001000")).join());
            assertThat(inMemtables).isBetween(exact / 2, exact * 2);
            assertThat(inFiles).isBetween(exact / 2, exact * 2);
            assertThat(half).isBetween(inFiles / 4, inFiles * 3 / 4);
        }
    }

    @Test
    void clearingARangeGivesItsDiskSpaceBack() throws Exception {
        try (Database db = open()) {
            writeRandomValues(db, 4_000, 11);
            pushToDisk(db);
            store(db).makeDiskDurable();
            long full = tableBytes();
            assertThat(full).isGreaterThan(3_000_000L);
            db.run(tr -> {
                tr.clear(b("k"), b("l"));
                return null;
            });
            pushToDisk(db);
            store(db).makeDiskDurable();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (tableBytes() > full / 10 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(tableBytes()).as("table files after the clear, against %d before", full).isLessThan(full / 10);
            List<KeyValue> left = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(left).isEmpty();
        }
    }

    /** Keys {@code k000000}… with 1,000 random (incompressible) bytes each, one commit per key. */
    private static void writeRandomValues(Database db, int count, long seed) {
        java.util.Random random = new java.util.Random(seed);
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[1_000];
            random.nextBytes(value);
            String key = String.format("k%06d", i);
            db.run(tr -> {
                tr.set(b(key), value);
                return null;
            });
        }
    }

    private long tableBytes() throws java.io.IOException {
        try (var files = Files.list(dir.resolve("ssd"))) {
            long total = 0;
            for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".sst")).toList()) {
                try {
                    total += Files.size(p);
                } catch (java.nio.file.NoSuchFileException e) {
                    // compacted away meanwhile
                }
            }
            return total;
        }
    }

    @Test
    void closingWhileReadersReadRefusesThemCleanly() throws Exception {
        Database db = open();
        for (int i = 0; i < 200; i++) {
            String key = String.format("k%04d", i);
            db.run(tr -> {
                tr.set(b(key), b("v"));
                return null;
            });
        }
        pushToDisk(db);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> unexpected = new java.util.concurrent.atomic.AtomicReference<>();
        List<Thread> readers = new java.util.ArrayList<>();
        for (int r = 0; r < 4; r++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
                        db.read(tr -> tr.get(b("k0007")).join());
                    } catch (RuntimeException e) {
                        // After close: fdb-java's closed-object error, however it is wrapped.
                        Throwable c = e;
                        while (c.getCause() != null && !(c instanceof IllegalStateException)) {
                            c = c.getCause();
                        }
                        if (!(c instanceof IllegalStateException) && !(c instanceof com.apple.foundationdb.FDBException)) {
                            unexpected.compareAndSet(null, e);
                        }
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        Thread.sleep(200);
        db.close(); // must neither crash the JVM nor hang
        Thread.sleep(100);
        stop.set(true);
        for (Thread t : readers) {
            t.join(10_000);
        }
        assertThat(unexpected.get()).isNull();
    }

    @Test
    void aCleanCloseWritesTheWindowToDiskSoTheRestartReplaysNothing() throws Exception {
        TreeMap<String, String> model = new TreeMap<>();
        try (Database db = Strata.builder().storage(Storage.SSD).nanoTime(nanos::get).checkpointEveryLogBytes(16 << 10).open(dir)) {
            for (int i = 0; i < 300; i++) {
                String key = String.format("k%04d", i);
                db.run(tr -> {
                    tr.set(b(key), b("v-" + key));
                    return null;
                });
                model.put(key, "v-" + key);
            }
            db.run(tr -> {
                tr.clear(b("k0100"), b("k0200"));
                return null;
            });
            model.subMap("k0100", "k0200").clear();
            assertThat(store(db).diskVersion()).as("all of it still in the window").isZero();
        }
        try (Database db = open()) {
            assertThat(store(db).keyCount()).as("nothing replayed into memory").isZero();
            assertMatches(db, model);
        }
    }

    /**
     * The close's flush adds a level-0 file; with the ones before it, RocksDB has a compaction
     * to run, which it would stop at close and run in the next process beside its first reads.
     * A clean close waits for it: the closed directory has nothing left to compact.
     */
    @Test
    void aCleanCloseLeavesTheDiskStoreWithNoCompactionToRun() throws Exception {
        try (Database db = open()) {
            writeRandomBatches(db, 0, 6_000);
            pushToDisk(db);
            store(db).makeDiskDurable(); // level 0: one file of about 6 MB
            writeRandomBatches(db, 6_000, 6_000);
            pushToDisk(db); // in RocksDB's memtable
            writeRandomBatches(db, 12_000, 6_000); // in the window
            // The close writes the window and flushes: a second level-0 file, RocksDB's trigger.
        }
        assertThat(lsmState(dir.resolve("ssd"))).isEqualTo("compaction pending 0, level-0 files below 2");
        try (Database db = open()) {
            List<KeyValue> all = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(all).hasSize(18_000);
        }
    }

    /** Keys {@code k<first>}.. with random 1,000-byte values, 100 to a transaction. */
    private static void writeRandomBatches(Database db, int first, int count) {
        java.util.Random random = new java.util.Random(first);
        for (int i = first; i < first + count; i += 100) {
            int from = i;
            db.run(tr -> {
                for (int k = from; k < Math.min(from + 100, first + count); k++) {
                    byte[] value = new byte[1_000];
                    random.nextBytes(value);
                    tr.set(b(String.format("k%06d", k)), value);
                }
                return null;
            });
        }
    }

    /** The closed RocksDB directory's compaction state, read by opening it read-only. */
    private static String lsmState(Path rocks) throws Exception {
        try (org.rocksdb.Options listing = new org.rocksdb.Options();
             org.rocksdb.ColumnFamilyOptions familyOptions = new org.rocksdb.ColumnFamilyOptions()
                     .optimizeLevelStyleCompaction(); // RocksDiskStore's level-0 trigger (2)
             org.rocksdb.DBOptions dbOptions = new org.rocksdb.DBOptions()) {
            List<org.rocksdb.ColumnFamilyDescriptor> families = new java.util.ArrayList<>();
            for (byte[] name : org.rocksdb.RocksDB.listColumnFamilies(listing, rocks.toString())) {
                families.add(new org.rocksdb.ColumnFamilyDescriptor(name, familyOptions));
            }
            List<org.rocksdb.ColumnFamilyHandle> handles = new java.util.ArrayList<>();
            try (org.rocksdb.RocksDB db = org.rocksdb.RocksDB.openReadOnly(dbOptions, rocks.toString(), families, handles)) {
                try {
                    long pending = db.getLongProperty(handles.get(0), "rocksdb.compaction-pending");
                    long levelZero = Long.parseLong(db.getProperty(handles.get(0), "rocksdb.num-files-at-level0"));
                    return "compaction pending " + pending + ", level-0 files " + (levelZero < 2 ? "below 2" : levelZero);
                } finally {
                    handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
                }
            }
        }
    }

    @Test
    void theDirectoryRemembersItsStorageAndRefusesTheOther() throws Exception {
        try (Database db = open()) {
            db.run(tr -> {
                tr.set(b("k"), b("v"));
                return null;
            });
        }
        assertThat(Files.readString(dir.resolve("STORAGE")).trim()).isEqualTo("ssd");
        assertThatThrownBy(() -> Strata.builder().storage(Storage.MEMORY).open(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was created with storage ssd");
        Path other = dir.resolve("memory-db");
        try (Database db = Strata.open(other)) {
            db.run(tr -> {
                tr.set(b("k"), b("v"));
                return null;
            });
        }
        assertThat(Files.readString(other.resolve("STORAGE")).trim()).isEqualTo("memory");
        assertThatThrownBy(() -> Strata.builder().storage(Storage.SSD).open(other))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was created with storage memory");
    }

    @Test
    void theLogIsTrimmedOnceTheDiskStoreDurablyHasIt() throws Exception {
        try (Database db = Strata.builder().storage(Storage.SSD).nanoTime(nanos::get).checkpointEveryLogBytes(16 << 10).open(dir)) {
            for (int i = 0; i < 2_000; i++) {
                String key = String.format("k%06d", i);
                db.run(tr -> {
                    tr.set(b(key), new byte[200]);
                    return null;
                });
            }
            pushToDisk(db);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (segments().size() > 2 && System.nanoTime() < deadline) {
                pushToDisk(db);
                Thread.sleep(50);
            }
            assertThat(segments().size()).isLessThanOrEqualTo(2);
        }
        try (Database db = open()) {
            List<KeyValue> all = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(all).hasSize(2_000);
        }
    }

    /**
     * A crash with tens of MiB in the log (nothing past the window, since the clock stands
     * still): recovery replays it into the disk store in several batches, written by a second
     * thread while the next is parsed, and the result is exactly the model — overwrites,
     * clears and range clears included, over keys already on disk.
     */
    @Test
    void recoveryReplaysALogOfManyBatchesIntoTheDiskStoreInOrder() throws Exception {
        TreeMap<String, byte[]> model = new TreeMap<>();
        java.util.Random random = new java.util.Random(19);
        Path copy = dir.resolveSibling(dir.getFileName() + "-crashed");
        try (Database db = open()) {
            for (int i = 0; i < 500; i++) {
                byte[] value = b("disk-" + i);
                String key = String.format("k%04d", i);
                db.run(tr -> {
                    tr.set(b(key), value);
                    return null;
                });
                model.put(key, value);
            }
            pushToDisk(db);
            for (int round = 0; round < 40; round++) { // about 40 MiB of log (three disk batches), nothing written to disk
                TreeMap<String, byte[]> writes = new TreeMap<>();
                for (int n = 0; n < 1_000; n++) {
                    byte[] value = new byte[1_000];
                    random.nextBytes(value);
                    writes.put(String.format("k%04d", random.nextInt(3_000)), value);
                }
                String clearFrom = String.format("k%04d", random.nextInt(3_000));
                String clearTo = String.format("k%04d", Math.min(3_000, Integer.parseInt(clearFrom.substring(1)) + 40));
                String cleared = String.format("k%04d", random.nextInt(3_000));
                db.run(tr -> {
                    tr.clear(b(clearFrom), b(clearTo));
                    tr.clear(b(cleared));
                    writes.forEach((k, v) -> {
                        if (!k.equals(cleared)) {
                            tr.set(b(k), v);
                        }
                    });
                    return null;
                });
                model.subMap(clearFrom, clearTo).clear();
                model.remove(cleared);
                writes.remove(cleared);
                model.putAll(writes);
            }
            // The clock stands still, so nothing more reaches the disk store: its files and the
            // log (fsynced at every commit) are what a kill -9 would leave.
            copyTree(dir, copy);
        }
        try (Database db = Strata.builder().storage(Storage.SSD).nanoTime(nanos::get).open(copy)) {
            assertThat(store(db).keyCount()).as("replayed into the disk store, not memory").isZero();
            List<KeyValue> all = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(all.stream().map(kv -> s(kv.getKey())).toList()).containsExactlyElementsOf(model.keySet());
            for (KeyValue kv : all) {
                assertThat(kv.getValue()).as(s(kv.getKey())).isEqualTo(model.get(s(kv.getKey())));
            }
        } finally {
            deleteTree(copy);
        }
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : paths.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("LOCK")) {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private List<Path> segments() throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).toList();
        }
    }
}
