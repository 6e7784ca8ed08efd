package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.keys;
import static io.strata.engine.client.ReadTests.load;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads near a SET_VERSIONSTAMPED_KEY whose final key is unknown until commit: the keys it may
 * become ({@code vs} + a stamp above the read version) are unreadable, and a read fails with
 * {@code accessed_unreadable} (1036) exactly when it reaches them — as RYW's iterator throws
 * on entering an unreadable segment — not when a limit or a selector's answer stops it
 * before. The database holds a, c, z.
 */
class UnreadableRangeTest {
    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        load(db, "a", "c", "z");
        tr = db.createTransaction();
        tr.getReadVersion().join();
        byte[] key = Arrays.copyOf(b("vs"), 16);
        key[12] = 2; // the stamp's offset, little-endian, after the 10-byte placeholder
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key, b("v"));
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    @Test
    void rangeReadThroughThePossibleKeysIsUnreadable() {
        assertThat(errorCode(tr.getRange(b("a"), b("zz")).asList())).isEqualTo(1036);
        assertThat(errorCode(tr.getRange(b("a"), b("zz"), 0, true).asList())).isEqualTo(1036);
        assertThat(errorCode(tr.snapshot().getRange(b("d"), b("w")).asList())).isEqualTo(1036);
    }

    @Test
    void rangeReadAroundThePossibleKeysIsReadable() {
        assertThat(keys(tr.getRange(b("a"), b("v")).asList().join())).containsExactly("a", "c");
        assertThat(keys(tr.getRange(b("w"), b("zz")).asList().join())).containsExactly("z");
    }

    @Test
    void rangeReadStoppedByItsLimitBeforeThePossibleKeysIsReadable() {
        assertThat(keys(tr.getRange(b("a"), b("zz"), 2).asList().join())).containsExactly("a", "c");
        assertThat(keys(tr.getRange(b("a"), b("zz"), 1, true).asList().join())).containsExactly("z");
        assertThat(errorCode(tr.getRange(b("a"), b("zz"), 3).asList())).as("the third row lies past them").isEqualTo(1036);
    }

    @Test
    void selectorAnsweredBeforeThePossibleKeysIsReadable() {
        assertThat(s(tr.getKey(KeySelector.firstGreaterThan(b("a"))).join())).isEqualTo("c");
        assertThat(s(tr.getKey(KeySelector.lastLessOrEqual(b("z"))).join())).isEqualTo("z");
        assertThat(s(tr.getKey(KeySelector.lastLessThan(b("v"))).join())).isEqualTo("c");
    }

    @Test
    void selectorSteppingOverThePossibleKeysIsUnreadable() {
        assertThat(errorCode(tr.getKey(KeySelector.firstGreaterThan(b("c"))))).isEqualTo(1036);
        assertThat(errorCode(tr.getKey(KeySelector.lastLessThan(b("z"))))).isEqualTo(1036);
        assertThat(errorCode(tr.getKey(KeySelector.firstGreaterOrEqual(b("a")).add(2)))).isEqualTo(1036);
    }
    /**
     * With snapshot read-your-writes off, snapshot reads go through RYW's {@code SnapshotCache}
     * iterator, whose {@code is_unreadable()} is always false ({@code fdbclient/SnapshotCache.h}):
     * they read the database as if the versionstamped write were not there. Serializable reads
     * still fail.
     */
    @Test
    void snapshotReadsWithSnapshotRywDisabledIgnoreThePossibleKeys() {
        tr.options().setSnapshotRywDisable();
        assertThat(keys(tr.snapshot().getRange(b("a"), b("zz")).asList().join())).containsExactly("a", "c", "z");
        assertThat(s(tr.snapshot().getKey(KeySelector.firstGreaterThan(b("c"))).join())).isEqualTo("z");
        assertThat(errorCode(tr.getRange(b("a"), b("zz")).asList())).isEqualTo(1036);
    }

    /**
     * With read-your-writes disabled, RYW {@code atomicOp} adds no unreadable range for a
     * versionstamped key ({@code ReadYourWrites.actor.cpp}), and reads go to the database.
     */
    @Test
    void withReadYourWritesDisabledThePossibleKeysAreReadable() {
        Transaction off = db.createTransaction();
        off.options().setReadYourWritesDisable();
        byte[] key = Arrays.copyOf(b("vs"), 16);
        key[12] = 2;
        off.mutate(MutationType.SET_VERSIONSTAMPED_KEY, key, b("v"));
        assertThat(keys(off.getRange(b("a"), b("zz")).asList().join())).containsExactly("a", "c", "z");
        assertThat(s(off.getKey(KeySelector.firstGreaterThan(b("c"))).join())).isEqualTo("z");
        off.close();
    }
}
