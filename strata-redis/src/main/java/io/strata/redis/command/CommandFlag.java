package io.strata.redis.command;

/** Redis 7.0's command flags, as {@code COMMAND INFO} lists them (lower case there). */
public enum CommandFlag {
    WRITE, READONLY, DENYOOM, ADMIN, PUBSUB, NOSCRIPT, BLOCKING, LOADING, STALE, SKIP_MONITOR,
    SKIP_SLOWLOG, ASKING, FAST, NO_AUTH, MAY_REPLICATE, NO_MANDATORY_KEYS, NO_MULTI, MOVABLE_KEYS,
    ALLOW_BUSY;

    /** The name {@code COMMAND INFO} prints. */
    public String wireName() {
        return this == MOVABLE_KEYS ? "movablekeys" : name().toLowerCase(java.util.Locale.ROOT);
    }
}
