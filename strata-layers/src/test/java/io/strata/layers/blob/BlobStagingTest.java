package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Staged writes that stop half-way (a crash: the writer is dropped after staging some chunks),
 * stall past their lease, or are aborted; and the cleanup that removes what they left. The
 * lease is measured in database versions, so the tests move the engine's clock forward.
 */
class BlobStagingTest {
    private static final int CHUNK = 100;
    private static final Duration LEASE = Duration.ofSeconds(60);

    /** Added to the engine's clock: versions, and so leases, jump forward with it. */
    private final AtomicLong skewNanos = new AtomicLong();
    private final Database db = Strata.builder().nanoTime(() -> System.nanoTime() + skewNanos.get()).inMemory();
    private final BlobStore store = new BlobStore(new Subspace(Tuple.from("st")),
            BlobSettings.defaults().withChunkSize(CHUNK).withTransactionBytes(1_000).withLease(LEASE));
    private final int batch = store.bytesPerTransaction();
    private final byte[] name = name("k");
    private final byte[] old = randomBytes(3 * CHUNK + 1, 1);

    @AfterEach
    void close() {
        db.close();
    }

    private void advance(Duration d) {
        skewNanos.addAndGet(d.toNanos());
    }

    private List<KeyValue> records() {
        return BlobTestSupport.stored(db, store.subspace().get(2));
    }

    private long chunkKeysOf(long id) {
        return BlobTestSupport.countKeys(db, store.subspace().get(1).get(id));
    }

    private long headId() {
        byte[] head = db.readAsync(tr -> tr.get(ByteArrayUtil.join(store.subspace().pack(Tuple.from(0)), name))).join();
        return ByteBuffer.wrap(head).getLong();
    }

    private static long idOfRecord(Subspace records, KeyValue kv) {
        return records.unpack(kv.getKey()).getLong(0);
    }

    @Test
    void crashMidStagingLeavesTheOldValueAndCleanupRemovesTheStagedChunksAfterTheLease() throws Exception {
        store.write(db, name, old).join();
        long oldId = headId();

        BlobWriter crashed = store.openWriter(db, name);
        crashed.write(randomBytes(3 * batch + 50, 2)); // three batches staged, 50 bytes still buffered
        assertThat(crashed.isStaging()).isTrue();
        // The writer "crashes": it is never closed.

        assertThat(store.read(db, name).join()).as("readers still see the old value").isEqualTo(old);
        List<KeyValue> records = records();
        assertThat(records).hasSize(1);
        long stagedId = idOfRecord(store.subspace().get(2), records.get(0));
        assertThat(stagedId).isNotEqualTo(oldId);
        assertThat(chunkKeysOf(stagedId)).isEqualTo(3L * batch / CHUNK);

        assertThat(store.cleanup(db).join()).as("the lease has not ended").isZero();
        assertThat(chunkKeysOf(stagedId)).isEqualTo(3L * batch / CHUNK);

        advance(LEASE.plusSeconds(1));
        assertThat(store.cleanup(db).join()).isEqualTo(1);
        assertThat(records()).isEmpty();
        assertThat(chunkKeysOf(stagedId)).isZero();
        assertThat(chunkKeysOf(oldId)).isEqualTo(4);
        assertThat(store.read(db, name).join()).isEqualTo(old);
        assertThat(store.cleanup(db).join()).as("nothing left to clean").isZero();

        // Had the writer only stalled, it learns at its next transaction that nothing was written.
        assertThatThrownBy(crashed::close).isInstanceOf(StagingAbandonedException.class);
        assertThat(store.read(db, name).join()).isEqualTo(old);
        assertThat(records()).isEmpty();
        assertThat(chunkKeysOf(stagedId)).isZero();
    }

    @Test
    void aWriterThatKeepsWritingRenewsItsLease() throws Exception {
        byte[] value = randomBytes(4 * batch + 7, 3);
        try (BlobWriter writer = store.openWriter(db, name)) {
            for (int i = 0; i < 4; i++) {
                writer.write(value, i * batch, batch);
                advance(LEASE.multipliedBy(3).dividedBy(4)); // 45 s between transactions: within the lease each time
                assertThat(store.cleanup(db).join()).isZero();
            }
            writer.write(value, 4 * batch, 7);
        }
        assertThat(store.read(db, name).join()).isEqualTo(value);
        assertThat(records()).isEmpty();
    }

    @Test
    void aStalledWriterWhoseLeaseEndedButWasNotCleanedUpCarriesOn() throws Exception {
        byte[] value = randomBytes(2 * batch + 7, 4);
        try (BlobWriter writer = store.openWriter(db, name)) {
            writer.write(value, 0, batch + 1);
            advance(LEASE.multipliedBy(2)); // expired, but no cleanup ran: the next transaction renews the lease
            writer.write(value, batch + 1, value.length - batch - 1);
            assertThat(store.cleanup(db).join()).isZero();
        }
        assertThat(store.read(db, name).join()).isEqualTo(value);
    }

    @Test
    void aWriterWhoseStagingWasCleanedUpFailsAndTheOldValueStays() {
        store.write(db, name, old).join();
        BlobWriter stalled = store.openWriter(db, name);
        assertThatThrownBy(() -> {
            stalled.write(new byte[batch + 1]);
            advance(LEASE.plusSeconds(1));
            assertThat(store.cleanup(db).join()).isEqualTo(1);
            stalled.write(new byte[batch]); // the next batch's transaction finds the record gone
        }).isInstanceOf(StagingAbandonedException.class);
        assertThatThrownBy(() -> stalled.write(1)).hasMessageContaining("closed");
        assertThat(store.read(db, name).join()).isEqualTo(old);
    }

    @Test
    void abortRemovesTheStagingAndKeepsTheOldValue() throws Exception {
        store.write(db, name, old).join();
        BlobWriter writer = store.openWriter(db, name);
        writer.write(new byte[2 * batch + 1]);
        long stagedId = idOfRecord(store.subspace().get(2), records().get(0));
        writer.abort();
        writer.close(); // does nothing after abort
        assertThat(records()).isEmpty();
        assertThat(chunkKeysOf(stagedId)).isZero();
        assertThat(store.read(db, name).join()).isEqualTo(old);
    }

    @Test
    void cleanupRemovesALeftoverCommittedRecordButNotTheValue() {
        byte[] value = randomBytes(3 * batch, 5);
        store.write(db, name, value).join();
        long id = headId();
        // What a writer leaves when it dies between the switch and removing its record.
        long version = db.readAsync(tr -> tr.getReadVersion()).join();
        byte[] leftover = new StagingRecord(true, version + LEASE.toNanos() / 1000, name).encode();
        db.run(tr -> {
            tr.set(store.subspace().get(2).pack(Tuple.from(id)), leftover);
            return null;
        });
        assertThat(store.cleanup(db).join()).isZero();
        advance(LEASE.plusSeconds(1));
        assertThat(store.cleanup(db).join()).isEqualTo(1);
        assertThat(records()).isEmpty();
        assertThat(store.read(db, name).join()).isEqualTo(value);
    }

    @Test
    void cleanupPagesThroughManyRecords() throws Exception {
        int writers = StagingCleanup.RECORDS_PER_TRANSACTION * 2 + 3;
        for (int i = 0; i < writers; i++) {
            BlobWriter w = store.openWriter(db, name("crashed-" + i));
            w.write(new byte[batch + 1]);
        }
        assertThat(records()).hasSize(writers);
        advance(LEASE.plusSeconds(1));
        assertThat(store.cleanup(db).join()).isEqualTo(writers);
        assertThat(BlobTestSupport.countKeys(db, store.subspace().get(1))).isZero();
    }
}
