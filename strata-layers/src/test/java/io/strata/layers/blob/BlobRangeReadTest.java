package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Range reads at and around chunk boundaries, in a transaction and across transactions, and
 * proof (from the transaction's own read conflict ranges) that a range read reads only the
 * chunks holding the range.
 */
class BlobRangeReadTest {
    private static final int CHUNK = 100;
    private static final int SIZE = 10 * CHUNK + 37;
    private static final long[] OFFSETS = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK - 1, 5 * CHUNK, SIZE - 1, SIZE, SIZE + 1,
            10 * SIZE};
    private static final long[] LENGTHS = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 1, SIZE, Long.MAX_VALUE};
    private static final byte[] NAME = name("range");
    private static final byte[] VALUE = randomBytes(SIZE, 42);

    private static Database db;
    /**
     * Transactions of two chunks (each counted with an allowance of 3 keys of at most 24 bytes
     * and 100 bytes), so that longer ranges span transactions at the Database level.
     */
    private static final BlobStore store = new BlobStore(new Subspace(Tuple.from("rr")),
            BlobSettings.defaults().withChunkSize(CHUNK).withTransactionBytes(2 * (CHUNK + 3 * 24 + 100)));

    @BeforeAll
    static void open() {
        db = Strata.inMemory();
        store.write(db, NAME, VALUE).join();
    }

    @AfterAll
    static void close() {
        db.close();
    }

    private static byte[] expected(long offset, long length) {
        int from = (int) Math.min(offset, SIZE);
        int to = (int) Math.min(SIZE, offset + Math.min(length, SIZE));
        return Arrays.copyOfRange(VALUE, from, Math.max(from, to));
    }

    @Test
    void everyBoundaryCombinationInATransaction() {
        for (long offset : OFFSETS) {
            for (long length : LENGTHS) {
                int asInt = (int) Math.min(length, Integer.MAX_VALUE);
                byte[] got = db.readAsync(tr -> store.read(tr, NAME, offset, asInt)).join();
                assertThat(got).as("[%d, +%d)", offset, length).isEqualTo(expected(offset, asInt));
            }
        }
    }

    @Test
    void everyBoundaryCombinationAcrossTransactionsAndAsAStream() throws Exception {
        assertThat(store.bytesPerTransaction()).isEqualTo(2 * CHUNK);
        for (long offset : OFFSETS) {
            for (long length : LENGTHS) {
                assertThat(store.read(db, NAME, offset, length).join()).as("[%d, +%d)", offset, length)
                        .isEqualTo(expected(offset, length));
                try (BlobReader in = store.openReader(db, NAME, offset, length)) {
                    assertThat(in.valueLength()).isEqualTo(SIZE);
                    assertThat(in.readAllBytes()).as("stream [%d, +%d)", offset, length).isEqualTo(expected(offset, length));
                }
            }
        }
    }

    @Test
    void aRangeReadReadsOnlyTheChunksHoldingTheRange() {
        long id = idOf(NAME);
        try (Transaction tr = db.createTransaction()) {
            // Bytes 250..349 lie in chunks 2 and 3.
            assertThat(store.read(tr, NAME, 250, 100).join()).isEqualTo(expected(250, 100));
            assertThat(readConflictRanges(tr)).containsExactly(
                    pointRange(store.subspace().pack(Tuple.from(0)), NAME),
                    new String[] {key(chunkKey(id, 2)), key(chunkKey(id, 4))});
        }
        try (Transaction tr = db.createTransaction()) {
            // One byte at a chunk's last position: that chunk only.
            store.read(tr, NAME, 5 * CHUNK - 1, 1).join();
            assertThat(readConflictRanges(tr)).contains(new String[] {key(chunkKey(id, 4)), key(chunkKey(id, 5))}).hasSize(2);
        }
        try (Transaction tr = db.createTransaction()) {
            // Past the end: the head only.
            assertThat(store.read(tr, NAME, SIZE + 5, 10).join()).isEmpty();
            assertThat(readConflictRanges(tr)).hasSize(1);
        }
    }

    @Test
    void negativeRangesAreRejected() {
        assertThatThrownBy(() -> store.read(db, NAME, -1, 5)).isInstanceOf(IllegalArgumentException.class);
        try (Transaction tr = db.createTransaction()) {
            assertThatThrownBy(() -> store.read(tr, NAME, 0, -5)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static long idOf(byte[] name) {
        byte[] head = db.readAsync(tr -> tr.get(ByteArrayUtil.join(store.subspace().pack(Tuple.from(0)), name))).join();
        return ByteBuffer.wrap(head).getLong();
    }

    private static byte[] chunkKey(long id, long index) {
        return store.subspace().pack(Tuple.from(1, id, index));
    }

    private static String[] pointRange(byte[] prefix, byte[] name) {
        byte[] key = ByteArrayUtil.join(prefix, name);
        return new String[] {key(key), key(ByteArrayUtil.join(key, new byte[] {0}))};
    }

    private static String key(byte[] k) {
        return ByteArrayUtil.printable(k);
    }

    /** The transaction's read conflict ranges, from FoundationDB's special keys, as [begin, end) pairs. */
    private static List<String[]> readConflictRanges(Transaction tr) {
        byte[] prefix = "\u00ff\u00ff/transaction/read_conflict_range/".getBytes(StandardCharsets.ISO_8859_1);
        List<KeyValue> rows = tr.getRange(prefix, ByteArrayUtil.strinc(prefix)).asList().join();
        List<String[]> ranges = new ArrayList<>();
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            assertThat(new String(rows.get(i).getValue(), StandardCharsets.US_ASCII)).isEqualTo("1");
            ranges.add(new String[] {key(Arrays.copyOfRange(rows.get(i).getKey(), prefix.length, rows.get(i).getKey().length)),
                    key(Arrays.copyOfRange(rows.get(i + 1).getKey(), prefix.length, rows.get(i + 1).getKey().length))});
        }
        return ranges;
    }
}
