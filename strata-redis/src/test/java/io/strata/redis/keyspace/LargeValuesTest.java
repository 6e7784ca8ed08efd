package io.strata.redis.keyspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.Strata;
import io.strata.layers.blob.BlobStore;
import io.strata.redis.protocol.RedisException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.CompletionException;

/** Staging, claiming, releasing and cleaning up large values, without a server. */
class LargeValuesTest {
    private static final int SIZE = LargeValues.MAX_IN_TRANSACTION + 1_000_000;
    private final Database db = Strata.inMemory();
    private final Keyspace keyspace = new Keyspace(new Subspace(new byte[] {7}));

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aStagedValueIsReadableInItsObjectAndReleasedUnclaimedLeavesNothing() {
        LargeValues values = new LargeValues(db, keyspace);
        byte[] value = randomBytes(SIZE);
        LargeValues.Staged staged = values.stage(3, value).join();

        assertThat(values.stagedFor(value)).isSameAs(staged);
        assertThat(values.stagedFor(value.clone())).as("found by identity only").isNull();
        assertThat(new BlobStore(keyspace.object(3, staged.id())).read(db, new byte[0]).join()).isEqualTo(value);

        values.release(value).join();
        assertThat(values.stagedFor(value)).isNull();
        assertThat(storedKeys()).isZero();
    }

    @Test
    void aClaimedValueSurvivesReleaseAndCleanup() {
        LargeValues values = new LargeValues(db, keyspace, 0);
        byte[] value = randomBytes(SIZE);
        LargeValues.Staged staged = values.stage(0, value).join();
        db.run(tr -> {
            values.claim(tr, staged).join();
            return null;
        });
        values.release(value).join();
        assertThat(values.cleanup().join()).isZero();
        assertThat(new BlobStore(keyspace.object(0, staged.id())).read(db, new byte[0]).join()).isEqualTo(value);
    }

    @Test
    void cleanupClearsWhatADeadWriterStagedOnceItsLeaseEnded() {
        LargeValues writer = new LargeValues(db, keyspace, 0);
        byte[] value = randomBytes(SIZE);
        LargeValues.Staged staged = writer.stage(1, value).join();
        // The writer dies here: nothing claims or releases the value.
        assertThat(storedKeys()).isGreaterThan(500);

        LargeValues cleaner = new LargeValues(db, keyspace, 0);
        assertThat(cleaner.cleanup().join()).isEqualTo(1);
        assertThat(storedKeys()).isZero();
        assertThatThrownBy(() -> db.run(tr -> writer.claim(tr, staged).join()))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RedisException.class)
                .hasMessageContaining("abandoned");
    }

    @Test
    void cleanupLeavesAValueWhoseLeaseRuns() {
        LargeValues values = new LargeValues(db, keyspace);
        byte[] value = randomBytes(SIZE);
        values.stage(0, value).join();
        assertThat(values.cleanup().join()).isZero();
        values.release(value).join();
        assertThat(storedKeys()).isZero();
    }

    private int storedKeys() {
        return db.run(tr -> tr.getRange(new byte[] {0}, new byte[] {(byte) 0xFF}).asList().join().size());
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }
}
