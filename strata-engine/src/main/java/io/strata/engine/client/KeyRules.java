package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import io.strata.engine.cluster.ShardMap;
import io.strata.engine.commit.Mutation;
import io.strata.engine.error.FdbError;
import io.strata.engine.mutation.AtomicOps;
import io.strata.engine.mutation.Versionstamps;
import io.strata.engine.util.ByteKeys;

import java.util.Arrays;

/**
 * The rules FoundationDB's client applies to keys and values before a read or write reaches
 * the transaction: size limits, the readable and writable key space given the options, the
 * checks of {@code set} and {@code atomicOp} in RYW's order, and the keys a versionstamped key
 * may become.
 *
 * <p>Separate from {@link EngineTransaction} because none of it touches transaction state:
 * every method is a pure function of its arguments, so the transaction decides when to call
 * it (under its monitor) and what to do with an error (fail a read, or defer a void call).
 */
final class KeyRules {
    /** FoundationDB's {@code KEY_SIZE_LIMIT} and {@code SYSTEM_KEY_SIZE_LIMIT}. */
    static final int KEY_SIZE_LIMIT = 10_000;
    static final int SYSTEM_KEY_SIZE_LIMIT = 30_000;
    static final int VALUE_SIZE_LIMIT = 100_000;
    /**
     * The only operand accepted for {@code \\xff/metadataVersion} ({@code metadataVersionRequiredValue}):
     * a zeroed 10-byte stamp placeholder at offset 0, so the key always holds exactly the stamp.
     */
    private static final byte[] METADATA_VERSION_REQUIRED_VALUE = new byte[14];

    private KeyRules() {
    }

    /**
     * fdb-java refuses a null key, value or range end with {@link IllegalArgumentException}
     * before the call reaches the transaction: {@code set} and {@code clear} check in Java, the
     * other calls in the JNI layer ({@code throwParamNotNull} in {@code fdbJNI.cpp}).
     */
    static void requireArgument(byte[] argument) {
        if (argument == null) {
            throw new IllegalArgumentException("Argument cannot be null");
        }
    }

    /** {@link #requireArgument(byte[])} of both. */
    static void requireArguments(byte[] first, byte[] second) {
        requireArgument(first);
        requireArgument(second);
    }

    /** The end of the key space reads may touch: {@code \xff\xff} with system-key access, else {@code \xff}. */
    static byte[] maxReadKey(TxOptions options) {
        return options.readSystemKeys || options.accessSystemKeys ? ByteKeys.SYSTEM_END : ByteKeys.NORMAL_END;
    }

    /** The end of the key space writes may touch: only {@code access_system_keys} opens the system keys. */
    static byte[] maxWriteKey(TxOptions options) {
        return options.accessSystemKeys ? ByteKeys.SYSTEM_END : ByteKeys.NORMAL_END;
    }

    static int keySizeLimit(byte[] key) {
        return isSystemKey(key) ? SYSTEM_KEY_SIZE_LIMIT : KEY_SIZE_LIMIT;
    }

    /**
     * Whether {@code key} begins with {@code \xff}. Every other key is below both write bounds
     * and every special rule, so a write's checks on it are its size alone: one byte read
     * instead of three array comparisons on every set of a user key.
     */
    static boolean isSystemKey(byte[] key) {
        return key.length > 0 && key[0] == (byte) 0xff;
    }

    /**
     * RYW's normalisation of a selector ({@code orEqual} becomes the next key without it), on
     * a key of its own: the caller's array is never kept.
     */
    static KeySelector ownWithoutOrEqual(KeySelector s) {
        byte[] key = s.orEqual() ? ByteKeys.keyAfter(s.getKey()) : s.getKey().clone();
        return new KeySelector(key, false, s.getOffset());
    }

    /** The same selector on a copy of its key. */
    static KeySelector ownCopy(KeySelector s) {
        return new KeySelector(s.getKey().clone(), s.orEqual(), s.getOffset());
    }

    /** Why {@code key} may not be written by {@code set}, or null when it may. */
    static FDBException writeKeyError(byte[] key, byte[] maxWriteKey) {
        if (!isSystemKey(key)) {
            // Below \xff: not \xff/metadataVersion, inside either bound, outside \xff/keyServers/.
            return key.length > KEY_SIZE_LIMIT ? FdbError.KEY_TOO_LARGE.exception() : null;
        }
        if (Arrays.equals(key, ByteKeys.METADATA_VERSION_KEY)) {
            return FdbError.CLIENT_INVALID_OPERATION.exception("\\xff/metadataVersion can only be written with SET_VERSIONSTAMPED_VALUE");
        }
        if (ByteKeys.compare(key, maxWriteKey) >= 0) {
            return FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception();
        }
        if (ShardMap.isKeyServersKey(key)) {
            return keyServersWriteError();
        }
        if (key.length > keySizeLimit(key)) {
            return FdbError.KEY_TOO_LARGE.exception();
        }
        return null;
    }

    /**
     * A write to {@code \xff/keyServers/} (with {@code access_system_keys}). FoundationDB's commit
     * proxies would take such a write as a change of the shard map; the engine's shard map is
     * computed ({@code ShardMap}), so it refuses the write rather than drop it.
     */
    static FDBException keyServersWriteError() {
        return FdbError.UNSUPPORTED_OPERATION.exception("\\xff/keyServers/ is the engine's computed shard map and cannot be written");
    }

    /**
     * Why the atomic operation {@code code} may not be applied to {@code key} with
     * {@code param}, or null when it may. Checks in the order of RYW atomicOp. Sizes are of the
     * key and operand as given: a versionstamp's 4-byte offset suffix counts against the limits.
     */
    static FDBException mutationError(int code, byte[] key, byte[] param, byte[] maxWriteKey) {
        if (!isSystemKey(key)) {
            // Below \xff: not \xff/metadataVersion, inside either bound, outside \xff/keyServers/.
        } else if (Arrays.equals(key, ByteKeys.METADATA_VERSION_KEY)) {
            if (code != Mutation.SET_VERSIONSTAMPED_VALUE || !Arrays.equals(param, METADATA_VERSION_REQUIRED_VALUE)) {
                return FdbError.CLIENT_INVALID_OPERATION.exception(
                        "\\xff/metadataVersion can only be written with SET_VERSIONSTAMPED_VALUE of 14 zero bytes");
            }
        } else if (ByteKeys.compare(key, maxWriteKey) >= 0) {
            return FdbError.KEY_OUTSIDE_LEGAL_RANGE.exception();
        } else if (ShardMap.isKeyServersKey(key)) {
            return keyServersWriteError();
        }
        if (!AtomicOps.isAtomicOp(code) && !AtomicOps.isVersionstampOp(code)) {
            return FdbError.INVALID_MUTATION_TYPE.exception();
        }
        if (key.length > keySizeLimit(key)) {
            return FdbError.KEY_TOO_LARGE.exception();
        }
        if (param.length > VALUE_SIZE_LIMIT) {
            return FdbError.VALUE_TOO_LARGE.exception();
        }
        try {
            if (code == Mutation.SET_VERSIONSTAMPED_KEY) {
                Versionstamps.offsetOf(key);
            } else if (code == Mutation.SET_VERSIONSTAMPED_VALUE) {
                Versionstamps.offsetOf(param);
            }
        } catch (FDBException e) {
            return e;
        }
        return null;
    }

    /**
     * The keys a versionstamped key may become: the stamp can only be greater than the
     * transaction's read version (or anything, without one: {@code readVersion <= 0}), so the
     * range runs from the key with the smallest possible stamp to the key with an
     * all-{@code \xff} stamp (FoundationDB's {@code getVersionstampKeyRange}), capped at
     * {@code maxReadKey}.
     */
    static byte[][] possibleStampedKeys(byte[] keyWithOffset, long readVersion, byte[] maxReadKey) {
        int offset = Versionstamps.offsetOf(keyWithOffset);
        byte[] key = Arrays.copyOf(keyWithOffset, keyWithOffset.length - 4);
        byte[] low = key.clone();
        long floor = readVersion > 0 ? readVersion : 0;
        for (int i = 0; i < 8; i++) {
            low[offset + i] = (byte) (floor >>> (56 - 8 * i));
        }
        low[offset + 8] = 0;
        low[offset + 9] = 0;
        byte[] high = key.clone();
        Arrays.fill(high, offset, offset + 10, (byte) 0xff);
        return new byte[][] {low, ByteKeys.min(ByteKeys.keyAfter(high), maxReadKey)};
    }
}
