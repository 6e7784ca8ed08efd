package io.strata.engine.client;

import io.strata.engine.commit.Mutation;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

/**
 * What a transaction's commit will send — its mutations and its read and write conflict
 * ranges — recorded together with the two running sizes they change: the commit-size
 * estimate ({@code mutationBytes + conflictBytes}, see {@link CommitSize#worthComputing}) and
 * RYW's {@code approximateSize}, which {@code getApproximateSize} answers.
 *
 * <h2>What it owns</h2>
 * No state: the lists and counters are {@link EngineTransaction}'s fields
 * ({@code mutations}, {@code readConflicts}, {@code writeConflicts}, {@code mutationBytes},
 * {@code conflictBytes}, {@code approximateSize}). What this class owns is the rules: every
 * change to those six fields is made here, so the places where RYW's approximate size counts
 * differently from the estimate ({@code clear(key)}, an empty {@code clear(begin, end)}, reads
 * with read-your-writes disabled, a mapped read that meets own writes) are side by side.
 * Which part of a read's range is recorded at all is decided here too: with read-your-writes,
 * the parts own writes answer wholly are left out, as RYW's {@code updateConflictMap} leaves
 * them out ({@link WriteMap#forEachUnknownPart}).
 *
 * <h2>Concurrency</h2>
 * Every method is called with the transaction's monitor held (reads run under it, void calls
 * are synchronized); {@link #addReadConflict(EngineTransaction, byte[], byte[], WriteMap)}
 * takes it again, as it always has (a re-entry when the caller holds it already).
 *
 * <h2>Why separate</h2>
 * The read paths, the mapped read path and the write calls all record into the same lists
 * and counters; keeping the arithmetic in one class keeps it from drifting apart among them.
 * Static methods over the transaction's fields rather than an object of its own: a point read
 * records its key here, and an extra object per transaction would be an extra allocation and an
 * extra hop per read.
 */
final class TransactionFootprint {
    private TransactionFootprint() {
    }

    /** Adds the parts of {@code [begin, end)} not answered wholly by own writes. */
    static void addReadConflict(EngineTransaction tx, byte[] begin, byte[] end) {
        addReadConflict(tx, begin, end, tx.writes);
    }

    /** Adds the parts of {@code [begin, end)} not answered wholly by the writes in {@code seen}. */
    static void addReadConflict(EngineTransaction tx, byte[] begin, byte[] end, WriteMap seen) {
        synchronized (tx) {
            if (ByteKeys.compare(begin, end) >= 0) {
                return;
            }
            if (tx.rywActive()) {
                seen.forEachUnknownPart(begin, end, (b, e) -> recordReadConflict(tx, b, e));
            } else {
                recordReadConflict(tx, begin, end);
            }
        }
    }

    /**
     * {@link #addReadConflict} of {@code [key, key\x00)}, the range of a point read: with no own
     * writes to subtract, recorded as the key alone. Called with the transaction's lock held
     * (reads run under it), so it does not take it again.
     */
    static void addReadConflictKey(EngineTransaction tx, byte[] key, WriteMap seen) {
        assert Thread.holdsLock(tx);
        if (tx.rywActive() && !seen.isEmpty()) {
            seen.forEachUnknownPart(key, ByteKeys.keyAfter(key), (b, e) -> recordReadConflict(tx, b, e));
        } else {
            tx.readConflicts.addKey(key);
            tx.conflictBytes += CommitSize.RANGE_OVERHEAD + 2L * key.length + 1;
            if (tx.rywActive()) {
                tx.approximateSize += CommitSize.RANGE_OVERHEAD + 2L * key.length + 1;
            }
        }
    }

    /**
     * {@code addReadConflictRange}'s range, already checked: recorded as a read's, and counted
     * in the approximate size even with read-your-writes disabled, when reads are not.
     */
    static void addExplicitReadConflict(EngineTransaction tx, byte[] begin, byte[] end) {
        // As RYW's addReadConflictRange: the parts own writes already answer are left out.
        addReadConflict(tx, begin, end);
        if (!tx.rywActive() && ByteKeys.compare(begin, end) < 0) {
            // Reads with read-your-writes disabled are not counted, but this explicit range is.
            tx.approximateSize += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
        }
    }

    /**
     * RYW's {@code updateConflictMap<mustUnmodified = true>} of {@code [begin, end)}, for a mapped
     * range read: the range is added as a read conflict range unless it meets this transaction's
     * writes; if it does, the part before the first write is added (RYW counting the whole
     * range's size in its approximate size, as it does for each piece) and the read fails with
     * 2039.
     */
    static void addUnmodifiedReadConflict(EngineTransaction tx, byte[] begin, byte[] end) {
        assert Thread.holdsLock(tx);
        byte[] written = tx.writes.firstWriteIn(begin, end);
        if (written == null) {
            if (ByteKeys.compare(begin, end) < 0) {
                recordReadConflict(tx, begin, end);
            }
            return;
        }
        if (ByteKeys.compare(begin, written) < 0) {
            tx.readConflicts.add(begin, written);
            tx.conflictBytes += CommitSize.RANGE_OVERHEAD + begin.length + written.length;
            tx.approximateSize += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
        }
        throw FdbError.GET_MAPPED_RANGE_READS_YOUR_WRITES.exception();
    }

    /**
     * Records a read conflict range; RYW counts it in its approximate size only when it keeps it
     * itself, that is with read-your-writes on (an explicit range with it off is counted by
     * {@link #addExplicitReadConflict}).
     */
    static void recordReadConflict(EngineTransaction tx, byte[] begin, byte[] end) {
        tx.readConflicts.add(begin, end);
        tx.conflictBytes += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
        if (tx.rywActive()) {
            tx.approximateSize += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
        }
    }

    static void recordWriteConflict(EngineTransaction tx, byte[] begin, byte[] end) {
        tx.writeConflicts.add(begin, end);
        tx.conflictBytes += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
        tx.approximateSize += CommitSize.RANGE_OVERHEAD + begin.length + end.length;
    }

    /**
     * Counts the write conflict range {@code [key, key\x00)} as every write counts it, and
     * records it unless {@code record} is false: the transaction recorded it already, and RYW
     * sends write conflicts coalesced, so the commit's size and the resolver see it once (with
     * read-your-writes disabled, NativeAPI sends every range: callers then always record).
     */
    static void recordWriteConflictKey(EngineTransaction tx, byte[] key, boolean record) {
        if (record) {
            tx.writeConflicts.addKey(key);
        }
        tx.conflictBytes += CommitSize.RANGE_OVERHEAD + 2L * key.length + 1;
        tx.approximateSize += CommitSize.RANGE_OVERHEAD + 2L * key.length + 1;
    }

    /** Records a write; the running size counts it as RYW's approximateSize does, overhead included. */
    static void addMutation(EngineTransaction tx, Mutation m) {
        tx.mutations.add(m);
        tx.mutationBytes += CommitSize.MUTATION_OVERHEAD + m.size();
        tx.approximateSize += CommitSize.MUTATION_OVERHEAD + m.size();
    }

    /**
     * {@code clear(key)}: the mutation of {@code [key, end = key\x00)} and, if {@code conflict},
     * its write conflict range (counted, and recorded if {@code record}). RYW clear(key) adds {@code sizeof(KeyRangeRef)}, not
     * {@code sizeof(MutationRef)}, for the mutation; with {@code read_your_writes_disable} it
     * hands the clear to NativeAPI first and adds nothing.
     */
    static void addClearOfKey(EngineTransaction tx, byte[] key, byte[] end, boolean conflict, boolean record) {
        long reported = tx.approximateSize;
        addMutation(tx, new Mutation(Mutation.CLEAR_RANGE, key, end));
        if (conflict) {
            recordWriteConflictKey(tx, key, record);
        }
        long range = 2L * key.length + 1;
        tx.approximateSize = reported + (tx.rywActive()
                ? CommitSize.RANGE_OVERHEAD + range + (conflict ? CommitSize.RANGE_OVERHEAD + range : 0)
                : 0);
    }

    /** An empty {@code clear(begin, end)} records nothing, but RYW counts the range before finding it empty. */
    static void countEmptyClear(EngineTransaction tx, byte[] begin, byte[] end, boolean conflict) {
        long range = begin.length + end.length;
        tx.approximateSize += range + CommitSize.MUTATION_OVERHEAD + (conflict ? CommitSize.RANGE_OVERHEAD + range : 0);
    }
}
