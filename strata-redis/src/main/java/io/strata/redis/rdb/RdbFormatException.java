package io.strata.redis.rdb;

/**
 * A DUMP payload whose value cannot be decoded: RESTORE answers it with Redis's
 * {@code ERR Bad data format}. The message says what was wrong, for logs and tests.
 */
public final class RdbFormatException extends RuntimeException {
    public RdbFormatException(String message) {
        super(message);
    }
}
