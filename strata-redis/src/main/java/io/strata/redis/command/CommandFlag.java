package io.strata.redis.command;

/**
 * Redis 7.0's command flags, in the order {@code COMMAND INFO} lists them (lower case there).
 * {@link #MAY_REPLICATE} and {@link #PROTECTED} are real flags that Redis does not show.
 */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
    SKIP_SLOWLOG, ASKING, FAST, NO_AUTH, MAY_REPLICATE, NO_MANDATORY_KEYS, NO_ASYNC_LOADING, NO_MULTI,
    MOVABLE_KEYS, ALLOW_BUSY,
    /** Refused unless {@code enable-debug-command} (or its sibling) allows it (DEBUG, MODULE). */
    PROTECTED;

    /** The name {@code COMMAND INFO} prints. */
    public String wireName() {
        return this == MOVABLE_KEYS ? "movablekeys" : name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether {@code COMMAND INFO} shows the flag (Redis hides may_replicate and protected). */
    public boolean shown() {
        return this != MAY_REPLICATE && this != PROTECTED;
    }
}
