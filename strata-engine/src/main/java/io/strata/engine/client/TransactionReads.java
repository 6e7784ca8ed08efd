package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeySelector;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.LongFunction;

/**
 * A transaction's point, selector and range reads ({@code get}, {@code getKey}, a
 * {@code getRange} batch) and its statistics reads ({@code getEstimatedRangeSizeBytes},
 * {@code getRangeSplitPoints}): the checks RYW makes before reading, the answer from what the
 * transaction already knows (own writes over the {@link ReadCache}) or else from the store at
 * the read version, and the read conflict range each serializable read depended on.
 *
 * <h2>What it owns</h2>
 * No state. It reads the transaction's write map, read cache and options and records through
 * {@link TransactionFootprint}; the read version and a read that must wait are
 * {@link TransactionReadVersion}'s. What it owns is, per kind of read, the order of RYW's
 * checks (the special key space first, then used-during-commit / reset / deferred error, then
 * the key range, then limits), whether the known answer is whole ({@link ReadView#missed}), and
 * which copies are made: a read keeps a copy of the caller's key (the cache and the conflict
 * range hold it) and hands out a copy of what it found.
 *
 * <h2>Concurrency</h2>
 * Everything that touches the transaction's state runs under its monitor; the caller's
 * arguments are copied before a read that may run later. A read answered at once is answered
 * inside one monitor section; {@code getKey} and {@code getRange} take the monitor for their
 * checks, to note the read, and for the known answer, and a read of the store then takes it
 * again (via {@link TransactionReadVersion#readAtVersion}).
 *
 * <h2>Why separate</h2>
 * The read paths are the bulk of what a transaction does and the part a change to the read
 * cache or RYW's rules touches; the transaction keeps the state they share. The point read is
 * the hot path ({@code PointReadBenchmark}): {@link #get} runs its immediate case without a
 * lambda, a boxed version or an extra object, and calls only static methods, as it did as a
 * private method of the transaction.
 */
final class TransactionReads {
    private TransactionReads() {
    }

    /**
     * {@code get} of {@code key}, before it is handed out. {@code kind}: {@link ReadKind#WATCH}
     * for a watch's read, which a commit waits for but does not fail by.
     */
    static CompletableFuture<byte[]> get(EngineTransaction tx, byte[] key, boolean snapshot, ReadKind kind) {
        KeyRules.requireArgument(key);
        synchronized (tx) {
            tx.checkOpen();
            if (SpecialKeySpace.contains(key)) {
                // ThreadSafeTransaction checks the deferred error; then RYW answers special keys
                // before any check of its own (used during commit, reset, key range).
                return tx.deferred != null ? CompletableFuture.failedFuture(tx.deferred) : tx.special.get(key);
            }
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            if (ByteKeys.compare(key, tx.maxReadKey()) >= 0 && !Arrays.equals(key, ByteKeys.METADATA_VERSION_KEY)) {
                return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
            }
            if (key.length > KeyRules.keySizeLimit(key)) {
                // No stored key is that long: FoundationDB answers "absent" without reading.
                return CompletableFuture.completedFuture(null);
            }
            tx.readIssued = true; // as noteRead(), without taking the lock again
            // The read cache and a serializable read's conflict range keep the key: a copy of its own.
            byte[] own = snapshot && !tx.rywActive() ? key : key.clone();
            try {
                ReadView.Point p = knownPoint(tx, own, snapshot);
                if (p != null) {
                    if (!snapshot && p.readStorage()) {
                        TransactionFootprint.addReadConflictKey(tx, own, tx.writes);
                    }
                    return CompletableFuture.completedFuture(p.value() == null ? null : p.value().clone());
                }
            } catch (FDBException ex) {
                // Raised inside RYW's read (accessed_unreadable): a failed read, as from the store.
                return TransactionReadVersion.failedRead(tx, ex, kind);
            }
            CompletableFuture<Long> rv = TransactionReadVersion.readVersionFuture(tx);
            if (rv.isDone() && tx.engine.latency().readMicros() == 0) {
                // readAtVersion's immediate path, without a lambda or a boxed version per read
                long version = rv.join();
                try {
                    TransactionReadVersion.checkReadVersion(tx.engine, version);
                    byte[] value = readKey(tx, version, own, snapshot, tx.writes);
                    TransactionReadVersion.checkStillReadable(tx.engine, version);
                    return CompletableFuture.completedFuture(value == null ? null : value.clone());
                } catch (FDBException ex) {
                    return TransactionReadVersion.failedRead(tx, ex, kind);
                }
            }
        }
        byte[] own = key.clone(); // read later, when the version is known
        return TransactionReadVersion.readAtVersion(tx, (Long version, WriteMap seen) -> {
            byte[] value = readKey(tx, version, own, snapshot, seen);
            return value == null ? null : value.clone();
        }, kind);
    }

    /**
     * The value of {@code key} from what the transaction already knows — own writes over the
     * read cache, as RYW's iterator lays its write map over its snapshot cache — or null when
     * the store must answer. With read-your-writes disabled there is no cache: RYW hands every
     * read to NativeAPI ({@code readWithConflictRangeThrough}). A miss allocates nothing: most
     * point reads miss.
     */
    private static ReadView.Point knownPoint(EngineTransaction tx, byte[] key, boolean snapshot) {
        if (!tx.rywActive()) {
            return null;
        }
        WriteMap seen = tx.rywFor(snapshot) ? tx.writes : null;
        if (seen == null || seen.isEmpty()) {
            byte[] v = tx.readCache == null ? ReadCache.UNKNOWN : tx.readCache.get(key);
            return v == ReadCache.UNKNOWN ? null : new ReadView.Point(v, true);
        }
        return ReadView.ofCache(tx.readCache(), seen, tx.maxReadKey()).get(key);
    }

    /**
     * The value of {@code key} at {@code version} as the transaction sees it (the stored array:
     * callers copy it for the caller), recording the read's conflict; {@code key} is kept, so
     * it must not be the caller's array.
     */
    private static byte[] readKey(EngineTransaction tx, long version, byte[] key, boolean snapshot, WriteMap seen) {
        ReadView.Point p = view(tx, version, snapshot, seen).get(key);
        if (!snapshot && p.readStorage()) {
            TransactionFootprint.addReadConflictKey(tx, key, seen);
        }
        return p.value();
    }

    /**
     * The view a read of the store sees: own writes ({@code seen}) unless RYW is off (or off
     * for snapshot reads); what it finds goes to the read cache unless RYW is off.
     */
    private static ReadView view(EngineTransaction tx, long version, boolean snapshot, WriteMap seen) {
        tx.engine.workload().read();
        TxOptions options = tx.options;
        boolean system = options.readSystemKeys || options.accessSystemKeys;
        return ReadView.ofStore(tx.engine.store(), version, tx.rywFor(snapshot) ? seen : null, tx.maxReadKey(),
                tx.rywActive() ? tx.readCache() : null, system ? tx.engine.shards() : null);
    }

    /**
     * Runs {@code read} on what the transaction knows (own writes over the read cache); null
     * when the answer needs the store. An answer from there needs no read version and never touches
     * the store, so it cannot fail with {@code transaction_too_old}; its conflict ranges are
     * those of any read ({@code read} records them, from the writes it is given).
     */
    private static <T> CompletableFuture<T> fromKnown(EngineTransaction tx, boolean snapshot, BiFunction<ReadView, WriteMap, T> read) {
        synchronized (tx) {
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            if (!tx.rywActive()) {
                return null;
            }
            // Tried even when nothing is known yet: a selector or range that looks at no key at
            // all (firstGreaterThan(\xff), a range from \xff) is answered without the store.
            ReadView known = ReadView.ofCache(tx.readCache(), tx.rywFor(snapshot) ? tx.writes : null, tx.maxReadKey());
            try {
                T result = read.apply(known, tx.writes);
                return known.missed() ? null : CompletableFuture.completedFuture(result);
            } catch (FDBException ex) {
                // Raised inside RYW's read (accessed_unreadable): a failed read, as from the store.
                return TransactionReadVersion.failedRead(tx, ex, ReadKind.READ);
            }
        }
    }

    private static void noteRead(EngineTransaction tx) {
        synchronized (tx) {
            tx.readIssued = true;
        }
    }

    /** {@code getKey}, before it is handed out. */
    static CompletableFuture<byte[]> getKey(EngineTransaction tx, KeySelector callersSelector, boolean snapshot) {
        Objects.requireNonNull(callersSelector, "selector");
        KeySelector selector = KeyRules.ownCopy(callersSelector);
        synchronized (tx) {
            tx.checkOpen();
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            if (ByteKeys.compare(selector.getKey(), tx.maxReadKey()) > 0) {
                return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
            }
        }
        noteRead(tx);
        CompletableFuture<byte[]> known = fromKnown(tx, snapshot, (view, seen) -> resolveKey(tx, view, selector, snapshot, seen));
        if (known != null) {
            return known;
        }
        return TransactionReadVersion.readAtVersion(tx,
                (Long version, WriteMap seen) -> resolveKey(tx, view(tx, version, snapshot, seen), selector, snapshot, seen));
    }

    private static byte[] resolveKey(EngineTransaction tx, ReadView view, KeySelector selector, boolean snapshot, WriteMap seen) {
        byte[] result = view.resolve(selector).key();
        if (view.missed()) {
            return null; // answered by the store instead
        }
        if (!snapshot) {
            byte[][] range = ReadConflicts.ofGetKey(selector, result);
            TransactionFootprint.addReadConflict(tx, range[0], range[1], seen);
        }
        return result.clone(); // may be a stored key, or the shared maximum key
    }

    /**
     * One range read as FoundationDB's RYW {@code getRange} does it: validate, normalise the
     * selectors ({@code removeOrEqual}, here {@link KeyRules#ownWithoutOrEqual}), read, then
     * record the conflict range the result depended on ({@code addConflictRange} for forward
     * and reverse reads). Before it is handed out.
     */
    static CompletableFuture<ReadView.Rows> readRange(EngineTransaction tx, KeySelector begin, KeySelector end, int limit, boolean reverse,
                                                      boolean snapshot) {
        synchronized (tx) {
            tx.checkOpen();
            if (SpecialKeySpace.isSpecialRange(begin.getKey(), end.getKey())) {
                // As get: only an earlier void call's error comes first.
                return tx.deferred != null ? CompletableFuture.failedFuture(tx.deferred) : tx.special.getRange(begin, end, limit, reverse);
            }
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
            byte[] maxKey = tx.maxReadKey();
            if (ByteKeys.compare(begin.getKey(), maxKey) > 0 || ByteKeys.compare(end.getKey(), maxKey) > 0) {
                return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
            }
            // -1 is the native client's ROW_LIMIT_UNLIMITED; anything lower is invalid.
            if (limit < RangeIterable.NATIVE_UNLIMITED) {
                return CompletableFuture.failedFuture(FdbError.RANGE_LIMITS_INVALID.exception());
            }
        }
        int rowLimit = Math.max(limit, 0);
        // Copies: the read may run later, and its conflict range keeps the ends.
        KeySelector b = KeyRules.ownWithoutOrEqual(begin);
        KeySelector en = KeyRules.ownWithoutOrEqual(end);
        if (b.getOffset() >= en.getOffset() && ByteKeys.compare(b.getKey(), en.getKey()) >= 0) {
            return CompletableFuture.completedFuture(new ReadView.Rows(List.of(), false, false, false));
        }
        noteRead(tx);
        CompletableFuture<ReadView.Rows> known = fromKnown(tx, snapshot,
                (view, seen) -> rangeRows(tx, view, b, en, rowLimit, reverse, snapshot, seen));
        if (known != null) {
            return known;
        }
        return TransactionReadVersion.readAtVersion(tx,
                (Long version, WriteMap seen) -> rangeRows(tx, view(tx, version, snapshot, seen), b, en, rowLimit, reverse, snapshot, seen));
    }

    private static ReadView.Rows rangeRows(EngineTransaction tx, ReadView view, KeySelector b, KeySelector en, int rowLimit, boolean reverse,
                                           boolean snapshot, WriteMap seen) {
        ReadView.Rows rows = view.range(b, en, rowLimit, reverse);
        if (view.missed()) {
            return null; // answered by the store instead
        }
        if (!snapshot) {
            byte[][] range = ReadConflicts.ofRange(b, en, rows, reverse, tx.maxReadKey());
            TransactionFootprint.addReadConflict(tx, range[0], range[1], seen);
        }
        return rows;
    }

    // ---------------------------------------------------------------- statistics

    /** {@code getEstimatedRangeSizeBytes}, before it is handed out. */
    static CompletableFuture<Long> estimatedRangeSize(EngineTransaction tx, byte[] begin, byte[] end) {
        // The C client builds a KeyRangeRef from the two keys, which refuses an inverted range.
        if (ByteKeys.compare(begin, end) > 0) {
            return CompletableFuture.failedFuture(FdbError.INVERTED_RANGE.exception());
        }
        byte[] b = begin.clone();
        byte[] e = end.clone();
        return readStatistics(tx, version -> tx.engine.store().estimatedSize(b, e, version));
    }

    /** {@code getRangeSplitPoints}, before it is handed out. */
    static CompletableFuture<KeyArrayResult> splitPoints(EngineTransaction tx, byte[] begin, byte[] end, long chunkSize) {
        if (ByteKeys.compare(begin, end) > 0) {
            return CompletableFuture.failedFuture(FdbError.INVERTED_RANGE.exception());
        }
        // RYW's getRangeSplitPoints checks both ends against the readable key space.
        byte[] maxKey;
        synchronized (tx) {
            maxKey = tx.maxReadKey();
        }
        if (ByteKeys.compare(begin, maxKey) > 0 || ByteKeys.compare(end, maxKey) > 0) {
            return CompletableFuture.failedFuture(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
        }
        // Neither RYW, NativeAPI nor the storage server checks the chunk size. 0 is answered as
        // StorageServerMetrics::getSplitPoints answers it (every sampled key after begin).
        // A negative size sends that function's loop back and forth between the first sampled
        // keys without end once two of them lie at or before the range's end: no answer to
        // copy, so the engine refuses it (docs/engine.md, known differences).
        if (chunkSize < 0) {
            return CompletableFuture.failedFuture(FdbError.INVALID_OPTION_VALUE.exception("chunk size must not be negative"));
        }
        byte[] b = begin.clone();
        byte[] e = end.clone();
        return readStatistics(tx, version -> SplitPoints.of(tx.engine.store().splitPoints(b, e, chunkSize, version)));
    }

    /**
     * Answers a size estimate or split points at the newest published version. FoundationDB
     * takes these from storage metrics, not at the transaction's read version (NativeAPI
     * passes the transaction's state only for tenants), so they neither set the read version
     * nor see the data as of it, and they never grow too old. Pruning keeps the newest
     * version readable, so no check is needed after the read.
     */
    private static <T> CompletableFuture<T> readStatistics(EngineTransaction tx, LongFunction<T> read) {
        synchronized (tx) {
            tx.checkOpen();
            FDBException e = tx.blockingError();
            if (e != null) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return CompletableFuture.completedFuture(read.apply(tx.engine.pipeline().visibleVersion()));
    }
}
