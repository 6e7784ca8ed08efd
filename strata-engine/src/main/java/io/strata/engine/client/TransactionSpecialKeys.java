package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import io.strata.engine.Engine;
import io.strata.engine.commit.CommitRequest;
import io.strata.engine.commit.CommitResult;
import io.strata.engine.commit.ConflictRanges;
import io.strata.engine.commit.Mutation;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * One transaction's side of the special key space: what the special keys read from it and what
 * they remember for it. {@link EngineTransaction} hands every read of {@code \xff\xff/…} and every
 * write there to this class, and calls it around a commit.
 *
 * <h2>What it remembers</h2>
 * <ul>
 *   <li>The conflicting keys of the last commit that failed with {@code not_committed} while
 *       {@code report_conflicting_keys} was set. FoundationDB keeps them in the native
 *       transaction's state, which {@code TransactionState::cloneAndReset} carries over
 *       {@code onError} and {@code reset}; so here {@link #inheritFrom} carries them to the
 *       transaction {@code onError} hands back. The next {@code not_committed} replaces them
 *       (with nothing, if that commit did not ask for a report); a successful commit leaves them.</li>
 *   <li>{@code \xff\xff/error_message}: the last failure of a management command. RYW's
 *       {@code resetRyow} clears it, so it is not carried over {@code onError}.</li>
 *   <li>Writes made with {@code special_key_space_enable_writes}: the management options set
 *       (readable back, as FoundationDB's {@code ManagementCommandsOptionsImpl} answers from the
 *       transaction's special-key write map) and the writable ranges written, whose commands the
 *       commit then runs — and, on a single embedded process, refuses.</li>
 * </ul>
 *
 * <h2>Concurrency</h2>
 * State is guarded by the transaction's monitor, as the transaction's own state is. Reads that
 * cannot answer at once (status, a read that waits for the transaction's reads) are tracked as
 * the transaction's pending reads, so that cancel, timeout and close fail them as RYW's reset
 * fails special-key reads in flight.
 */
final class TransactionSpecialKeys {
    private final EngineTransaction tx;

    /** Guarded by {@code tx}: null until a reported {@code not_committed}. */
    private BoundaryMap conflictingKeys;
    /** Guarded by {@code tx}. */
    private String errorMessage;
    /** Guarded by {@code tx}: management options set in this transaction (a clear removes one). */
    private final TreeMap<byte[], byte[]> managementOptions = new TreeMap<>(ByteKeys.COMPARATOR);
    /** Guarded by {@code tx}: writable ranges written, besides the options, in order of first write. */
    private final Set<SpecialKeyImpl> written = new LinkedHashSet<>();
    /**
     * The commit's place, once committed (it fixes versionstamped keys). Written without the
     * monitor by {@link #afterCommit}, on the thread that then settles the commit under the
     * monitor, which publishes it to every later reader (they read it under the monitor).
     */
    private CommitResult committed;

    TransactionSpecialKeys(EngineTransaction tx) {
        this.tx = tx;
    }

    // ---------------------------------------------------------------- reads

    /** {@code get} of a special key; the transaction has checked that it is open and has no deferred error. */
    CompletableFuture<byte[]> get(byte[] key) {
        return tx.trackSpecialRead(SpecialKeySpace.get(this, key.clone()));
    }

    /** A range read in the special key space; see {@link SpecialKeySpace#isSpecialRange}. */
    CompletableFuture<ReadView.Rows> getRange(KeySelector begin, KeySelector end, int limit, boolean reverse) {
        return tx.trackSpecialRead(SpecialKeySpace.getRange(this, begin, end, limit, reverse));
    }

    // ---------------------------------------------------------------- what the ranges read

    EngineDatabase database() {
        return tx.db;
    }

    Engine engine() {
        return tx.engine;
    }

    boolean relaxed() {
        synchronized (tx) {
            return tx.currentOptions().specialKeySpaceRelaxed;
        }
    }

    boolean writesEnabled() {
        synchronized (tx) {
            return tx.currentOptions().specialKeySpaceEnableWrites;
        }
    }

    /** {@code \xff\xff/error_message}, or null. */
    byte[] errorMessage() {
        synchronized (tx) {
            return errorMessage == null ? null : errorMessage.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Records a management command's failure for {@code \xff\xff/error_message} and returns the
     * error the call fails with: FoundationDB's {@code ManagementAPIError::toJsonString} and
     * {@code special_keys_api_failure}.
     */
    FDBException apiFailure(String command, String message) {
        String json = new io.strata.engine.cluster.JsonWriter().beginObject()
                .field("retriable", false)
                .field("command", command)
                .field("message", message)
                .endObject().toString();
        synchronized (tx) {
            errorMessage = json;
        }
        return FdbError.SPECIAL_KEYS_API_FAILURE.exception(command + ": " + message);
    }

    /** The conflicting keys of the last reported {@code not_committed}, or null. */
    BoundaryMap conflictingKeys() {
        synchronized (tx) {
            return conflictingKeys;
        }
    }

    /** The management options set in this transaction, under their full special keys. */
    List<KeyValue> managementOptions() {
        synchronized (tx) {
            List<KeyValue> rows = new ArrayList<>();
            for (byte[] key : managementOptions.keySet()) {
                rows.add(new KeyValue(key, ByteKeys.EMPTY));
            }
            return rows;
        }
    }

    /**
     * The transaction's read conflict ranges, once the reads already issued have completed
     * (FoundationDB's {@code ReadConflictRangeImpl} waits for {@code pendingReads()} first).
     */
    CompletableFuture<BoundaryMap> readConflictRanges() {
        return tx.readsSettled().thenApply(ignored -> {
            synchronized (tx) {
                return BoundaryMap.union(rangesOf(tx.readConflictsForSpecialKeys()));
            }
        });
    }

    /**
     * The transaction's write conflict ranges and the keys its versionstamped keys may become
     * ({@code getWriteConflictRangeIntersecting}): the exact key once the commit fixed the stamp,
     * else every key the stamp allows from the read version on.
     */
    BoundaryMap writeConflictRanges() {
        synchronized (tx) {
            List<byte[][]> ranges = rangesOf(tx.writeConflictsForSpecialKeys());
            long readVersion = tx.readVersionForSpecialKeys();
            for (Mutation m : tx.mutationsForSpecialKeys()) {
                if (m.type() != Mutation.SET_VERSIONSTAMPED_KEY) {
                    continue;
                }
                byte[] keyWithOffset = m.key();
                if (committed != null) {
                    byte[] key = io.strata.engine.mutation.Versionstamps.substitute(keyWithOffset, committed.versionstamp());
                    ranges.add(new byte[][] {key, ByteKeys.keyAfter(key)});
                } else {
                    ranges.add(KeyRules.possibleStampedKeys(keyWithOffset, readVersion, tx.maxReadKey()));
                }
            }
            return BoundaryMap.union(ranges);
        }
    }

    private static List<byte[][]> rangesOf(ConflictRanges ranges) {
        List<byte[][]> out = new ArrayList<>(ranges.size());
        for (int i = 0; i < ranges.size(); i++) {
            out.add(new byte[][] {ranges.begin(i), ranges.end(i)});
        }
        return out;
    }

    // ---------------------------------------------------------------- writes

    /** {@code set} of a special key: the error to defer, or null when the write is taken. */
    FDBException set(byte[] key, byte[] value) {
        FDBException e = SpecialKeySpace.writeError(this, key);
        if (e == null) {
            record(SpecialKeySpace.writableImplAt(key), key, value);
        }
        return e;
    }

    /** {@code clear} of a special key: the error to defer, or null. */
    FDBException clear(byte[] key) {
        FDBException e = SpecialKeySpace.writeError(this, key);
        if (e == null) {
            record(SpecialKeySpace.writableImplAt(key), key, null);
        }
        return e;
    }

    /** {@code clear} of a special range: the error to defer, or null. */
    FDBException clear(byte[] begin, byte[] end) {
        FDBException e = SpecialKeySpace.clearRangeError(this, begin, end);
        if (e == null && ByteKeys.compare(begin, end) < 0) {
            SpecialKeyImpl impl = SpecialKeySpace.writableImplAt(begin);
            synchronized (tx) {
                if (impl == SpecialKeyModules.MANAGEMENT_OPTIONS) {
                    managementOptions.subMap(begin, end).clear();
                } else {
                    written.add(impl);
                }
            }
        }
        return e;
    }

    /**
     * Management options are kept only when FoundationDB knows them
     * ({@code ManagementCommandsOptionsImpl::set} ignores the others); any other writable range
     * is remembered for the commit.
     */
    private void record(SpecialKeyImpl impl, byte[] key, byte[] value) {
        synchronized (tx) {
            if (impl == SpecialKeyModules.MANAGEMENT_OPTIONS) {
                if (SpecialKeyModules.isManagementOption(key)) {
                    if (value != null) {
                        managementOptions.put(key.clone(), ByteKeys.EMPTY);
                    } else {
                        managementOptions.remove(key);
                    }
                }
            } else {
                written.add(impl);
            }
        }
    }

    /**
     * The error a commit fails with before anything else when special keys were written
     * (RYW's commit runs {@code SpecialKeySpace::commit} first), or null. The engine cannot run
     * management commands: each written range fails as FoundationDB fails a command that cannot
     * be carried out — {@code special_keys_api_failure} with the reason in
     * {@code \xff\xff/error_message} — except tenant management, which fails as it does on a
     * cluster with tenants disabled ({@code tenants_disabled}).
     */
    FDBException commitFailure() {
        SpecialKeyImpl first;
        synchronized (tx) {
            if (!tx.currentOptions().specialKeySpaceEnableWrites || written.isEmpty()) {
                return null;
            }
            first = written.iterator().next();
        }
        if (first == SpecialKeyModules.MANAGEMENT_TENANT) {
            return FdbError.TENANTS_DISABLED.exception("the Strata engine has no tenants");
        }
        return apiFailure(first.command(), "the Strata engine is a single embedded process and cannot run this command");
    }

    // ---------------------------------------------------------------- commit

    /**
     * The read conflict ranges to send when the commit reports its conflicting keys: with
     * read-your-writes, RYW sends its coalesced read-conflict map, so a reported range is a
     * merged one; without, NativeAPI sends the ranges as added.
     */
    static ConflictRanges reportableReads(ConflictRanges reads, boolean readYourWrites) {
        if (!readYourWrites) {
            return reads;
        }
        ConflictRanges merged = new ConflictRanges();
        for (byte[][] r : BoundaryMap.union(rangesOf(reads)).ranges()) {
            merged.add(r[0], r[1]);
        }
        return merged;
    }

    /**
     * Notes a commit's outcome before the commit's future completes, so that a read of the
     * conflicting keys right after a {@code not_committed} sees them (NativeAPI {@code tryCommit}
     * fills {@code conflictingKeys} before it throws). May run on the sequencer or timer thread.
     */
    void afterCommit(CommitRequest request, CommitResult result, Throwable error) {
        if (result != null) {
            committed = result; // no lock on the commit path: see the field
            return;
        }
        Throwable e = EngineTransaction.unwrap(error);
        if (!(e instanceof FDBException) || ((FDBException) e).getCode() != FdbError.NOT_COMMITTED.code()) {
            return;
        }
        synchronized (tx) {
            conflictingKeys = null;
            if (!request.reportsConflictingKeys()) {
                return;
            }
            int[] hits = request.conflictingReadRanges();
            List<byte[][]> ranges = new ArrayList<>();
            ConflictRanges reads = request.readConflictRanges();
            for (int i : hits == null ? new int[0] : hits) {
                ranges.add(new byte[][] {reads.begin(i), reads.end(i)});
            }
            conflictingKeys = BoundaryMap.union(ranges);
        }
    }

    /** What {@code onError} carries to the next attempt: the conflicting keys. */
    void inheritFrom(TransactionSpecialKeys previous) {
        BoundaryMap keys = previous.conflictingKeys();
        synchronized (tx) {
            conflictingKeys = keys;
        }
    }
}
