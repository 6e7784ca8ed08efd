package io.strata.engine.store;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Recovery's two batches over a disk store that records what it is given: batches arrive
 * whole, in order, each with the version of its last record; a failing write fails the replay
 * with its cause, and closing frees every batch either way.
 */
class DiskRecoveryTest {
    /** A disk store that keeps each written batch's operations and version; write number {@code failAt} fails. */
    private static final class RecordingDisk implements DiskStore {
        /** Each written batch's operations, as text. */
        final List<String> written = new ArrayList<>();
        final List<Long> versions = new ArrayList<>();
        final AtomicInteger openBatches = new AtomicInteger();
        final int failAt;
        int writes;

        RecordingDisk(int failAt) {
            this.failAt = failAt;
        }

        @Override
        public Batch newBatch() {
            openBatches.incrementAndGet();
            return new Batch() {
                final List<String> ops = new ArrayList<>();
                boolean closed;

                @Override
                public void put(byte[] key, byte[] value) {
                    ops.add("put " + new String(key, StandardCharsets.UTF_8) + " " + value.length);
                }

                @Override
                public void delete(byte[] key) {
                    ops.add("delete " + new String(key, StandardCharsets.UTF_8));
                }

                @Override
                public void deleteRange(byte[] begin, byte[] end) {
                    ops.add("deleteRange " + new String(begin, StandardCharsets.UTF_8) + " " + new String(end, StandardCharsets.UTF_8));
                }

                @Override
                public int size() {
                    return ops.size();
                }

                @Override
                public void clear() {
                    ops.clear();
                }

                @Override
                public void close() {
                    if (!closed) {
                        closed = true;
                        openBatches.decrementAndGet();
                    }
                }

                @Override
                public String toString() {
                    return ops.toString();
                }
            };
        }

        @Override
        public synchronized void write(Batch batch, long version) throws IOException {
            if (++writes == failAt) {
                throw new IOException("injected: the disk is full");
            }
            written.add(batch.toString());
            versions.add(version);
        }

        @Override
        public byte[] get(byte[] key) {
            throw new UnsupportedOperationException("recovery only writes to the disk store");
        }

        @Override
        public Cursor cursor(byte[] lo, byte[] hi, boolean reverse) {
            throw new UnsupportedOperationException("recovery only writes to the disk store");
        }

        @Override
        public boolean anyKeyIn(byte[] lo, byte[] hi) {
            throw new UnsupportedOperationException("recovery only writes to the disk store");
        }

        @Override
        public long appliedVersion() {
            return 0;
        }

        @Override
        public void makeDurable() {
        }

        @Override
        public long approximateBytes(byte[] lo, byte[] hi) {
            return 0;
        }

        @Override
        public void close() {
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Replays {@code records} records of four 1 MiB writes and a range clear (a 16 MiB batch holds four). */
    private static void replay(DiskRecovery r, int records) throws IOException {
        byte[] mib = new byte[1 << 20];
        for (int v = 1; v <= records; v++) {
            for (int i = 0; i < 4; i++) {
                r.set(b("k" + v + "." + i), mib, v);
            }
            r.clearRange(b("r" + v), b("s" + v), v);
            r.endOfRecord(v);
        }
    }

    @Test
    void batchesArriveWholeInOrderEachNamingItsLastRecord() throws IOException {
        RecordingDisk disk = new RecordingDisk(0);
        try (DiskRecovery r = new DiskRecovery(disk)) {
            replay(r, 40); // 160 MiB: ten batches of about 16 MiB
            r.finish();
        }
        assertThat(disk.openBatches.get()).as("both batches freed").isZero();
        assertThat(disk.versions).hasSizeGreaterThan(2).isSorted();
        assertThat(disk.versions.get(disk.versions.size() - 1)).isEqualTo(40);
        List<String> all = disk.written;
        String joined = String.join(",", all);
        int last = -1;
        for (int v = 1; v <= 40; v++) {
            int at = joined.indexOf("put k" + v + ".0 ");
            assertThat(at).as("record " + v + " written after record " + (v - 1)).isGreaterThan(last);
            last = at;
        }
        for (int w = 0; w < disk.versions.size(); w++) {
            long version = disk.versions.get(w);
            assertThat(all.get(w)).as("batch " + w + " ends with its version's record")
                    .endsWith("deleteRange r" + version + " s" + version + "]");
        }
    }

    @Test
    void aFailedWriteFailsTheReplayWithItsCauseAndClosingFreesTheBatches() {
        RecordingDisk disk = new RecordingDisk(2);
        DiskRecovery r = new DiskRecovery(disk);
        assertThatThrownBy(() -> {
            replay(r, 40);
            r.finish();
        }).isInstanceOf(IOException.class).hasMessageContaining("injected: the disk is full");
        r.close();
        assertThat(disk.openBatches.get()).isZero();
        assertThat(disk.versions).hasSize(1);
    }
}
