package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Changes in place: SETRANGE-like writes with zero padding, append, truncate, delete, with Redis's edge cases. */
class BlobEditTest {
    private static final int CHUNK = 10;

    private final Database db = Strata.inMemory();
    private final BlobStore store = new BlobStore(new Subspace(Tuple.from("e")), BlobSettings.defaults().withChunkSize(CHUNK));
    private final byte[] name = name("k");

    @AfterEach
    void close() {
        db.close();
    }

    private <T> T run(Function<Transaction, CompletableFuture<T>> op) {
        return db.runAsync(op::apply).join();
    }

    private long newLength(Function<Transaction, CompletableFuture<Long>> op) {
        return run(op);
    }

    private boolean done(Function<Transaction, CompletableFuture<Boolean>> op) {
        return run(op);
    }

    private byte[] value() {
        return store.read(db, name).join();
    }

    private List<KeyValue> chunkKeys() {
        return BlobTestSupport.stored(db, store.subspace().get(1));
    }

    @Test
    void writeAtOverwritesInsideTheValueAsRedisSetrange() {
        run(tr -> store.write(tr, name, "Hello World".getBytes()));
        assertThat(newLength(tr -> store.writeAt(tr, name, 6, "Redis".getBytes()))).isEqualTo(11);
        assertThat(new String(value())).isEqualTo("Hello Redis");
    }

    @Test
    void writeAtPastTheEndPadsWithZeros() {
        assertThat(newLength(tr -> store.writeAt(tr, name, 6, "Redis".getBytes()))).isEqualTo(11);
        assertThat(value()).isEqualTo("\0\0\0\0\0\0Redis".getBytes());
        assertThat(newLength(tr -> store.writeAt(tr, name, 35, new byte[] {9}))).isEqualTo(36);
        byte[] expected = new byte[36];
        System.arraycopy("Redis".getBytes(), 0, expected, 6, 5);
        expected[35] = 9;
        assertThat(value()).isEqualTo(expected);
    }

    @Test
    void paddingIsNotStored() {
        long at = 1_000L * CHUNK + 3;
        assertThat(newLength(tr -> store.writeAt(tr, name, at, new byte[] {1, 2}))).isEqualTo(at + 2);
        assertThat(chunkKeys()).as("only the chunk written").hasSize(1);
        assertThat(chunkKeys().get(0).getValue()).containsExactly(0, 0, 0, 1, 2);
        byte[] tail = db.readAsync(tr -> store.read(tr, name, at - 4, 100)).join();
        assertThat(tail).containsExactly(0, 0, 0, 0, 1, 2);
        assertThat(store.read(db, name).join()).hasSize((int) at + 2);
    }

    @Test
    void writingNothingChangesNothingAndCreatesNothing() {
        assertThat(newLength(tr -> store.writeAt(tr, name, 100, new byte[0]))).isZero();
        assertThat(store.length(db, name).join()).isEmpty();
        run(tr -> store.write(tr, name, "abc".getBytes()));
        assertThat(newLength(tr -> store.writeAt(tr, name, 100, new byte[0]))).as("no padding").isEqualTo(3);
        assertThat(value()).isEqualTo("abc".getBytes());
    }

    @Test
    void appendGrowsAcrossChunkBoundaries() {
        ByteArrayOutputStream model = new ByteArrayOutputStream();
        int seed = 0;
        for (int n : new int[] {1, CHUNK - 2, 1, CHUNK, 3 * CHUNK + 7, 0, 2, CHUNK - 1}) {
            byte[] piece = randomBytes(n, seed++);
            model.writeBytes(piece);
            assertThat(newLength(tr -> store.append(tr, name, piece))).isEqualTo(model.size());
            assertThat(value()).isEqualTo(model.toByteArray());
        }
        assertThat(chunkKeys()).hasSize((model.size() + CHUNK - 1) / CHUNK);
    }

    @Test
    void emptyAppendCreatesAnEmptyValueAsRedisAppend() {
        assertThat(newLength(tr -> store.append(tr, name, new byte[0]))).isZero();
        assertThat(store.length(db, name).join()).isEqualTo(OptionalLong.of(0));
        assertThat(value()).isEmpty();
    }

    @Test
    void severalChangesInOneTransactionSeeEachOther() {
        byte[] got = run(tr -> store.write(tr, name, "0123456789ABCDEF".getBytes())
                .thenCompose(ignore -> store.append(tr, name, "GH".getBytes()))
                .thenCompose(ignore -> store.writeAt(tr, name, 8, "xy".getBytes()))
                .thenCompose(ignore -> store.truncate(tr, name, 15))
                .thenCompose(ignore -> store.read(tr, name)));
        assertThat(new String(got)).isEqualTo("01234567xyABCDE");
        assertThat(value()).isEqualTo(got);
    }

    @Test
    void truncateCutsThenGrowingReadsZerosNotTheCutBytes() {
        byte[] original = randomBytes(5 * CHUNK + 4, 3);
        run(tr -> store.write(tr, name, original));
        assertThat(done(tr -> store.truncate(tr, name, 2 * CHUNK + 3))).isTrue();
        assertThat(value()).isEqualTo(Arrays.copyOf(original, 2 * CHUNK + 3));
        assertThat(chunkKeys()).hasSize(3);
        assertThat(chunkKeys().get(2).getValue()).as("the last chunk trimmed").hasSize(3);

        assertThat(done(tr -> store.truncate(tr, name, 4 * CHUNK))).isTrue();
        assertThat(value()).isEqualTo(Arrays.copyOf(Arrays.copyOf(original, 2 * CHUNK + 3), 4 * CHUNK));
        assertThat(newLength(tr -> store.writeAt(tr, name, 4 * CHUNK + 1, new byte[] {5}))).isEqualTo(4 * CHUNK + 2);
        byte[] expected = Arrays.copyOf(Arrays.copyOf(original, 2 * CHUNK + 3), 4 * CHUNK + 2);
        expected[4 * CHUNK + 1] = 5;
        assertThat(value()).isEqualTo(expected);

        assertThat(done(tr -> store.truncate(tr, name, 2 * CHUNK))).isTrue();
        assertThat(chunkKeys()).as("cut on a chunk boundary").hasSize(2);
        assertThat(done(tr -> store.truncate(tr, name, 0))).isTrue();
        assertThat(value()).isEmpty();
        assertThat(chunkKeys()).isEmpty();
        assertThat(done(tr -> store.truncate(tr, name("missing"), 0))).isFalse();
        assertThat(store.length(db, name("missing")).join()).isEmpty();
    }

    @Test
    void deleteInATransaction() {
        run(tr -> store.write(tr, name, randomBytes(7 * CHUNK, 1)));
        assertThat(done(tr -> store.delete(tr, name))).isTrue();
        assertThat(done(tr -> store.delete(tr, name))).isFalse();
        assertThat(value()).isNull();
        assertThat(chunkKeys()).isEmpty();
    }

    @Test
    void negativeOffsetsAndLengthsAreRejected() {
        try (Transaction tr = db.createTransaction()) {
            assertThatThrownBy(() -> store.writeAt(tr, name, -1, new byte[] {1})).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.writeAt(tr, name, Long.MAX_VALUE, new byte[] {1}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.truncate(tr, name, -1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void inPlaceChangesKeepTheChunkSizeTheValueWasWrittenWith() {
        run(tr -> store.write(tr, name, randomBytes(3 * CHUNK, 9)));
        BlobStore wider = new BlobStore(store.subspace(), BlobSettings.defaults().withChunkSize(4 * CHUNK));
        byte[] expected = Arrays.copyOf(randomBytes(3 * CHUNK, 9), 3 * CHUNK + 2);
        expected[3 * CHUNK] = 1;
        expected[3 * CHUNK + 1] = 2;
        assertThat(db.runAsync(tr -> wider.append(tr, name, new byte[] {1, 2})).join()).isEqualTo(3 * CHUNK + 2);
        assertThat(wider.read(db, name).join()).isEqualTo(expected);
        assertThat(chunkKeys()).as("still chunks of " + CHUNK).hasSize(4);
        db.runAsync(tr -> wider.write(tr, name, expected)).join();
        assertThat(chunkKeys()).as("a whole write takes the store's chunk size").hasSize(1);
        assertThat(store.read(db, name).join()).isEqualTo(expected);
    }
}
