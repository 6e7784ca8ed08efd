package io.strata.redis.config;

/** A value a parameter refuses; the message is Redis's reason, e.g. {@code argument must be 'yes' or 'no'}. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigException(String reason) {
        super(reason, null, false, false);
    }
}
