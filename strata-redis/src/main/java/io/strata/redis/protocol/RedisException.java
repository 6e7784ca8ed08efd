package io.strata.redis.protocol;

/**
 * A command's error reply, thrown from anywhere in the command's work. Its message is the
 * whole reply line after {@code -}, starting with Redis's error code ({@code ERR},
 * {@code WRONGTYPE}, {@code NOAUTH}, {@code EXECABORT} …), because clients and tests match
 * on it. Thrown inside a transaction it also abandons the transaction's writes, so a failing
 * command changes nothing.
 */
public final class RedisException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RedisException(String message) {
        super(message, null, false, false);
    }

    /** {@code ERR syntax error}. */
    public static RedisException syntax() {
        return new RedisException("ERR syntax error");
    }

    /** The reply to an operation on a key of another type. */
    public static RedisException wrongType() {
        return new RedisException(WRONGTYPE);
    }

    public static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    public static final String NOT_FLOAT = "ERR value is not a valid float";
}
