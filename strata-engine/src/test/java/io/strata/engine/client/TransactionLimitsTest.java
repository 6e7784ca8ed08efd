package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.strata.engine.client.Fdb.await;
import static io.strata.engine.client.Fdb.b;
import static io.strata.engine.client.Fdb.bytes;
import static io.strata.engine.client.Fdb.deferredErrorOf;
import static io.strata.engine.client.Fdb.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

/** Size limits and key-space rules, and where their errors surface. */
class TransactionLimitsTest {
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void transactionOverTenMillionBytesFailsAtCommitWithTransactionTooLarge() {
        Transaction tr = db.createTransaction();
        byte[] value = bytes(100_000, 'v');
        for (int i = 0; i < 101; i++) {
            tr.set(b(String.format("key%04d", i)), value);
        }
        assertThat(errorOf(tr.commit())).isEqualTo(2101);
        assertThat(Fdb.valueOf(db, "key0000")).isNull();
    }

    @Test
    void transactionJustUnderTheLimitCommits() {
        Transaction tr = db.createTransaction();
        byte[] value = bytes(99_000, 'v');
        for (int i = 0; i < 100; i++) {
            tr.set(b(String.format("key%04d", i)), value);
        }
        await(tr.commit());
    }

    @Test
    void manySmallWritesCountTheirPerMutationOverhead() {
        // NativeAPI getSize counts sizeof(MutationRef) (40) per mutation and sizeof(KeyRangeRef)
        // (32) per conflict range: 1,500 sets of 7-byte keys and 10-byte values weigh
        // 1,500 x (57 + 47) = 156 kB, over a 100 kB limit, for 48 kB of key and value bytes.
        Transaction tr = db.createTransaction();
        tr.options().setSizeLimit(100_000);
        byte[] value = bytes(10, 'v');
        for (int i = 0; i < 1_500; i++) {
            tr.set(b(String.format("k%06d", i)), value);
        }
        assertThat(errorOf(tr.commit())).isEqualTo(2101);
    }

    @Test
    void overwritesOfOneKeyCountOnce() {
        // RYW sends its coalesced write map: 200 sets of a 100 kB value are one mutation.
        Transaction tr = db.createTransaction();
        for (int i = 0; i < 200; i++) {
            tr.set(b("k"), bytes(100_000, 'a' + i % 26));
        }
        await(tr.commit());
        assertThat(Fdb.valueOf(db, "k")).isEqualTo(bytes(100_000, 'a' + 199 % 26));
    }

    @Test
    void repeatedAtomicAddsToOneKeyCoalesce() {
        Transaction tr = db.createTransaction();
        tr.options().setSizeLimit(10_000);
        byte[] one = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(1).array();
        for (int i = 0; i < 2_000; i++) {
            tr.mutate(MutationType.ADD, b("counter"), one);
        }
        assertThat(await(tr.getApproximateSize())).isGreaterThan(10_000L);
        await(tr.commit());
        byte[] counter = Fdb.valueOf(db, "counter");
        assertThat(java.nio.ByteBuffer.wrap(counter).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong()).isEqualTo(2_000L);
    }

    @Test
    void aSetInsideAClearedRangeSplitsTheClear() {
        // clear [a, z) then set m: RYW sends clear [a, m), set m, clear [m\x00, z).
        Transaction tr = db.createTransaction();
        tr.clear(b("a"), b("z"));
        tr.set(b("m"), b(""));
        io.strata.engine.commit.ConflictRanges writes = new io.strata.engine.commit.ConflictRanges();
        writes.add(b("a"), b("z"));
        writes.addKey(b("m"));
        long exact = CommitSize.of(List.of(new io.strata.engine.commit.Mutation(1, b("a"), b("z")),
                new io.strata.engine.commit.Mutation(0, b("m"), b(""))), new io.strata.engine.commit.ConflictRanges(), writes);
        assertThat(exact).isEqualTo((40 + 1 + 1) + (40 + 1) + (40 + 2 + 1) + (32 + 1 + 1));
        await(tr.commit());
    }

    @Test
    void clearsOfAdjacentRangesCountAsOne() {
        Transaction tr = db.createTransaction();
        tr.options().setSizeLimit(1_000);
        for (int i = 0; i < 100; i++) {
            tr.clear(b(String.format("r%03d", i)), b(String.format("r%03d", i + 1)));
        }
        await(tr.commit());
    }

    @Test
    void sizeLimitOptionLowersTheLimit() {
        Transaction tr = db.createTransaction();
        tr.options().setSizeLimit(1_000);
        tr.set(b("k"), bytes(2_000, 'v'));
        assertThat(errorOf(tr.commit())).isEqualTo(2101);
    }

    /**
     * {@code size_limit} is not one of the options marked {@code persistent} in
     * {@code fdbclient/vexillographer/fdb.options} (only timeout, retry_limit and max_retry_delay
     * are), and {@code onError} resets the native options ({@code TransactionOptions::clear} in
     * {@code NativeAPI.actor.cpp} restores {@code TRANSACTION_SIZE_LIMIT}).
     */
    @Test
    void sizeLimitOptionIsResetByOnError() {
        Transaction tr = db.createTransaction();
        tr.options().setSizeLimit(1_000);
        tr = await(tr.onError(new FDBException("not_committed", 1020)));
        tr.set(b("k"), bytes(2_000, 'v'));
        await(tr.commit());
    }

    /** The database's default, by contrast, is re-applied after every reset (RYW {@code applyPersistentOptions}). */
    @Test
    void databaseSizeLimitSurvivesOnError() {
        db.options().setTransactionSizeLimit(1_000);
        Transaction tr = db.createTransaction();
        tr = await(tr.onError(new FDBException("not_committed", 1020)));
        tr.set(b("k"), bytes(2_000, 'v'));
        assertThat(errorOf(tr.commit())).isEqualTo(2101);
    }

    @Test
    void sizeLimitOptionBelowItsMinimumFailsWithInvalidOptionValue() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.options().setSizeLimit(31), tr::commit)).isEqualTo(2006);
    }

    @Test
    void databaseSizeLimitAppliesToNewTransactions() {
        db.options().setTransactionSizeLimit(1_000);
        Transaction tr = db.createTransaction();
        tr.set(b("k"), bytes(2_000, 'v'));
        assertThat(errorOf(tr.commit())).isEqualTo(2101);
    }

    @Test
    void approximateSizeGrowsWithMutations() {
        Transaction tr = db.createTransaction();
        long empty = await(tr.getApproximateSize());
        tr.set(b("k1"), bytes(100, 'v'));
        long oneSet = await(tr.getApproximateSize());
        tr.mutate(MutationType.ADD, b("k2"), new byte[8]);
        long plusAtomic = await(tr.getApproximateSize());
        tr.clear(b("a"), b("b"));
        long plusClear = await(tr.getApproximateSize());
        assertThat(oneSet).isGreaterThanOrEqualTo(empty + 100);
        assertThat(plusAtomic).isGreaterThan(oneSet);
        assertThat(plusClear).isGreaterThan(plusAtomic);
    }

    @Test
    void approximateSizeCountsConflictRanges() {
        Transaction tr = db.createTransaction();
        long before = await(tr.getApproximateSize());
        tr.addReadConflictRange(b("aaaa"), b("bbbb"));
        tr.addWriteConflictRange(b("cccc"), b("dddd"));
        assertThat(await(tr.getApproximateSize())).isGreaterThanOrEqualTo(before + 16);
    }

    @Test
    void keyOverTenThousandBytesFailsWithKeyTooLarge() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.set(bytes(10_001, 'k'), b("v")), tr::commit)).isEqualTo(2102);
    }

    @Test
    void keyOfExactlyTenThousandBytesIsAccepted() {
        Transaction tr = db.createTransaction();
        tr.set(bytes(10_000, 'k'), b("v"));
        await(tr.commit());
    }

    @Test
    void atomicOperationOnAnOversizedKeyFailsWithKeyTooLarge() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.mutate(MutationType.ADD, bytes(10_001, 'k'), new byte[8]), tr::commit))
                .isEqualTo(2102);
    }

    @Test
    void valueOverOneHundredThousandBytesFailsWithValueTooLarge() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.set(b("k"), bytes(100_001, 'v')), tr::commit)).isEqualTo(2103);
    }

    @Test
    void valueOfExactlyOneHundredThousandBytesIsAccepted() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), bytes(100_000, 'v'));
        await(tr.commit());
    }

    @Test
    void clearOfAnOversizedKeyIsANoOp() {
        // RYW clear(key): no key that long can exist, so FoundationDB just returns.
        Transaction tr = db.createTransaction();
        tr.clear(bytes(10_001, 'k'));
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void clearOfMetadataVersionNeedsOnlySystemKeyAccess() {
        Transaction without = db.createTransaction();
        assertThat(deferredErrorOf(() -> without.clear(io.strata.engine.util.ByteKeys.METADATA_VERSION_KEY), without::commit))
                .isEqualTo(2004);
        Transaction with = db.createTransaction();
        with.options().setAccessSystemKeys();
        with.clear(io.strata.engine.util.ByteKeys.METADATA_VERSION_KEY);
        await(with.commit());
    }

    @Test
    void writingASystemKeyWithoutAccessFailsWithKeyOutsideLegalRange() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.set(new byte[] {(byte) 0xff, 'x'}, b("v")), tr::commit)).isEqualTo(2004);
    }

    @Test
    void clearingIntoTheSystemKeysWithoutAccessFailsWithKeyOutsideLegalRange() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.clear(b("a"), new byte[] {(byte) 0xff, 0}), tr::commit)).isEqualTo(2004);
    }

    @Test
    void clearingUpToTheEndOfNormalKeysIsAllowed() {
        Transaction tr = db.createTransaction();
        tr.clear(b(""), new byte[] {(byte) 0xff});
        tr.set(b("k"), b("v"));
        await(tr.commit());
    }

    @Test
    void writingASystemKeyWithAccessSystemKeysCommits() {
        Transaction tr = db.createTransaction();
        tr.options().setAccessSystemKeys();
        tr.set(new byte[] {(byte) 0xff, 'x'}, b("v"));
        await(tr.commit());
        Transaction reader = db.createTransaction();
        reader.options().setReadSystemKeys();
        byte[] value = await(reader.get(new byte[] {(byte) 0xff, 'x'}));
        assertThat(value).isEqualTo(b("v"));
    }

    @Test
    void readSystemKeysDoesNotAllowWriting() {
        Transaction tr = db.createTransaction();
        tr.options().setReadSystemKeys();
        assertThat(deferredErrorOf(() -> tr.set(new byte[] {(byte) 0xff, 'x'}, b("v")), tr::commit)).isEqualTo(2004);
    }

    @Test
    void invertedClearRangeFailsWithInvertedRange() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.clear(b("b"), b("a")), tr::commit)).isEqualTo(2005);
    }

    @Test
    void invertedConflictRangeFailsWithInvertedRange() {
        Transaction tr = db.createTransaction();
        tr.set(b("k"), b("v"));
        assertThat(deferredErrorOf(() -> tr.addReadConflictRange(b("b"), b("a")), tr::commit)).isEqualTo(2005);
    }

    @Test
    void deferredErrorAlsoFailsTheNextRead() {
        Transaction tr = db.createTransaction();
        assertThat(deferredErrorOf(() -> tr.set(bytes(10_001, 'k'), b("v")), () -> tr.get(b("k")))).isEqualTo(2102);
    }

    @Test
    void failedWriteIsNotCommittedWithTheRest() {
        Transaction tr = db.createTransaction();
        tr.set(b("good"), b("v"));
        deferredErrorOf(() -> tr.set(b("bad"), bytes(100_001, 'v')), tr::commit);
        assertThat(Fdb.valueOf(db, "good")).isNull();
    }
}
