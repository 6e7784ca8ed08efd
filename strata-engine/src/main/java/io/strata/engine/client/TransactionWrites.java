package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.MutationType;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.commit.Mutation;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.Arrays;
import java.util.Objects;

/**
 * A transaction's writes and explicit conflict ranges: {@code set}, {@code clear} of a key and
 * of a range, {@code mutate}, {@code addReadConflictRange} and {@code addWriteConflictRange} —
 * the {@code void} calls whose errors are deferred, as the C client defers them: the call
 * returns, and the next read, watch or commit fails with the error
 * ({@link EngineTransaction#defer}).
 *
 * <h2>What it owns</h2>
 * No state. Each call's checks, in the order RYW makes them (which differs from call to call:
 * {@code set} hands special keys over before its used-during-commit check, {@code clear}
 * after; {@code clear(key)} has no {@code key_too_large}), then the call's effects: the write
 * map (copied first if a waiting read holds it, {@link EngineTransaction#writesForUpdate}),
 * the mutation and write conflict range ({@link TransactionFootprint}), the one-shot
 * {@code next_write_no_write_conflict_range} flag, and the pending watches the write fires
 * ({@link TransactionWatches#trigger}). Every array kept is a copy of the caller's.
 *
 * <h2>Concurrency</h2>
 * Each call runs wholly under the transaction's monitor, as the synchronized methods of the
 * transaction it was part of did.
 *
 * <h2>Why separate</h2>
 * The write calls share nothing with the read or commit paths but the state they change, and
 * carry most of RYW's call-by-call validation; apart, they read as the list of RYW's
 * {@code set}, {@code clear} and {@code atomicOp} they follow.
 */
final class TransactionWrites {
    private TransactionWrites() {
    }

    /**
     * {@code addReadConflictKey}: {@link #addReadConflictRange} of {@code [key, key\x00)} —
     * the same checks, conflict and counted size — recorded as the key alone, as a point
     * read's conflict is, without building the range (layers add single-key conflicts on
     * their hot paths: the interner for each string it finds absent).
     */
    static void addReadConflictKey(EngineTransaction tx, byte[] key) {
        synchronized (tx) {
            KeyRules.requireArguments(key, key);
            if (tx.voidCallBlocked()) {
                return;
            }
            // The range's end is key\x00: past the readable keys exactly when the key is at or past their end.
            if (ByteKeys.compare(key, tx.maxReadKey()) >= 0 && !Arrays.equals(key, ByteKeys.METADATA_VERSION_KEY)) {
                tx.defer(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
                return;
            }
            TransactionFootprint.addReadConflictKey(tx, key.clone(), tx.writes);
            if (!tx.rywActive()) {
                // Reads with read-your-writes disabled are not counted, but an explicit range is.
                tx.approximateSize += CommitSize.RANGE_OVERHEAD + 2L * key.length + 1;
            }
        }
    }

    /** {@code addReadConflictRange}: what own writes already answer is left out, as in RYW. */
    static void addReadConflictRange(EngineTransaction tx, byte[] begin, byte[] end) {
        synchronized (tx) {
            KeyRules.requireArguments(begin, end);
            if (tx.voidCallBlocked()) {
                return;
            }
            if (ByteKeys.compare(begin, end) > 0) {
                tx.defer(FdbError.INVERTED_RANGE.exception());
                return;
            }
            // \xff/metadataVersion is readable by anyone, so its single-key range is always accepted.
            boolean metadataVersion = Arrays.equals(begin, ByteKeys.METADATA_VERSION_KEY) && ByteKeys.isKeyAfter(begin, end);
            if (ByteKeys.compare(end, tx.maxReadKey()) > 0 && !metadataVersion) {
                tx.defer(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
                return;
            }
            TransactionFootprint.addExplicitReadConflict(tx, begin.clone(), end.clone());
        }
    }

    /** {@code addWriteConflictRange}: an empty range records nothing. */
    static void addWriteConflictRange(EngineTransaction tx, byte[] begin, byte[] end) {
        synchronized (tx) {
            KeyRules.requireArguments(begin, end);
            if (tx.voidCallBlocked()) {
                return;
            }
            if (ByteKeys.compare(begin, end) > 0) {
                tx.defer(FdbError.INVERTED_RANGE.exception());
                return;
            }
            if (ByteKeys.compare(end, tx.maxWriteKey()) > 0) {
                tx.defer(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
                return;
            }
            if (ByteKeys.compare(begin, end) < 0) {
                TransactionFootprint.recordWriteConflict(tx, begin.clone(), end.clone());
            }
        }
    }

    /** Validates a written key; defers and returns false when it is not writable. */
    private static boolean writableKey(EngineTransaction tx, byte[] key) {
        FDBException e = KeyRules.writeKeyError(key, tx.maxWriteKey());
        if (e != null) {
            tx.defer(e);
            return false;
        }
        return true;
    }

    /** Consumes {@code next_write_no_write_conflict_range}: true when this write adds its range. */
    private static boolean takeWriteConflictFlag(EngineTransaction tx) {
        boolean add = !tx.options.nextWriteNoWriteConflictRange;
        tx.options.nextWriteNoWriteConflictRange = false;
        return add;
    }

    /** {@code set}; a key of the special key space goes to {@link TransactionSpecialKeys}. */
    static void set(EngineTransaction tx, byte[] callersKey, byte[] callersValue) {
        synchronized (tx) {
            KeyRules.requireArguments(callersKey, callersValue);
            if (SpecialKeySpace.contains(callersKey)) {
                // RYW set hands special keys over before its used-during-commit check.
                tx.checkOpen();
                FDBException e = tx.special.set(callersKey, callersValue);
                if (e != null) {
                    tx.defer(e);
                }
                return;
            }
            if (tx.voidCallBlocked() || !writableKey(tx, callersKey)) {
                return;
            }
            if (callersValue.length > KeyRules.VALUE_SIZE_LIMIT) {
                tx.defer(FdbError.VALUE_TOO_LARGE.exception());
                return;
            }
            byte[] key = callersKey.clone();
            byte[] value = callersValue.clone();
            boolean conflict = takeWriteConflictFlag(tx);
            WriteMap.Entry replaced = tx.writesForUpdate().set(key, value, tx.mutations.size(), conflict);
            TransactionFootprint.addMutation(tx, new Mutation(Mutation.SET_VALUE, key, value));
            tx.overwrote(replaced);
            if (conflict) {
                TransactionFootprint.recordWriteConflictKey(tx, key, WriteMap.conflictNeeded(replaced, true) || !tx.rywActive());
            }
            tx.watches.trigger(key, value);
        }
    }

    /** {@code clear(key)}: the mutation of {@code [key, key\x00)}. */
    static void clear(EngineTransaction tx, byte[] key) {
        synchronized (tx) {
            KeyRules.requireArgument(key);
            if (tx.voidCallBlocked()) {
                return;
            }
            if (SpecialKeySpace.contains(key)) {
                // RYW clear(key): the flag is consumed, then special keys are handed over.
                takeWriteConflictFlag(tx);
                FDBException e = tx.special.clear(key);
                if (e != null) {
                    tx.defer(e);
                }
                return;
            }
            // RYW clear(key) has set's range check but neither its metadataVersion rule nor
            // key_too_large: no key that long exists, so it returns without a mutation (having
            // consumed next_write_no_write_conflict_range, as every write does first).
            if (ByteKeys.compare(key, tx.maxWriteKey()) >= 0) {
                tx.defer(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
                return;
            }
            if (ShardMap.isKeyServersKey(key)) {
                tx.defer(KeyRules.keyServersWriteError());
                return;
            }
            if (key.length > KeyRules.keySizeLimit(key)) {
                takeWriteConflictFlag(tx);
                return;
            }
            key = key.clone();
            byte[] end = ByteKeys.keyAfter(key);
            boolean conflict = takeWriteConflictFlag(tx);
            WriteMap.Entry replaced = tx.writesForUpdate().clear(key, tx.mutations.size(), conflict);
            tx.clearedRanges = true;
            TransactionFootprint.addClearOfKey(tx, key, end, conflict, WriteMap.conflictNeeded(replaced, conflict) || !tx.rywActive());
            tx.overwrote(replaced);
            tx.watches.trigger(key, end, null, true);
        }
    }

    /** {@code clear(begin, end)}: an empty range is counted but records nothing. */
    static void clear(EngineTransaction tx, byte[] begin, byte[] end) {
        synchronized (tx) {
            KeyRules.requireArguments(begin, end);
            if (tx.voidCallBlocked()) {
                return;
            }
            if (ByteKeys.compare(begin, end) > 0) {
                tx.defer(FdbError.INVERTED_RANGE.exception());
                return;
            }
            if (SpecialKeySpace.containsRange(begin, end)) {
                takeWriteConflictFlag(tx);
                FDBException e = tx.special.clear(begin, end);
                if (e != null) {
                    tx.defer(e);
                }
                return;
            }
            byte[] maxKey = tx.maxWriteKey();
            if (ByteKeys.compare(begin, maxKey) > 0 || ByteKeys.compare(end, maxKey) > 0) {
                tx.defer(FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception());
                return;
            }
            if (ShardMap.meetsKeyServers(begin, end)) {
                tx.defer(KeyRules.keyServersWriteError());
                return;
            }
            if (ByteKeys.compare(begin, end) == 0) {
                // RYW clear(range) counts the range before finding it empty.
                TransactionFootprint.countEmptyClear(tx, begin, end, takeWriteConflictFlag(tx));
                return;
            }
            begin = begin.clone();
            end = end.clone();
            tx.writesForUpdate().clearRange(begin, end);
            tx.clearedRanges = true;
            TransactionFootprint.addMutation(tx, new Mutation(Mutation.CLEAR_RANGE, begin, end));
            if (takeWriteConflictFlag(tx)) {
                TransactionFootprint.recordWriteConflict(tx, begin, end);
            }
            tx.watches.trigger(begin, end, null, true);
        }
    }

    /** {@code mutate}: an atomic operation or a versionstamped key or value. */
    static void mutate(EngineTransaction tx, MutationType type, byte[] key, byte[] param) {
        synchronized (tx) {
            Objects.requireNonNull(type, "type"); // fdb-java calls type.code() first
            KeyRules.requireArguments(key, param);
            if (tx.voidCallBlocked()) {
                return;
            }
            int code = type.code();
            // Checks in the order of RYW atomicOp (see KeyRules.mutationError).
            FDBException invalid = KeyRules.mutationError(code, key, param, tx.maxWriteKey());
            if (invalid != null) {
                tx.defer(invalid);
                return;
            }
            key = key.clone();
            param = param.clone();
            boolean stampedKey = code == Mutation.SET_VERSIONSTAMPED_KEY;
            boolean stampedValue = code == Mutation.SET_VERSIONSTAMPED_VALUE;
            boolean addConflict = takeWriteConflictFlag(tx);
            int index = tx.mutations.size();
            if (stampedKey) {
                // The final key is unknown until commit: reads of where it may land are unreadable,
                // and there is no write conflict range for it.
                byte[][] range = KeyRules.possibleStampedKeys(key, tx.readVersion, tx.maxReadKey());
                tx.writesForUpdate().addUnreadableRange(range[0], range[1]);
            } else if (stampedValue) {
                WriteMap.Entry replaced = tx.writesForUpdate().setVersionstampedValue(key, index, addConflict);
                tx.overwrote(replaced);
                if (addConflict) {
                    TransactionFootprint.recordWriteConflictKey(tx, key, WriteMap.conflictNeeded(replaced, true) || !tx.rywActive());
                }
            } else {
                boolean record = tx.writesForUpdate().atomic(code, key, param, index, addConflict);
                if (addConflict) {
                    TransactionFootprint.recordWriteConflictKey(tx, key, record || !tx.rywActive());
                }
            }
            TransactionFootprint.addMutation(tx, new Mutation(code, key, param));
            if (!stampedKey) {
                // The result is known only at commit, so a watch of the key fires (RYW atomicOp).
                tx.watches.trigger(key, ByteKeys.keyAfter(key), null, false);
            }
        }
    }
}
