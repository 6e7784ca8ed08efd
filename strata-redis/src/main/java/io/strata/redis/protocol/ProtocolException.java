package io.strata.redis.protocol;

/**
 * Input that is not RESP: the server answers with {@link #getMessage()} as an error reply and
 * closes the connection, as Redis does ({@code CLIENT_CLOSE_AFTER_REPLY}).
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String reasonAfterPrefix) {
        super("ERR Protocol error: " + reasonAfterPrefix, null, false, false);
    }
}
