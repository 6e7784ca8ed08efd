package io.strata.engine.error;

import com.apple.foundationdb.FDBException;

/**
 * The FoundationDB error codes the engine raises, with FoundationDB's own messages
 * (from {@code flow/include/flow/error_definitions.h}), so that code written for a real
 * cluster sees the same {@link FDBException#getCode()} and text.
 */
public enum FdbError {
    OPERATION_FAILED(1000, "Operation failed"),
    TRANSACTION_TOO_OLD(1007, "Transaction is too old to perform reads or be committed"),
    FUTURE_VERSION(1009, "Request for future version"),
    NOT_COMMITTED(1020, "Transaction not committed due to conflict with another transaction"),
    COMMIT_UNKNOWN_RESULT(1021, "Transaction may or may not have committed"),
    TRANSACTION_CANCELLED(1025, "Operation aborted because the transaction was cancelled"),
    TRANSACTION_TIMED_OUT(1031, "Operation aborted because the transaction timed out"),
    TOO_MANY_WATCHES(1032, "Too many watches currently set"),
    WATCHES_DISABLED(1034, "Watches cannot be set if read your writes is disabled"),
    ACCESSED_UNREADABLE(1036, "Read or wrote an unreadable key"),
    OPERATION_CANCELLED(1101, "Asynchronous operation cancelled"),
    COMMIT_PROXY_MEMORY_LIMIT_EXCEEDED(1042, "CommitProxy commit memory limit exceeded"),
    STORAGE_QUOTA_EXCEEDED(1225, "Exceeded the maximum storage quota allocated to the tenant."),
    IO_ERROR(1510, "Disk i/o operation failed"),
    CLIENT_INVALID_OPERATION(2000, "Invalid API call"),
    KEY_OUTSIDE_LEGAL_RANGE(2004, "Key outside legal range"),
    INVERTED_RANGE(2005, "Range begin key larger than end key"),
    INVALID_OPTION_VALUE(2006, "Option set with an invalid value"),
    INVALID_OPTION(2007, "Option not valid in this context"),
    READ_VERSION_ALREADY_SET(2010, "Transaction already has a read version set"),
    VERSION_INVALID(2011, "Version not valid"),
    RANGE_LIMITS_INVALID(2012, "Range limits not valid"),
    USED_DURING_COMMIT(2017, "Operation issued while a commit was outstanding"),
    INVALID_MUTATION_TYPE(2018, "Unrecognized atomic mutation type"),
    TRANSACTION_INVALID_VERSION(2020, "Transaction does not have a valid commit version"),
    NO_COMMIT_VERSION(2021, "Transaction is read-only and therefore does not have a commit version"),
    TRANSACTION_READ_ONLY(2023, "Attempted to commit a transaction specified as read-only"),
    // getMappedRange (raised by the storage server's mapper and by RYW; see MappedRangeRead)
    MAPPER_BAD_INDEX(2030, "The index in K[] or V[] is not a valid number or out of range"),
    /** FoundationDB's name keeps its misspelling ({@code mapper_bad_range_decriptor}). */
    MAPPER_BAD_RANGE_DECRIPTOR(2032, "\"{...}\" must be the last element of the mapper tuple"),
    GET_MAPPED_RANGE_READS_YOUR_WRITES(2039, "getMappedRange tries to read data that were previously written in the transaction"),
    KEY_NOT_TUPLE(2041, "The key cannot be parsed as a tuple"),
    VALUE_NOT_TUPLE(2042, "The value cannot be parsed as a tuple"),
    MAPPER_NOT_TUPLE(2043, "The mapper cannot be parsed as a tuple"),
    TRANSACTION_TOO_LARGE(2101, "Transaction exceeds byte limit"),
    KEY_TOO_LARGE(2102, "Key length exceeds limit"),
    VALUE_TOO_LARGE(2103, "Value length exceeds limit"),
    UNSUPPORTED_OPERATION(2108, "Operation is not supported"),
    TOO_MANY_TAGS(2109, "Too many tags set on transaction"),
    TAG_TOO_LONG(2110, "Tag set on transaction is too long"),
    SPECIAL_KEYS_CROSS_MODULE_READ(2112, "Special key space range read crosses modules. Refer to the "
            + "`special_key_space_relaxed' transaction option for more details."),
    SPECIAL_KEYS_NO_MODULE_FOUND(2113, "Special key space range read does not intersect a module. Refer to the "
            + "`special_key_space_relaxed' transaction option for more details."),
    SPECIAL_KEYS_WRITE_DISABLED(2114, "Special Key space is not allowed to write by default. Refer to the "
            + "`special_key_space_enable_writes` transaction option for more details."),
    SPECIAL_KEYS_NO_WRITE_MODULE_FOUND(2115, "Special key space key or keyrange in set or clear does not intersect a module"),
    SPECIAL_KEYS_CROSS_MODULE_CLEAR(2116, "Special key space clear crosses modules"),
    SPECIAL_KEYS_API_FAILURE(2117, "Api call through special keys failed. For more information, call get on special key "
            + "0xff0xff/error_message to get a json string of the error message."),
    TENANTS_DISABLED(2136, "Tenants have been disabled in the cluster"),
    EXACT_MODE_WITHOUT_LIMITS(2210, "EXACT streaming mode requires limits, but none were given"),
    INTERNAL_ERROR(4100, "An internal error occurred");

    private final int code;
    private final String message;

    FdbError(int code, String message) {
        this.code = code;
        this.message = message;
    }

    public int code() {
        return code;
    }

    public String message() {
        return message;
    }

    /** A fresh exception with FoundationDB's code and message. */
    public FDBException exception() {
        return new FDBException(message, code);
    }

    /** A fresh exception whose message adds engine detail after FoundationDB's text. */
    public FDBException exception(String detail) {
        return new FDBException(message + ": " + detail, code);
    }
}
