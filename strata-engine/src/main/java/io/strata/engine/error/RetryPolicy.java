package io.strata.engine.error;

import com.apple.foundationdb.FDBException;

/**
 * FoundationDB's error predicates, evaluated in Java.
 *
 * <p>{@link FDBException#isRetryable()} and its siblings call into the native client
 * ({@code FDB.evalErrorPredicate}), which the engine must never load; these are the same
 * predicates as {@code fdb_error_predicate} in {@code bindings/c/fdb_c.cpp}.
 */
public final class RetryPolicy {
    private RetryPolicy() {}

    /** Errors after which the transaction may or may not have committed. */
    public static boolean isMaybeCommitted(int code) {
        return code == 1021 /* commit_unknown_result */ || code == 1039 /* cluster_version_changed */;
    }

    /** Errors after which the transaction certainly did not commit and a retry is safe. */
    public static boolean isRetryableNotCommitted(int code) {
        switch (code) {
            case 1007: // transaction_too_old
            case 1009: // future_version
            case 1020: // not_committed
            case 1037: // process_behind
            case 1038: // database_locked
            case 1042: // commit_proxy_memory_limit_exceeded
            case 1051: // batch_transaction_throttled
            case 1078: // grv_proxy_memory_limit_exceeded
            case 1213: // tag_throttled
            case 1223: // proxy_tag_throttled
            case 1235: // transaction_throttled_hot_shard
                return true;
            default:
                return false;
        }
    }

    /** Errors that {@code onError} retries. */
    public static boolean isRetryable(int code) {
        return isMaybeCommitted(code) || isRetryableNotCommitted(code);
    }

    public static boolean isRetryable(Throwable t) {
        return t instanceof FDBException && isRetryable(((FDBException) t).getCode());
    }
}
