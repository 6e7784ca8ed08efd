package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes under injected commit faults: spurious conflicts and {@code commit_unknown_result}
 * (1021) that did and did not commit. Staged writes must end with exactly the value written,
 * and after the lease, cleanup must leave nothing but the current value's chunks (a staging
 * begun by an attempt that committed under 1021 is an orphan of exactly that kind). The
 * idempotent in-place changes must match a byte-array model however often they are retried.
 * Prints its seed; rerun with {@code -Dstrata.seed=<seed>}.
 */
class BlobFaultTest {
    private static final int CHUNK = 100;
    private static final Duration LEASE = Duration.ofSeconds(60);

    private final long seed = Long.getLong("strata.seed", System.nanoTime());
    private final AtomicLong skewNanos = new AtomicLong();
    private final Database db = Strata.builder()
            .faults(FaultPolicy.seeded(seed).notCommitted(0.03).unknownResultCommitted(0.12).unknownResultNotCommitted(0.06).build())
            .nanoTime(() -> System.nanoTime() + skewNanos.get())
            .inMemory();
    private final BlobStore store = new BlobStore(new Subspace(Tuple.from("f")),
            BlobSettings.defaults().withChunkSize(CHUNK).withTransactionBytes(1_000).withLease(LEASE));
    private final byte[] name = name("k");

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void stagedWritesEndWithTheirValueAndCleanupLeavesOnlyItsChunks() throws Exception {
        System.out.println("BlobFaultTest.staged seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        int batch = store.bytesPerTransaction();
        byte[] value = null;
        for (int i = 0; i < 8; i++) {
            value = randomBytes(random.nextInt(6 * batch), seed + i);
            if (i % 2 == 0) {
                store.write(db, name, value).join();
            } else {
                try (BlobWriter writer = store.openWriter(db, name)) {
                    writer.write(value);
                }
            }
            assertThat(store.read(db, name).join()).as("write %d, %d bytes", i, value.length).isEqualTo(value);
        }
        skewNanos.addAndGet(LEASE.plusSeconds(1).toNanos());
        store.cleanup(db).join();

        assertThat(BlobTestSupport.countKeys(db, store.subspace().get(2))).as("staging records").isZero();
        long id = headId();
        List<KeyValue> chunks = BlobTestSupport.stored(db, store.subspace().get(1));
        assertThat(chunks).allSatisfy(kv -> assertThat(store.subspace().get(1).unpack(kv.getKey()).getLong(0)).isEqualTo(id));
        assertThat(chunks).hasSize((value.length + CHUNK - 1) / CHUNK);
    }

    @Test
    void idempotentChangesMatchTheModelHoweverOftenRetried() {
        System.out.println("BlobFaultTest.inPlace seed=" + seed);
        SplittableRandom random = new SplittableRandom(seed);
        byte[] model = null;
        for (int step = 0; step < 100; step++) {
            int kind = random.nextInt(10);
            if (kind < 5) {
                long offset = random.nextInt(12 * CHUNK);
                byte[] bytes = randomBytes(random.nextInt(3 * CHUNK), seed + step);
                db.runAsync(tr -> store.writeAt(tr, name, offset, bytes)).join();
                if (bytes.length > 0) {
                    byte[] grown = Arrays.copyOf(model == null ? new byte[0] : model,
                            (int) Math.max(model == null ? 0 : model.length, offset + bytes.length));
                    System.arraycopy(bytes, 0, grown, (int) offset, bytes.length);
                    model = grown;
                }
            } else if (kind < 8) {
                int length = random.nextInt(12 * CHUNK);
                db.runAsync(tr -> store.truncate(tr, name, length)).join();
                if (model != null) {
                    model = Arrays.copyOf(model, length);
                }
            } else if (kind < 9) {
                byte[] value = randomBytes(random.nextInt(5 * CHUNK), -step);
                db.runAsync(tr -> store.write(tr, name, value)).join();
                model = value;
            } else {
                db.runAsync(tr -> store.delete(tr, name)).join();
                model = null;
            }
            assertThat(store.read(db, name).join()).as("step %d", step).isEqualTo(model);
        }
    }

    private long headId() {
        byte[] head = db.readAsync(tr -> tr.get(ByteArrayUtil.join(store.subspace().pack(Tuple.from(0)), name))).join();
        return ByteBuffer.wrap(head).getLong();
    }
}
