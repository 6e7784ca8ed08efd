package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code getApproximateSize} byte for byte: RYW's {@code approximateSize}, which each call of
 * {@code fdbclient/ReadYourWrites.actor.cpp} adds to as it is made — {@code expectedSize()} of the
 * keys and values plus {@code sizeof(MutationRef)} (40) per mutation and
 * {@code sizeof(KeyRangeRef)} (32) per conflict range.
 */
class ApproximateSizeTest {
    private static final int MUTATION = 40;
    private static final int RANGE = 32;

    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private static long size(Transaction tr) {
        return await(tr.getApproximateSize());
    }

    @Test
    void aNewTransactionHasSizeZero() {
        assertThat(size(db.createTransaction())).isZero();
    }

    @Test
    void setCountsKeyValueMutationAndItsSingleKeyConflictRange() {
        Transaction tr = db.createTransaction();
        tr.set(b("k1"), bytes(100, 'v'));
        assertThat(size(tr)).isEqualTo(2 + 100 + MUTATION + RANGE + 2 * 2 + 1);
    }

    @Test
    void atomicOpCountsLikeSet() {
        Transaction tr = db.createTransaction();
        tr.mutate(MutationType.ADD, b("k2"), new byte[8]);
        assertThat(size(tr)).isEqualTo(2 + 8 + MUTATION + RANGE + 2 * 2 + 1);
    }

    @Test
    void clearRangeCountsBothEndsTwice() {
        Transaction tr = db.createTransaction();
        tr.clear(b("a"), b("bb"));
        assertThat(size(tr)).isEqualTo(3 + MUTATION + RANGE + 3);
    }

    @Test
    void clearOfOneKeyCountsItsMutationAsAKeyRange() {
        // RYW clear(key): r = [key, key\x00); r.expectedSize() + sizeof(KeyRangeRef) + (conflict ? sizeof(KeyRangeRef) + r.expectedSize() : 0)
        Transaction tr = db.createTransaction();
        tr.clear(b("abc"));
        assertThat(size(tr)).isEqualTo(7 + RANGE + RANGE + 7);
        tr.options().setNextWriteNoWriteConflictRange();
        tr.clear(b("xyz"));
        assertThat(size(tr)).isEqualTo(7 + RANGE + RANGE + 7 + 7 + RANGE);
    }

    @Test
    void emptyClearRangeIsCountedBeforeItIsFoundEmpty() {
        Transaction tr = db.createTransaction();
        tr.clear(b("a"), b("a"));
        assertThat(size(tr)).isEqualTo(2 + MUTATION + RANGE + 2);
    }

    @Test
    void serializableReadsCountTheirConflictRanges() {
        Transaction tr = db.createTransaction();
        await(tr.get(b("x")));
        assertThat(size(tr)).isEqualTo(RANGE + 2 * 1 + 1);
        await(tr.snapshot().get(b("y")));
        assertThat(size(tr)).isEqualTo(RANGE + 2 * 1 + 1);
    }

    @Test
    void withReadYourWritesDisabledClearOfOneKeyAndReadsAreNotCounted() {
        // RYW hands these to NativeAPI before (clear) or instead of (reads) adding to approximateSize.
        Transaction tr = db.createTransaction();
        tr.options().setReadYourWritesDisable();
        tr.clear(b("abc"));
        await(tr.get(b("x")));
        await(tr.getRange(b("a"), b("z")).asList());
        assertThat(size(tr)).isZero();
        tr.set(b("k1"), bytes(100, 'v'));
        tr.addReadConflictRange(b("a"), b("bb"));
        tr.addWriteConflictRange(b("c"), b("dd"));
        assertThat(size(tr)).isEqualTo((2 + 100 + MUTATION + RANGE + 2 * 2 + 1) + (RANGE + 3) + (RANGE + 3));
    }

    @Test
    void explicitConflictRangesCountOnce() {
        Transaction tr = db.createTransaction();
        tr.addReadConflictRange(b("aaaa"), b("bbbb"));
        tr.addWriteConflictRange(b("cccc"), b("dddd"));
        assertThat(size(tr)).isEqualTo(2L * (RANGE + 8));
    }
}
