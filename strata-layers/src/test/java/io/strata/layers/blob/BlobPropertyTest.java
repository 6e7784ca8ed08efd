package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of blob operations, several to a transaction, against a model: a byte
 * array (null: no blob). Chunks are tiny (1 to 16 bytes) and the store's own transactions
 * hold a few of them, so that values of a few hundred bytes cross many chunk boundaries and
 * the {@code Database}-level writes and reads stage and span many transactions. After every
 * step the value must match; at the end, the stored chunks must obey the layout's invariants.
 */
class BlobPropertyTest {
    private static Database db;
    private static final AtomicLong NEXT_STORE = new AtomicLong();
    private static final byte[] NAME = {'k'};

    @BeforeContainer
    static void open() {
        db = Strata.inMemory();
    }

    @AfterContainer
    static void close() {
        db.close();
    }

    enum Kind {
        // in a transaction
        WRITE, WRITE_AT, APPEND, TRUNCATE, DELETE, READ, READ_RANGE, LENGTH,
        // each in transactions of the store's own
        DB_WRITE, STREAM_WRITE, DB_READ_RANGE, STREAM_READ_RANGE;

        boolean databaseLevel() {
            return ordinal() >= DB_WRITE.ordinal();
        }
    }

    /** One operation; its bytes, when it writes, are {@code length} bytes drawn from {@code seed}. */
    record Op(Kind kind, int offset, int length, long seed) {
        byte[] bytes() {
            return randomBytes(length, seed);
        }

        @Override
        public String toString() {
            return kind + "(" + offset + ", " + length + ")";
        }
    }

    @Property(tries = 100)
    void behavesLikeAByteArray(@ForAll("chunkSizes") int chunkSize, @ForAll("steps") List<List<Op>> steps) throws Exception {
        BlobStore store = new BlobStore(new Subspace(Tuple.from("p", NEXT_STORE.incrementAndGet())),
                BlobSettings.defaults().withChunkSize(chunkSize).withTransactionBytes(3_000));
        byte[][] model = {null};
        for (List<Op> step : steps) {
            if (step.get(0).kind().databaseLevel()) {
                model[0] = applyAlone(store, model[0], step.get(0));
            } else {
                byte[][] after = new byte[1][];
                db.run(tr -> {
                    after[0] = model[0]; // the model of this attempt, discarded if it retries
                    for (Op op : step) {
                        after[0] = apply(tr, store, after[0], op);
                    }
                    return null;
                });
                model[0] = after[0];
            }
            assertThat(store.read(db, NAME).join()).as("after %s", step).isEqualTo(model[0]);
        }
        checkStoredInvariants(store, model[0], chunkSize);
    }

    private static byte[] apply(Transaction tr, BlobStore store, byte[] model, Op op) {
        switch (op.kind()) {
            case WRITE -> {
                store.write(tr, NAME, op.bytes()).join();
                return op.bytes();
            }
            case WRITE_AT -> {
                byte[] next = model;
                if (op.length() > 0) {
                    next = Arrays.copyOf(model == null ? new byte[0] : model,
                            Math.max(model == null ? 0 : model.length, op.offset() + op.length()));
                    System.arraycopy(op.bytes(), 0, next, op.offset(), op.length());
                }
                assertThat(store.writeAt(tr, NAME, op.offset(), op.bytes()).join()).as("%s", op)
                        .isEqualTo(next == null ? 0 : next.length);
                return next;
            }
            case APPEND -> {
                ByteArrayOutputStream next = new ByteArrayOutputStream();
                next.writeBytes(model == null ? new byte[0] : model);
                next.writeBytes(op.bytes());
                assertThat(store.append(tr, NAME, op.bytes()).join()).as("%s", op).isEqualTo(next.size());
                return next.toByteArray();
            }
            case TRUNCATE -> {
                assertThat(store.truncate(tr, NAME, op.length()).join()).as("%s", op).isEqualTo(model != null);
                return model == null ? null : Arrays.copyOf(model, op.length());
            }
            case DELETE -> {
                assertThat(store.delete(tr, NAME).join()).as("%s", op).isEqualTo(model != null);
                return null;
            }
            case READ -> {
                assertThat(store.read(tr, NAME).join()).as("%s", op).isEqualTo(model);
                return model;
            }
            case READ_RANGE -> {
                assertThat(store.read(tr, NAME, op.offset(), op.length()).join()).as("%s", op)
                        .isEqualTo(range(model, op.offset(), op.length()));
                return model;
            }
            case LENGTH -> {
                assertThat(store.length(tr, NAME).join()).as("%s", op)
                        .isEqualTo(model == null ? OptionalLong.empty() : OptionalLong.of(model.length));
                return model;
            }
            default -> throw new IllegalArgumentException(op.toString());
        }
    }

    private static byte[] applyAlone(BlobStore store, byte[] model, Op op) throws Exception {
        switch (op.kind()) {
            case DB_WRITE -> {
                store.write(db, NAME, op.bytes()).join();
                return op.bytes();
            }
            case STREAM_WRITE -> {
                try (BlobWriter writer = store.openWriter(db, NAME)) {
                    byte[] bytes = op.bytes();
                    for (int at = 0; at < bytes.length; at += 5) {
                        writer.write(bytes, at, Math.min(5, bytes.length - at));
                    }
                }
                return op.bytes();
            }
            case DB_READ_RANGE -> {
                assertThat(store.read(db, NAME, op.offset(), op.length()).join()).as("%s", op)
                        .isEqualTo(range(model, op.offset(), op.length()));
                return model;
            }
            case STREAM_READ_RANGE -> {
                try (BlobReader in = store.openReader(db, NAME, op.offset(), op.length())) {
                    assertThat(in == null ? null : in.readAllBytes()).as("%s", op).isEqualTo(range(model, op.offset(), op.length()));
                }
                return model;
            }
            default -> throw new IllegalArgumentException(op.toString());
        }
    }

    private static byte[] range(byte[] model, int offset, int length) {
        if (model == null) {
            return null;
        }
        int from = Math.min(offset, model.length);
        return Arrays.copyOfRange(model, from, Math.min(model.length, from + length));
    }

    /**
     * Only the current value's chunks are stored, each at an index inside the value and holding
     * no byte at or past its length; no staging record is left.
     */
    private static void checkStoredInvariants(BlobStore store, byte[] model, int chunkSize) {
        List<KeyValue> chunks = BlobTestSupport.stored(db, store.subspace().get(1));
        assertThat(BlobTestSupport.countKeys(db, store.subspace().get(2))).isZero();
        if (model == null) {
            assertThat(chunks).isEmpty();
            return;
        }
        for (KeyValue kv : chunks) {
            long index = store.subspace().get(1).unpack(kv.getKey()).getLong(1);
            assertThat(index * chunkSize).isLessThan(model.length);
            assertThat(index * chunkSize + kv.getValue().length).isLessThanOrEqualTo(model.length);
            assertThat(kv.getValue().length).isLessThanOrEqualTo(chunkSize);
        }
        long ids = chunks.stream().map(kv -> store.subspace().get(1).unpack(kv.getKey()).getLong(0)).distinct().count();
        assertThat(ids).isLessThanOrEqualTo(1);
    }

    @Provide
    Arbitrary<Integer> chunkSizes() {
        return Arbitraries.of(1, 2, 7, 16);
    }

    @Provide
    Arbitrary<List<List<Op>>> steps() {
        Arbitrary<Op> inTransaction = op(Arbitraries.frequency(
                net.jqwik.api.Tuple.of(2, Kind.WRITE), net.jqwik.api.Tuple.of(4, Kind.WRITE_AT),
                net.jqwik.api.Tuple.of(3, Kind.APPEND), net.jqwik.api.Tuple.of(2, Kind.TRUNCATE),
                net.jqwik.api.Tuple.of(1, Kind.DELETE), net.jqwik.api.Tuple.of(1, Kind.READ),
                net.jqwik.api.Tuple.of(2, Kind.READ_RANGE), net.jqwik.api.Tuple.of(1, Kind.LENGTH)));
        Arbitrary<Op> alone = op(Arbitraries.of(Kind.DB_WRITE, Kind.STREAM_WRITE, Kind.DB_READ_RANGE, Kind.STREAM_READ_RANGE));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(4, inTransaction.list().ofMinSize(1).ofMaxSize(4)),
                        net.jqwik.api.Tuple.of(1, alone.map(List::of)))
                .list().ofMinSize(1).ofMaxSize(15);
    }

    /** Offsets and lengths small enough to stay fast, large enough to cross many tiny chunks and to pad. */
    private static Arbitrary<Op> op(Arbitrary<Kind> kinds) {
        return Combinators.combine(kinds, Arbitraries.integers().between(0, 400), Arbitraries.integers().between(0, 300),
                Arbitraries.longs()).as(Op::new);
    }
}
