package com.apple.foundationdb;

/**
 * FoundationDB 7.3's {@code fdb_error_predicate} (bindings/c/fdb_c.cpp): which errors a retry
 * loop retries, and which leave a commit's outcome unknown. Codes from
 * flow/error_definitions.h; predicate numbers from fdb.options' {@code ErrorPredicate} scope.
 */
final class ErrorPredicates {
    static final int RETRYABLE = 50000;
    static final int MAYBE_COMMITTED = 50001;
    static final int RETRYABLE_NOT_COMMITTED = 50002;

    private ErrorPredicates() {}

    /** The answer for {@code predicate}; false for an unknown predicate, as the C client answers. */
    static boolean test(int predicate, int code) {
        return switch (predicate) {
            case RETRYABLE -> maybeCommitted(code) || retryableNotCommitted(code);
            case MAYBE_COMMITTED -> maybeCommitted(code);
            case RETRYABLE_NOT_COMMITTED -> retryableNotCommitted(code);
            default -> false;
        };
    }

    private static boolean maybeCommitted(int code) {
        return code == 1021      // commit_unknown_result
                || code == 1039; // cluster_version_changed
    }

    private static boolean retryableNotCommitted(int code) {
        return switch (code) {
            case 1020,           // not_committed
                 1007,           // transaction_too_old
                 1009,           // future_version
                 1038,           // database_locked
                 1078,           // grv_proxy_memory_limit_exceeded
                 1042,           // commit_proxy_memory_limit_exceeded
                 1051,           // batch_transaction_throttled
                 1037,           // process_behind
                 1213,           // tag_throttled
                 1223 -> true;   // proxy_tag_throttled
            default -> false;
        };
    }
}
