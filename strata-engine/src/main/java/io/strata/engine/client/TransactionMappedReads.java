package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.StreamingMode;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.concurrent.CompletableFuture;

/**
 * One batch of a transaction's {@code getMappedRange}, as RYW's {@code getMappedRange} serves
 * it ({@code fdbclient/ReadYourWrites.actor.cpp}); {@link RangeIterable#mapped} asks for the
 * batches, {@link MappedRangeRead} and {@link Mapper} compute what a batch reads from the store.
 *
 * <h2>What it owns</h2>
 * No state: the checks of a mapped batch, in RYW's order, and what its result records in the
 * transaction — the index range it depended on and each secondary range, as read conflict
 * ranges that must not meet the transaction's writes
 * ({@link TransactionFootprint#addUnmodifiedReadConflict}).
 *
 * <h2>Concurrency</h2>
 * The checks run under the transaction's monitor; the read runs at the read version through
 * {@link TransactionReadVersion#readAtVersion} (as {@link ReadKind#MAPPED}), under the monitor
 * again, so that the 2039 check sees the writes made by the time the result arrives, as RYW's
 * does.
 *
 * <h2>Why separate</h2>
 * A mapped read shares the read version machinery with the other reads but none of their
 * rules: it reads past own writes and the read cache, fails (2039) where own writes would have
 * answered, and is neither a read for {@code read_your_writes_disable} nor one whose failure
 * fails the commit. Kept apart, neither path has to say "except for mapped reads".
 */
final class TransactionMappedReads {
    private TransactionMappedReads() {
    }

    /**
     * One batch of a mapped range read, before it is handed out:
     * <ol>
     * <li>the special key space is refused with {@code client_invalid_operation}, before anything
     *     else; then the checks of every range read (used during commit, reset, keys past the
     *     readable space, limits);</li>
     * <li>an inverted range is empty; with {@code read_your_writes_disable} the read is
     *     {@code unsupported_operation};</li>
     * <li>the batch is read from the database at the read version, not from the transaction's
     *     writes ({@link MappedRangeRead});</li>
     * <li>{@code addConflictRangeAndMustUnmodified}: the primary range the batch depended on, then
     *     each row's secondary range, is added as a read conflict range — and if one of them meets
     *     a key or range this transaction wrote, the read fails with
     *     {@code get_mapped_range_reads_your_writes} (2039), the ranges added before it staying,
     *     as in RYW.</li>
     * </ol>
     * The batch does not count as a read for {@code read_your_writes_disable}: RYW reads it
     * around its cache.
     *
     * @param limit what is left of fdb-java's row limit: 0 none, -1 the native "unlimited"
     * @param iteration fdb-java's batch count, from 1, which sizes ITERATOR batches
     */
    static CompletableFuture<MappedRangeRead.Result> readBatch(EngineTransaction tx, KeySelector begin, KeySelector end, byte[] callersMapper,
                                                              int limit, StreamingMode mode, int iteration, boolean reverse) {
        int targetBytes = MappedRangeRead.targetBytes(mode, iteration);
        int rows = limit == 0 ? RangeIterable.NATIVE_UNLIMITED : limit; // fdb_c: 0 is unlimited
        KeySelector b;
        KeySelector en;
        synchronized (tx) {
            tx.checkOpen();
            // specialKeys.contains(begin) and end in [\xff\xff, \xff\xff\xff]: the range reads of the special key space.
            if (SpecialKeySpace.isSpecialRange(begin.getKey(), end.getKey())) {
                return CompletableFuture.failedFuture(FdbError.CLIENT_INVALID_OPERATION.exception("getMappedRange does not read the special key space"));
            }
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            byte[] maxKey = tx.maxReadKey();
            if (ByteKeys.compare(begin.getKey(), maxKey) > 0 || ByteKeys.compare(end.getKey(), maxKey) > 0) {
                return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
            }
            if (rows < RangeIterable.NATIVE_UNLIMITED) {
                return CompletableFuture.failedFuture(FdbError.RANGE_LIMITS_INVALID.exception());
            }
            b = KeyRules.ownWithoutOrEqual(begin);
            en = KeyRules.ownWithoutOrEqual(end);
            if (b.getOffset() >= en.getOffset() && ByteKeys.compare(b.getKey(), en.getKey()) >= 0) {
                return CompletableFuture.completedFuture(MappedRangeRead.Result.EMPTY);
            }
            if (tx.options.readYourWritesDisabled) {
                return CompletableFuture.failedFuture(FdbError.UNSUPPORTED_OPERATION.exception(
                        "getMappedRange needs read-your-writes (read_your_writes_disable is set)"));
            }
        }
        byte[] mapper = callersMapper.clone(); // fdb-java's JNI call reads the array now
        return TransactionReadVersion.readAtVersion(tx, (Long version, WriteMap seen) -> {
            // RYW reads through to NativeAPI (readThrough, Snapshot::True): no own writes.
            ReadView stored = new ReadView(tx.engine.store(), version, null, tx.maxReadKey());
            MappedRangeRead.Result r = MappedRangeRead.read(stored, b, en, mapper, rows, targetBytes, reverse);
            // The check runs when the result arrives, against the writes made by then.
            byte[][] primary = ReadConflicts.ofRange(b, en, r.primary(), reverse, tx.maxReadKey());
            TransactionFootprint.addUnmodifiedReadConflict(tx, primary[0], primary[1]);
            for (byte[][] secondary : r.secondaryConflicts()) {
                TransactionFootprint.addUnmodifiedReadConflict(tx, secondary[0], secondary[1]);
            }
            if (r.pointReads()) {
                throw FdbError.UNSUPPORTED_OPERATION.exception("getMappedRange with a mapper that does not end in \"{...}\": "
                        + "FoundationDB 7.3's C binding cannot hand fdb-java the point reads it maps to");
            }
            return r;
        }, ReadKind.MAPPED);
    }
}
