package io.strata.redis.rdb;

/**
 * A well-formed DUMP payload of a kind this server cannot hold (a stream, a module value):
 * RESTORE refuses it with a message that says so, rather than Redis's bare "Bad data format".
 */
public final class UnsupportedValueException extends RuntimeException {
    public UnsupportedValueException(String message) {
        super(message);
    }
}
