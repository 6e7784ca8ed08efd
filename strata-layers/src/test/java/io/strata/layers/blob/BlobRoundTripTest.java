package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.Arrays;
import java.util.OptionalLong;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values written and read back whole, at the sizes where chunking can go wrong (0, 1, a chunk
 * less one, a chunk, a chunk and one, many chunks) and beyond one transaction, through every
 * write path (in a transaction, {@code Database}-level, stream) and every read path.
 */
class BlobRoundTripTest {
    /** Small chunks, and transactions of a few chunks, so that many-chunk values span transactions. */
    private static final int CHUNK = 100;
    private static Database db;
    private static BlobStore store;

    @BeforeAll
    static void open() {
        db = Strata.inMemory();
        store = new BlobStore(new Subspace(Tuple.from("rt")), BlobSettings.defaults().withChunkSize(CHUNK).withTransactionBytes(1_000));
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 7 * CHUNK + 13})
    void inTransaction(int size) {
        byte[] name = name("tx-" + size);
        byte[] value = randomBytes(size, size);
        db.run(tr -> store.write(tr, name, value).join());
        assertThat(db.readAsync(tr -> store.read(tr, name)).join()).isEqualTo(value);
        assertThat(store.length(db, name).join()).isEqualTo(OptionalLong.of(size));
        assertThat(store.read(db, name).join()).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 5 * CHUNK, 37 * CHUNK + 1, 100 * CHUNK})
    void databaseLevelAndStreams(int size) throws Exception {
        byte[] name = name("db-" + size);
        byte[] value = randomBytes(size, 1000 + size);
        store.write(db, name, value).join();
        assertThat(store.read(db, name).join()).isEqualTo(value);

        byte[] streamed = randomBytes(size, 2000 + size);
        try (BlobWriter writer = store.openWriter(db, name)) {
            for (int at = 0; at < size; at += 37) { // pieces that never line up with chunks
                writer.write(streamed, at, Math.min(37, size - at));
            }
            assertThat(writer.length()).isEqualTo(size);
            assertThat(writer.isStaging()).isEqualTo(size > store.bytesPerTransaction());
        }
        assertThat(readStream(name)).isEqualTo(streamed);
        assertThat(store.read(db, name).join()).isEqualTo(streamed);
    }

    @Test
    void replacingWithShorterAndLongerValuesLeavesNoStaleChunks() {
        BlobStore store = alone("shrink");
        byte[] name = name("shrink");
        for (int size : new int[] {10 * CHUNK + 5, CHUNK + 1, 0, 3 * CHUNK, 40 * CHUNK, 2}) {
            byte[] value = randomBytes(size, size * 7L);
            if (size % 2 == 0) {
                store.write(db, name, value).join();
            } else {
                db.run(tr -> store.write(tr, name, value).join());
            }
            assertThat(store.read(db, name).join()).as("size %d", size).isEqualTo(value);
        }
        long chunkKeys = BlobTestSupport.countKeys(db, store.subspace().get(1));
        assertThat(chunkKeys).as("the last value's one chunk is all that is stored").isEqualTo(1);
    }

    @Test
    void missingBlobsReadAsNull() throws Exception {
        byte[] name = name("missing");
        assertThat(store.read(db, name).join()).isNull();
        assertThat(db.readAsync(tr -> store.read(tr, name)).join()).isNull();
        assertThat(store.length(db, name).join()).isEmpty();
        assertThat(store.openReader(db, name)).isNull();
        assertThat(store.delete(db, name).join()).isFalse();
    }

    @Test
    void deleteRemovesEveryKeyOfTheBlob() {
        BlobStore store = alone("deleted");
        byte[] name = name("deleted");
        store.write(db, name, randomBytes(50 * CHUNK, 5)).join();
        assertThat(store.delete(db, name).join()).isTrue();
        assertThat(store.read(db, name).join()).isNull();
        assertThat(BlobTestSupport.countKeys(db, store.subspace().get(1))).isZero();
    }

    /** Larger than one FoundationDB transaction (10,000,000 bytes), with the default settings. */
    @Test
    void valueLargerThanOneTransaction() throws Exception {
        BlobStore defaults = new BlobStore(new Subspace(Tuple.from("big")));
        byte[] name = name("twelve-megabytes");
        byte[] value = randomBytes(12_000_000 + 17, 12);
        defaults.write(db, name, value).join();
        assertThat(defaults.read(db, name).join()).isEqualTo(value);
        try (InputStream in = defaults.openReader(db, name)) {
            assertThat(in.readAllBytes()).isEqualTo(value);
        }
        assertThat(defaults.read(db, name, 11_999_990, 100).join())
                .isEqualTo(Arrays.copyOfRange(value, 11_999_990, value.length));
        assertThat(BlobTestSupport.countKeys(db, defaults.subspace().get(2))).as("no staging record left").isZero();
        assertThat(defaults.delete(db, name).join()).isTrue();
        assertThat(BlobTestSupport.countKeys(db, defaults.subspace().get(1))).isZero();
    }

    /** A store of its own, so that the keys it holds can be counted. */
    private static BlobStore alone(String subspace) {
        return new BlobStore(new Subspace(Tuple.from(subspace)), store.settings());
    }

    private static byte[] readStream(byte[] name) throws Exception {
        try (BlobReader in = store.openReader(db, name)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[61];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
            assertThat(in.remaining()).isZero();
            return out.toByteArray();
        }
    }
}
