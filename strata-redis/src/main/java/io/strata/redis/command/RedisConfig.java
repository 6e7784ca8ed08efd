package io.strata.redis.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's start-up settings, named as in {@code redis.conf}. At run time CONFIG SET may
 * change some of them; {@link ServerContext#config()} then returns the current values.
 *
 * @param bind the addresses to listen on, separated by spaces
 * @param port the TCP port (0: any free port)
 * @param requirepass the default user's password, or null for none
 * @param databases how many databases SELECT may choose (16)
 * @param maxclients connections accepted at once (10,000)
 * @param timeoutSeconds close a connection idle this long (0: never)
 * @param configFile the configuration file the settings came from (CONFIG REWRITE writes it), or null
 * @param durable whether an acknowledged write survives a crash (false for an in-memory database),
 *     as INFO persistence reports it
 * @param parameters other {@code redis.conf} parameters by name, applied at start
 *     ({@code io.strata.redis.config.ConfigCatalog} lists them)
 * @param userNamespaces whether each ACL user but {@code default} has a keyspace of its own
 *     (kvdb's multi-tenancy; {@code --user-namespaces}); not a {@code redis.conf} parameter
 * @param storage the Strata storage engine the database keeps its data in ({@code memory} or
 *     {@code ssd}), as INFO persistence reports it; null when not known (a FoundationDB cluster)
 * @param users ACL users as {@code redis.conf}'s {@code user} lines declare them: each a name
 *     followed by its rules, applied at start to a user reset first (so the line says all of it)
 */
public record RedisConfig(String bind, int port, String requirepass, int databases, int maxclients, int timeoutSeconds,
                          String configFile, boolean durable, Map<String, String> parameters, boolean userNamespaces,
                          String storage, List<List<String>> users) {
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
        parameters = Map.copyOf(parameters);
        users = List.copyOf(users);
    }

    /** The six core settings; no configuration file, durable, no other parameters. */
    public RedisConfig(String bind, int port, String requirepass, int databases, int maxclients, int timeoutSeconds) {
        this(bind, port, requirepass, databases, maxclients, timeoutSeconds, null, true, Map.of(), false, null, List.of());
    }

    /** Redis's defaults: 127.0.0.1:6379, no password, 16 databases, 10,000 clients, no idle timeout. */
    public static RedisConfig defaults() {
        return new RedisConfig("127.0.0.1", 6379, null, 16, 10_000, 0);
    }

    public RedisConfig withPort(int p) {
        return new RedisConfig(bind, p, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withBind(String b) {
        return new RedisConfig(b, port, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withRequirepass(String p) {
        return new RedisConfig(bind, port, p, databases, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withDatabases(int d) {
        return new RedisConfig(bind, port, requirepass, d, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withMaxclients(int m) {
        return new RedisConfig(bind, port, requirepass, databases, m, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withTimeout(int seconds) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, seconds, configFile, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withConfigFile(String file) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, file, durable, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withDurable(boolean d) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, configFile, d, parameters, userNamespaces, storage, users);
    }

    public RedisConfig withUserNamespaces(boolean on) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, parameters, on, storage, users);
    }

    public RedisConfig withStorage(String s) {
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, s, users);
    }

    /** With one more {@code user} line: {@code rules[0]} the name, the rest its ACL rules (checked when the server starts). */
    public RedisConfig withUser(List<String> line) {
        List<List<String>> u = new ArrayList<>(users);
        u.add(List.copyOf(line));
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, parameters, userNamespaces, storage, u);
    }

    /** With one more {@code redis.conf} parameter (checked when the server starts). */
    public RedisConfig withParameter(String name, String value) {
        Map<String, String> p = new LinkedHashMap<>(parameters);
        p.put(name, value);
        return new RedisConfig(bind, port, requirepass, databases, maxclients, timeoutSeconds, configFile, durable, p, userNamespaces, storage, users);
    }
}
