package io.strata.engine.durability;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import io.strata.Strata;
import io.strata.engine.store.VersionedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckpointTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static long count(Database db) {
        byte[] v = db.read(tr -> tr.get(b("count")).join());
        return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static void commitNumbered(Database db, int i) {
        db.run(tr -> {
            tr.set(b(String.format("k%06d", i)), new byte[200]);
            tr.mutate(MutationType.ADD, b("count"), le(1));
            return null;
        });
    }

    private List<Path> checkpoints() throws IOException {
        return CheckpointFile.list(dir);
    }

    @Test
    void checkpointsBoundTheLogAndRecoveryStartsFromThem() throws Exception {
        int n = 2_000;
        try (Database db = Strata.builder().checkpointEveryLogBytes(16 << 10).open(dir)) {
            for (int i = 0; i < n; i++) {
                commitNumbered(db, i);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (checkpoints().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
        assertThat(checkpoints()).hasSize(1);
        long covered = CheckpointFile.versionOf(checkpoints().get(0));
        for (Path segment : LogReplay.segments(dir)) {
            // Only segments after the checkpoint remain.
            assertThat(LogReplay.firstVersion(segment)).isGreaterThan(covered);
        }
        try (Database db = Strata.open(dir)) {
            assertThat(count(db)).isEqualTo(n);
            List<?> keys = db.read(tr -> tr.getRange(b("k"), b("l")).asList().join());
            assertThat(keys).hasSize(n);
        }
    }

    /**
     * Regression: each run counted only its own log toward a checkpoint, so a database
     * restarted (or killed, as CrashUnderLoadTest's memory runs are) before each run wrote the
     * threshold never checkpointed again, and every restart replayed every earlier run's log.
     */
    @Test
    void logLeftByEarlierRunsCountsTowardTheNextCheckpoint() throws Exception {
        int perRun = 40; // about 10 KiB of log a run (258 bytes a commit): each under the 16 KiB threshold, two over it
        try (Database db = Strata.builder().checkpointEveryLogBytes(16 << 10).open(dir)) {
            for (int i = 0; i < perRun; i++) {
                commitNumbered(db, i);
            }
            Thread.sleep(300); // three looks of the checkpointer
            assertThat(checkpoints()).isEmpty();
        }
        try (Database db = Strata.builder().checkpointEveryLogBytes(16 << 10).open(dir)) {
            for (int i = perRun; i < 2 * perRun; i++) {
                commitNumbered(db, i);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (checkpoints().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(checkpoints()).as("a checkpoint once both runs' log passed the threshold").hasSize(1);
        }
        long covered = CheckpointFile.versionOf(checkpoints().get(0));
        for (Path segment : LogReplay.segments(dir)) {
            assertThat(LogReplay.firstVersion(segment)).as("the first run's segment is deleted").isGreaterThan(covered);
        }
        try (Database db = Strata.open(dir)) {
            assertThat(count(db)).isEqualTo(2 * perRun);
        }
    }

    @Test
    void logRecordsAlreadyInTheCheckpointAreNotAppliedAgain() throws Exception {
        try (Database db = Strata.open(dir)) {
            for (int i = 0; i < 10; i++) {
                commitNumbered(db, i);
            }
        }
        // As if the process died after writing a checkpoint but before deleting the log.
        VersionedStore store = new VersionedStore();
        LogReplay.Result replay = LogReplay.replay(dir, store);
        CheckpointFile.write(dir, store, replay.lastVersion());
        try (Database db = Strata.open(dir)) {
            assertThat(count(db)).isEqualTo(10);
            commitNumbered(db, 10);
        }
        try (Database db = Strata.open(dir)) {
            assertThat(count(db)).isEqualTo(11);
        }
    }

    @Test
    void anUnfinishedCheckpointIsIgnoredAndRemoved() throws Exception {
        try (Database db = Strata.open(dir)) {
            commitNumbered(db, 0);
        }
        Path tmp = dir.resolve(CheckpointFile.name(999_999_999L) + ".tmp");
        Files.write(tmp, new byte[] {1, 2, 3});
        try (Database db = Strata.open(dir)) {
            assertThat(count(db)).isEqualTo(1);
        }
        assertThat(tmp).doesNotExist();
    }

    @Test
    void aDamagedCheckpointRefusesToOpenAndNamesFileAndOffset() throws Exception {
        try (Database db = Strata.open(dir)) {
            commitNumbered(db, 0);
        }
        VersionedStore store = new VersionedStore();
        Path ckpt = CheckpointFile.write(dir, store, LogReplay.replay(dir, store).lastVersion());
        try (FileChannel ch = FileChannel.open(ckpt, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            long offset = CheckpointFile.HEADER_BYTES + 8 + 3; // inside the first chunk
            ch.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
            ch.write(one, offset);
        }
        assertThatThrownBy(() -> Strata.open(dir)).isInstanceOf(UncheckedIOException.class)
                .cause().isInstanceOf(CorruptLogException.class)
                .satisfies(e -> {
                    assertThat(((CorruptLogException) e).file()).isEqualTo(ckpt);
                    assertThat(((CorruptLogException) e).offset()).isEqualTo(CheckpointFile.HEADER_BYTES);
                });
    }
}
