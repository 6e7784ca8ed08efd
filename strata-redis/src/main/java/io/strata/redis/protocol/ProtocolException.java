package io.strata.redis.protocol;

/**
 * Input that is not RESP: the server answers with {@link #getMessage()} as an error reply and
 * closes the connection, as Redis does ({@code CLIENT_CLOSE_AFTER_REPLY}); or, for a
 * {@linkplain #silent silent} one (the query buffer limit), closes without a reply.
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean replies;

    ProtocolException(String reasonAfterPrefix) {
        super("ERR Protocol error: " + reasonAfterPrefix, null, false, false);
        this.replies = true;
    }

    private ProtocolException(String reason, boolean replies) {
        super(reason, null, false, false);
        this.replies = replies;
    }

    /** A reason to close the connection without answering. */
    static ProtocolException silent(String reason) {
        return new ProtocolException(reason, false);
    }

    /** Whether the client gets {@link #getMessage()} as an error before the connection closes. */
    public boolean replies() {
        return replies;
    }
}
