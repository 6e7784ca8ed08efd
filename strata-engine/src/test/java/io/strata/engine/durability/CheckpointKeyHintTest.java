package io.strata.engine.durability;

import io.strata.engine.store.RecoveryWrites;
import io.strata.engine.store.VersionedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A checkpoint's load tells the store its entry count before the first entry (a sizing hint). */
class CheckpointKeyHintTest {
    @TempDir
    Path dir;

    @Test
    void theTrailersCountComesBeforeTheEntries() throws Exception {
        Path checkpoint = checkpointOf(1_000);
        List<String> calls = new ArrayList<>();
        RecoveryWrites recorder = recorder(calls);
        assertThat(CheckpointFile.load(checkpoint, recorder)).isEqualTo(10);
        assertThat(calls).containsExactly("expect 1000", "set");
    }

    @Test
    void aDamagedTrailerGivesNoHintAndTheLoadRefusesIt() throws Exception {
        Path checkpoint = checkpointOf(100);
        try (FileChannel ch = FileChannel.open(checkpoint, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // The count's low byte, 100 to 101: a count the file could hold, whose checksum fails.
            ch.write(ByteBuffer.wrap(new byte[] {101}), ch.size() - 1);
        }
        List<String> calls = new ArrayList<>();
        assertThatThrownBy(() -> CheckpointFile.load(checkpoint, recorder(calls))).isInstanceOf(CorruptLogException.class);
        assertThat(calls).noneMatch(c -> c.startsWith("expect"));
    }

    /** A checkpoint at version 10 of {@code keys} keys. */
    private Path checkpointOf(int keys) throws Exception {
        VersionedStore store = new VersionedStore();
        for (int i = 0; i < keys; i++) {
            store.set(("key-" + i).getBytes(), new byte[] {(byte) i}, 10);
        }
        return CheckpointFile.write(dir, store, 10);
    }

    private static RecoveryWrites recorder(List<String> calls) {
        return new RecoveryWrites() {
            @Override
            public void expectKeys(long keys) {
                calls.add("expect " + keys);
            }

            @Override
            public void set(byte[] key, byte[] value, long version) {
                if (calls.isEmpty() || !calls.get(calls.size() - 1).equals("set")) {
                    calls.add("set");
                }
            }

            @Override
            public void clear(byte[] key, long version) {
                calls.add("clear");
            }

            @Override
            public void clearRange(byte[] begin, byte[] end, long version) {
                calls.add("clearRange");
            }

            @Override
            public void endOfRecord(long version) {
            }

            @Override
            public void finish() {
            }
        };
    }
}
