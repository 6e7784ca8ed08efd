package io.strata.engine.client;

import io.strata.engine.error.FdbError;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Transaction options by FoundationDB code (see {@code fdbclient/vexillographer/fdb.options}).
 *
 * <p>The options {@code fdb.options} marks {@code persistent} ({@code timeout},
 * {@code retry_limit}, {@code max_retry_delay}) survive {@code onError}, as in FoundationDB
 * since API 610; every other option is reset, {@code size_limit} included: it returns to the
 * database's default, which RYW re-applies after each reset with the other defaults.
 * Options without meaning for a single-process engine (priorities, tags, tracing, durability
 * hints, caching) are accepted and ignored, as a cluster would not change any answer for
 * them either — but their values are checked as NativeAPI's {@code Transaction::setOption}
 * checks them (tags, the debug identifier and logging, the span parent), so a value a cluster
 * refuses is refused here with the same code. An unknown code fails with
 * {@code invalid_option} (2007).
 */
final class TxOptions {
    static final int CAUSAL_WRITE_RISKY = 10;
    static final int NEXT_WRITE_NO_WRITE_CONFLICT_RANGE = 30;
    static final int READ_YOUR_WRITES_DISABLE = 51;
    static final int INITIALIZE_NEW_DATABASE = 300;
    static final int ACCESS_SYSTEM_KEYS = 301;
    static final int READ_SYSTEM_KEYS = 302;
    static final int TRANSACTION_LOGGING_ENABLE = 402;
    static final int DEBUG_TRANSACTION_IDENTIFIER = 403;
    static final int LOG_TRANSACTION = 404;
    static final int TRANSACTION_LOGGING_MAX_FIELD_LENGTH = 405;
    static final int TIMEOUT = 500;
    static final int RETRY_LIMIT = 501;
    static final int MAX_RETRY_DELAY = 502;
    static final int SIZE_LIMIT = 503;
    static final int SNAPSHOT_RYW_ENABLE = 600;
    static final int SNAPSHOT_RYW_DISABLE = 601;
    static final int LOCK_AWARE = 700;
    static final int USED_DURING_COMMIT_PROTECTION_DISABLE = 701;
    static final int READ_LOCK_AWARE = 702;
    static final int REPORT_CONFLICTING_KEYS = 712;
    static final int SPECIAL_KEY_SPACE_RELAXED = 713;
    static final int SPECIAL_KEY_SPACE_ENABLE_WRITES = 714;
    static final int TAG = 800;
    static final int AUTO_THROTTLE_TAG = 801;
    static final int SPAN_PARENT = 900;
    static final int BYPASS_UNREADABLE = 1100;

    /**
     * The options whose FoundationDB handler calls {@code validateOptionValueNotPresent}: a
     * value given with one of them is {@code invalid_option_value} (2006). From
     * {@code ReadYourWritesTransaction::setOptionImpl} (30, 51, 52, 301, 302, 600, 601, 701,
     * 713, 714, 1100) and NativeAPI's {@code Transaction::setOption}, which RYW calls next
     * (10, 20, 23, 200, 201, 300, 301, 302, 303, 404, 406, 505, 700, 702, 711, 712, 1000, 1101).
     * The other value-less options (causal_read_disable 21, the durability hints 110-130,
     * bypass_storage_quota 304, the read cache and priority options 507-511) are not checked
     * there, so they take a value and ignore it.
     */
    private static final Set<Integer> VALUE_NOT_ALLOWED = Set.of(
            10, 20, 23, 30, 51, 52, 200, 201, 300, 301, 302, 303, 404, 406, 505,
            600, 601, 700, 701, 702, 711, 712, 713, 714, 1000, 1100, 1101);

    /**
     * {@code validateOptionValueNotPresent}: refuses a value for an option that takes none.
     * Checked before anything else the option does, as FoundationDB's handlers do
     * ({@code EngineTransaction.options()} calls it first).
     */
    static void validateValueNotPresent(int code, byte[] param) {
        if (param != null && VALUE_NOT_ALLOWED.contains(code)) {
            throw FdbError.INVALID_OPTION_VALUE.exception("transaction option " + code + " takes no value");
        }
    }

    /** FoundationDB's {@code MAX_TRANSACTION_TAG_LENGTH} and {@code MAX_TAGS_PER_TRANSACTION} client knobs. */
    static final int MAX_TAG_LENGTH = 16;
    static final int MAX_TAGS = 5;
    /** The longest {@code debug_transaction_identifier} NativeAPI accepts. */
    static final int MAX_DEBUG_IDENTIFIER_LENGTH = 100;
    /** A {@code span_parent} is a serialized {@code SpanContext}: exactly 33 bytes. */
    static final int SPAN_CONTEXT_LENGTH = 33;

    /** FoundationDB's {@code TRANSACTION_SIZE_LIMIT}. */
    static final long DEFAULT_SIZE_LIMIT = 10_000_000L;
    /** FoundationDB's default {@code max_retry_delay}: one second. */
    static final long DEFAULT_MAX_RETRY_DELAY_MILLIS = 1_000L;

    // Survive onError.
    long timeoutMillis;
    long retryLimit = -1;
    long maxRetryDelayMillis = DEFAULT_MAX_RETRY_DELAY_MILLIS;
    /**
     * The database's {@code transaction_size_limit} when the first attempt was created: RYW
     * copies the database defaults once, at construction, and re-applies that copy on reset.
     */
    long databaseSizeLimit = DEFAULT_SIZE_LIMIT;
    /** The database's {@code transaction_used_during_commit_protection_disable}, likewise. */
    boolean databaseUsedDuringCommitProtectionDisabled;

    // Reset by onError.
    long sizeLimit = DEFAULT_SIZE_LIMIT;
    boolean causalWriteRisky;
    boolean nextWriteNoWriteConflictRange;
    boolean readYourWritesDisabled;
    boolean accessSystemKeys;
    boolean readSystemKeys;
    int snapshotRywEnabled = 1;
    /** Set on every new transaction, as fdb-java does; not on a retry (see EngineTransaction.usedDuringCommit). */
    boolean usedDuringCommitProtectionDisabled;
    boolean bypassUnreadable;
    /**
     * {@code report_conflicting_keys}: a commit that fails with {@code not_committed} reports
     * which read conflict ranges conflicted ({@code \xff\xff/transaction/conflicting_keys/}).
     */
    boolean reportConflictingKeys;
    /** {@code special_key_space_relaxed}: special-key reads may span modules (see {@link SpecialKeySpace}). */
    boolean specialKeySpaceRelaxed;
    /** {@code special_key_space_enable_writes}: special keys may be set and cleared. */
    boolean specialKeySpaceEnableWrites;
    /**
     * NativeAPI's {@code lockAware} and {@code readOnly}: {@code read_lock_aware} without
     * {@code lock_aware} makes the transaction read-only, so a commit with writes fails with
     * {@code transaction_read_only}; {@code lock_aware} (before or after) lifts that. The engine
     * has no database lock, so nothing else about them matters.
     */
    boolean lockAware;
    boolean readOnly;
    /** {@code debug_transaction_identifier}: once set, only the same identifier may be set again. */
    byte[] debugTransactionIdentifier;
    /** The distinct tags of {@code tag} and {@code auto_throttle_tag}; null until the first. */
    private List<byte[]> tags;

    /** Copies the options that survive a retry. */
    TxOptions retryCopy(DatabaseDefaults defaults) {
        TxOptions next = new TxOptions();
        next.timeoutMillis = timeoutMillis;
        next.retryLimit = retryLimit;
        next.maxRetryDelayMillis = maxRetryDelayMillis;
        next.databaseSizeLimit = databaseSizeLimit;
        next.sizeLimit = databaseSizeLimit;
        next.databaseUsedDuringCommitProtectionDisabled = databaseUsedDuringCommitProtectionDisabled;
        next.usedDuringCommitProtectionDisabled = databaseUsedDuringCommitProtectionDisabled;
        next.snapshotRywEnabled = defaults.snapshotRywEnabled;
        return next;
    }

    static TxOptions fromDefaults(DatabaseDefaults d) {
        TxOptions o = new TxOptions();
        o.timeoutMillis = d.timeoutMillis;
        o.retryLimit = d.retryLimit;
        o.maxRetryDelayMillis = d.maxRetryDelayMillis;
        o.databaseSizeLimit = d.sizeLimit;
        o.sizeLimit = d.sizeLimit;
        o.databaseUsedDuringCommitProtectionDisabled = d.usedDuringCommitProtectionDisabled;
        // fdb-java's FDBDatabase.createTransaction sets this option on every transaction it makes.
        o.usedDuringCommitProtectionDisabled = true;
        o.snapshotRywEnabled = d.snapshotRywEnabled;
        return o;
    }

    /**
     * Applies one option. Returns true when the timeout changed, so the transaction can
     * re-arm its timer.
     */
    boolean set(int code, byte[] param) {
        switch (code) {
            case CAUSAL_WRITE_RISKY -> causalWriteRisky = true;
            case NEXT_WRITE_NO_WRITE_CONFLICT_RANGE -> nextWriteNoWriteConflictRange = true;
            case READ_YOUR_WRITES_DISABLE -> readYourWritesDisabled = true;
            case ACCESS_SYSTEM_KEYS -> accessSystemKeys = true;
            case READ_SYSTEM_KEYS -> readSystemKeys = true;
            case TIMEOUT -> {
                timeoutMillis = longParam(param, 0, Integer.MAX_VALUE);
                return true;
            }
            case RETRY_LIMIT -> retryLimit = longParam(param, -1, Integer.MAX_VALUE);
            case MAX_RETRY_DELAY -> maxRetryDelayMillis = longParam(param, 0, Integer.MAX_VALUE);
            case SIZE_LIMIT -> sizeLimit = longParam(param, 32, DEFAULT_SIZE_LIMIT);
            case SNAPSHOT_RYW_ENABLE -> snapshotRywEnabled++;
            case SNAPSHOT_RYW_DISABLE -> snapshotRywEnabled--;
            case USED_DURING_COMMIT_PROTECTION_DISABLE -> usedDuringCommitProtectionDisabled = true;
            case BYPASS_UNREADABLE -> bypassUnreadable = true;
            case REPORT_CONFLICTING_KEYS -> reportConflictingKeys = true;
            case SPECIAL_KEY_SPACE_RELAXED -> specialKeySpaceRelaxed = true;
            case SPECIAL_KEY_SPACE_ENABLE_WRITES -> specialKeySpaceEnableWrites = true;
            // The read version part is the transaction's (EngineTransaction.options()).
            case INITIALIZE_NEW_DATABASE -> causalWriteRisky = true;
            case LOCK_AWARE -> {
                lockAware = true;
                readOnly = false;
            }
            case READ_LOCK_AWARE -> {
                if (!lockAware) {
                    lockAware = true;
                    readOnly = true;
                }
            }
            // Checked as NativeAPI's Transaction::setOption checks them, though they change no answer here.
            case TRANSACTION_LOGGING_ENABLE -> {
                setDebugTransactionIdentifier(param);
                logTransaction();
            }
            case DEBUG_TRANSACTION_IDENTIFIER -> setDebugTransactionIdentifier(param);
            case LOG_TRANSACTION -> logTransaction();
            case TRANSACTION_LOGGING_MAX_FIELD_LENGTH -> {
                if (longParam(param, -1, Integer.MAX_VALUE) == 0) {
                    throw FdbError.INVALID_OPTION_VALUE.exception("transaction_logging_max_field_length may not be 0");
                }
            }
            case TAG, AUTO_THROTTLE_TAG -> addTag(param);
            case SPAN_PARENT -> {
                if (param == null || param.length != SPAN_CONTEXT_LENGTH) {
                    throw FdbError.INVALID_OPTION_VALUE.exception("span_parent must be a " + SPAN_CONTEXT_LENGTH + "-byte SpanContext");
                }
            }
            // Accepted, no effect on a single-process engine: causal read risk (20, 21), port in
            // address (23), read-ahead (52), durability hints (110, 120, 130), priorities (200, 201),
            // raw access (303), storage quota (304), logging and tracing
            // (401, 406), idempotency (505), caches and read priorities (507-511), proxies (711),
            // clear cost (1000), GRV cache (1101), tokens (2000).
            case 20, 21, 23, 52, 110, 120, 130, 200, 201, 303, 304, 401, 406,
                 505, 507, 508, 509, 510, 511, 711, 1000, 1101, 2000 -> {
            }
            default -> throw FdbError.INVALID_OPTION.exception("unknown transaction option " + code);
        }
        return false;
    }

    /**
     * NativeAPI {@code DEBUG_TRANSACTION_IDENTIFIER}: 1 to 100 bytes, else {@code invalid_option_value};
     * a different identifier than the one already set is {@code client_invalid_operation}.
     */
    private void setDebugTransactionIdentifier(byte[] param) {
        if (param == null || param.length == 0 || param.length > MAX_DEBUG_IDENTIFIER_LENGTH) {
            throw FdbError.INVALID_OPTION_VALUE.exception("debug_transaction_identifier must be 1 to "
                    + MAX_DEBUG_IDENTIFIER_LENGTH + " bytes");
        }
        if (debugTransactionIdentifier != null && !Arrays.equals(debugTransactionIdentifier, param)) {
            throw FdbError.CLIENT_INVALID_OPERATION.exception("debug_transaction_identifier cannot be changed once set");
        }
        debugTransactionIdentifier = param.clone();
    }

    /** NativeAPI {@code LOG_TRANSACTION}: only once the transaction has a debug identifier. */
    private void logTransaction() {
        if (debugTransactionIdentifier == null) {
            throw FdbError.CLIENT_INVALID_OPERATION.exception("debug_transaction_identifier must be set before log_transaction");
        }
    }

    /**
     * {@code TagSet::addTag} (fdbclient/TagThrottle.actor.cpp): a tag longer than 16 bytes is
     * {@code tag_too_long}; with 5 tags already set any further one, even a repeat, is
     * {@code too_many_tags}; a repeat below that is dropped.
     */
    private void addTag(byte[] tag) {
        if (tag == null) {
            throw FdbError.INVALID_OPTION_VALUE.exception("a tag option needs a value");
        }
        if (tag.length > MAX_TAG_LENGTH) {
            throw FdbError.TAG_TOO_LONG.exception();
        }
        if (tags == null) {
            tags = new ArrayList<>(2);
        }
        if (tags.size() >= MAX_TAGS) {
            throw FdbError.TOO_MANY_TAGS.exception();
        }
        for (byte[] t : tags) {
            if (Arrays.equals(t, tag)) {
                return;
            }
        }
        tags.add(tag.clone());
    }

    /** Decodes an option's 8-byte little-endian integer and checks its range. */
    static long longParam(byte[] param, long min, long max) {
        if (param == null || param.length != 8) {
            throw FdbError.INVALID_OPTION_VALUE.exception();
        }
        long v = ByteBuffer.wrap(param).order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (v < min || v > max) {
            throw FdbError.INVALID_OPTION_VALUE.exception("expected a value in [" + min + ", " + max + "], got " + v);
        }
        return v;
    }
}
