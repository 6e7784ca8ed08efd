package io.strata.redis.command;

/**
 * The server's settings, named as in {@code redis.conf}.
 *
 * @param bind the address to listen on
 * @param port the TCP port (0: any free port)
 * @param requirepass the default user's password, or null for none
 * @param databases how many databases SELECT may choose (16)
 * @param maxclients connections accepted at once (10,000)
 * @param timeoutSeconds close a connection idle this long (0: never)
 */
public record RedisConfig(String bind, int port, String requirepass, int databases, int maxclients, int timeoutSeconds) {
    public static final int MAX_DATABASES = 65_536;

    public RedisConfig {
        if (databases < 1 || databases > MAX_DATABASES) {
            throw new IllegalArgumentException("databases must be between 1 and " + MAX_DATABASES + ": " + databases);
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (maxclients < 1) {
            throw new IllegalArgumentException("maxclients must be at least 1: " + maxclients);
        }
    }

    /** Redis's defaults: 127.0.0.1:6379, no password, 16 databases, 10,000 clients, no idle timeout. */
    public static RedisConfig defaults() {
        return new RedisConfig("127.0.0.1", 6379, null, 16, 10_000, 0);
    }

    public RedisConfig withPort(int p) {
        return new RedisConfig(bind, p, requirepass, databases, maxclients, timeoutSeconds);
    }

    public RedisConfig withBind(String b) {
        return new RedisConfig(b, port, requirepass, databases, maxclients, timeoutSeconds);
    }

    public RedisConfig withRequirepass(String p) {
        return new RedisConfig(bind, port, p, databases, maxclients, timeoutSeconds);
    }

    public RedisConfig withDatabases(int d) {
        return new RedisConfig(bind, port, requirepass, d, maxclients, timeoutSeconds);
    }

    public RedisConfig withMaxclients(int m) {
        return new RedisConfig(bind, port, requirepass, databases, m, timeoutSeconds);
    }

    public RedisConfig withTimeout(int seconds) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, seconds);
    }
}
