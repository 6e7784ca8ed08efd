package io.strata.redis.config;

import io.strata.redis.command.GlobPattern;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.RespLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The server's configuration as it is now: every parameter of the {@link ConfigCatalog} with
 * its current value, changed at run time by CONFIG SET with Redis's rules — all values are
 * checked before any is kept, a parameter named twice or immutable refuses the whole request,
 * and when applying one fails (a port already in use) every value goes back.
 *
 * <p>The parameters the server acts on are also kept as a {@link RedisConfig} snapshot
 * ({@link #redisConfig()}) and as the protocol {@link #limits()}, rebuilt on each change.
 *
 * <p>Concurrency: values live in a concurrent map and the snapshots in volatile fields, so
 * readers on any thread see a consistent value per parameter; CONFIG SET itself is
 * synchronized, so two changes do not interleave.
 */
public final class ServerSettings {
    /** Parameters whose value stays what is true of Strata whatever CONFIG SET says. */
    private static final Map<String, String> PINNED = Map.of("appendonly", "no");
    /**
     * Parameters that start at what is true of Strata, whatever Redis's default or the
     * configuration file says, but then keep what CONFIG SET gives them (without effect), as
     * Redis's own tests set {@code save} and read it back.
     */
    private static final Map<String, String> START_AS = Map.of("save", "");
    private static final Set<String> GLOB_CHARACTERS = Set.of("*", "?", "[");

    private final ConfigCatalog catalog;
    private final Map<String, String> values = new ConcurrentHashMap<>();
    private final Map<String, Function<ServerSettings, String>> appliers = new HashMap<>();
    private final String configFile;
    private final boolean durable;
    private final boolean userNamespaces;
    private final String storage;
    private volatile RedisConfig config;
    private volatile RespLimits limits;
    private volatile long slowlogSlowerThan;
    private volatile long latencyMonitorThreshold;
    private volatile long slowlogMaxLength;
    private volatile boolean replicasRequired;
    /**
     * Every value that reads as a number, parsed, by canonical name: {@link #getLong} is on
     * command paths (HSET reads two limits per call), where a catalog lookup and a parse cost
     * more than the command's own checks.
     */
    private volatile Map<String, Long> numbers = Map.of();

    /**
     * Settings from the server's start-up configuration: Redis's defaults, then the core
     * fields of {@code startup}, then its other parameters (refused with
     * {@link IllegalArgumentException} when unknown or invalid, so a bad configuration file
     * stops the start).
     */
    public ServerSettings(RedisConfig startup, String workingDirectory) {
        this.catalog = ConfigCatalog.redis70();
        this.configFile = startup.configFile();
        this.durable = startup.durable();
        this.userNamespaces = startup.userNamespaces();
        this.storage = startup.storage();
        for (ConfigParameter p : catalog.parameters()) {
            values.put(p.name(), PINNED.getOrDefault(p.name(), START_AS.getOrDefault(p.name(), p.defaultValue())));
        }
        values.put("dir", workingDirectory);
        for (Map.Entry<String, String> e : startup.parameters().entrySet()) {
            ConfigParameter p = catalog.lookup(e.getKey());
            if (p == null) {
                throw new IllegalArgumentException("unknown configuration parameter '" + e.getKey() + "'");
            }
            try {
                String v = p.type().canonical(e.getValue(), values.get(p.name()));
                values.put(p.name(), PINNED.getOrDefault(p.name(), START_AS.getOrDefault(p.name(), v)));
            } catch (ConfigException ex) {
                throw new IllegalArgumentException("'" + e.getKey() + " " + e.getValue() + "': " + ex.getMessage());
            }
        }
        values.put("bind", startup.bind());
        values.put("port", Integer.toString(startup.port()));
        values.put("requirepass", startup.requirepass() == null ? "" : startup.requirepass());
        values.put("databases", Integer.toString(startup.databases()));
        values.put("maxclients", Integer.toString(startup.maxclients()));
        values.put("timeout", Integer.toString(startup.timeoutSeconds()));
        rebuildSnapshots();
    }

    /** The value of a parameter (by name or alias) as CONFIG GET prints it. */
    public String get(String name) {
        ConfigParameter p = catalog.lookup(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown parameter " + name);
        }
        return values.get(p.name());
    }

    /** The value of {@code name} as a number; {@link NumberFormatException} if it is not one. */
    public long getLong(String name) {
        Long parsed = numbers.get(name);
        return parsed != null ? parsed : Long.parseLong(get(name));
    }

    public boolean getBool(String name) {
        return get(name).equals("yes");
    }

    /** The parameters the server acts on, as a record. */
    public RedisConfig redisConfig() {
        return config;
    }

    /** The request limits: {@code proto-max-bulk-len} and Redis's fixed ones. */
    public RespLimits limits() {
        return limits;
    }

    /** {@code slowlog-log-slower-than}, read on every command without a lookup. */
    public long slowlogSlowerThan() {
        return slowlogSlowerThan;
    }

    /** {@code latency-monitor-threshold} in milliseconds (0: the monitor is off), read on every command without a lookup. */
    public long latencyMonitorThreshold() {
        return latencyMonitorThreshold;
    }

    /**
     * Whether {@code min-replicas-to-write} and {@code min-replicas-max-lag} are both above 0,
     * read on every command without a lookup ({@link io.strata.redis.command.Replicas}).
     */
    public boolean replicasRequired() {
        return replicasRequired;
    }

    /** {@code slowlog-max-len}. */
    public long slowlogMaxLength() {
        return slowlogMaxLength;
    }

    /** The configuration file the server was started with, or null. */
    public String configFile() {
        return configFile;
    }

    /** Whether acknowledged writes are durable (false for an in-memory database). */
    public boolean durable() {
        return durable;
    }

    /** The Strata storage engine of the database ({@code memory} or {@code ssd}), or null when not known. */
    public String storage() {
        return storage;
    }

    /** The catalog of parameters. */
    public ConfigCatalog catalog() {
        return catalog;
    }

    /**
     * Registers what to do when {@code names} change (rebind the listener for bind and port):
     * the function returns null, or the reason it could not apply the new values. One
     * function registered for several parameters runs once per CONFIG SET.
     */
    public synchronized void onChange(Function<ServerSettings, String> applier, String... names) {
        for (String n : names) {
            appliers.put(catalog.lookup(n).name(), applier);
        }
    }

    /** Records a value the server found for itself (the port it listens on when asked for any). */
    public synchronized void observed(String name, String value) {
        values.put(catalog.lookup(name).name(), value);
        rebuildSnapshots();
    }

    /**
     * CONFIG GET: the parameters matching each pattern (glob, any case; hidden parameters only
     * by exact name), each once, keyed by the name as matched.
     */
    public Map<String, String> matching(List<String> patterns) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pattern : patterns) {
            if (GLOB_CHARACTERS.stream().noneMatch(pattern::contains)) {
                ConfigParameter p = catalog.lookup(pattern);
                if (p != null && !out.containsKey(pattern)) {
                    out.put(pattern, printed(p));
                }
                continue;
            }
            byte[] glob = pattern.getBytes(StandardCharsets.UTF_8);
            for (Map.Entry<String, ConfigParameter> e : catalog.names().entrySet()) {
                ConfigParameter p = e.getValue();
                if (p.has("hidden") || out.containsKey(e.getKey())) {
                    continue;
                }
                if (GlobPattern.matches(glob, e.getKey().getBytes(StandardCharsets.UTF_8), true)) {
                    out.put(e.getKey(), printed(p));
                }
            }
        }
        return out;
    }

    /**
     * CONFIG SET {@code name value [name value ...]}; throws a {@link RedisException} with
     * Redis's message when any is refused, and then nothing changed.
     *
     * @param local whether the request came over a loopback connection (for protected parameters)
     */
    public synchronized void set(List<String> namesAndValues, boolean local) {
        int count = namesAndValues.size() / 2;
        List<ConfigParameter> targets = new ArrayList<>();
        String unknown = null;
        String errorName = null;
        String error = null;
        for (int i = 0; i < count; i++) {
            String name = namesAndValues.get(2 * i);
            ConfigParameter p = catalog.lookup(name);
            if (p == null) {
                if (unknown == null && error == null) {
                    unknown = name;
                }
                continue;
            }
            if (unknown != null || error != null) {
                continue;
            }
            if (p.has("immutable") || (p.has("protected") && !protectedAllowed(local))) {
                error = p.has("immutable") ? "can't set immutable config" : "can't set protected config";
                errorName = name;
                continue;
            }
            if (targets.contains(p)) {
                error = "duplicate parameter";
                errorName = name;
                continue;
            }
            targets.add(p);
        }
        if (unknown != null) {
            throw new RedisException("ERR Unknown option or number of arguments for CONFIG SET - '" + unknown + "'");
        }
        if (error != null) {
            throw failed(errorName, error);
        }
        Map<String, String> old = new HashMap<>();
        Set<Function<ServerSettings, String>> toApply = new LinkedHashSet<>();
        List<String> applierOwners = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            ConfigParameter p = targets.get(i);
            String current = values.get(p.name());
            String next;
            try {
                next = p.type().canonical(namesAndValues.get(2 * i + 1), current);
            } catch (ConfigException e) {
                values.putAll(old);
                throw failed(p.name(), e.getMessage());
            }
            next = PINNED.getOrDefault(p.name(), next);
            old.put(p.name(), current);
            if (!next.equals(current)) {
                values.put(p.name(), next);
                Function<ServerSettings, String> applier = appliers.get(p.name());
                if (applier != null && toApply.add(applier)) {
                    applierOwners.add(p.name());
                }
            }
        }
        rebuildSnapshots();
        int at = 0;
        for (Function<ServerSettings, String> applier : toApply) {
            String failure = applier.apply(this);
            if (failure != null) {
                values.putAll(old);
                rebuildSnapshots();
                for (Function<ServerSettings, String> undo : toApply) {
                    undo.apply(this);
                }
                throw failed(applierOwners.get(at), failure);
            }
            at++;
        }
    }

    /** The parameters whose value differs from the default (CONFIG REWRITE), by canonical name. */
    public Map<String, String> changed() {
        Map<String, String> out = new LinkedHashMap<>();
        for (ConfigParameter p : catalog.parameters()) {
            String v = values.get(p.name());
            if (!v.equals(p.defaultValue()) && !p.name().equals("dir")) {
                out.put(p.name(), printed(p));
            }
        }
        return out;
    }

    /** A value as Redis prints it; only notify-keyspace-events is kept otherwise (see {@link NotifyKeyspaceEvents#canonical}). */
    private String printed(ConfigParameter p) {
        String v = values.get(p.name());
        return p.name().equals("notify-keyspace-events") ? NotifyKeyspaceEvents.printed(v) : v;
    }

    private boolean protectedAllowed(boolean local) {
        String mode = values.get("enable-protected-configs");
        return mode.equals("yes") || (mode.equals("local") && local);
    }

    /** Whether DEBUG may run for a client ({@code enable-debug-command}). */
    public boolean debugAllowed(boolean local) {
        String mode = values.get("enable-debug-command");
        return mode.equals("yes") || (mode.equals("local") && local);
    }

    private static RedisException failed(String name, String reason) {
        return new RedisException("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    private void rebuildSnapshots() {
        String pass = values.get("requirepass");
        config = new RedisConfig(values.get("bind"), Integer.parseInt(values.get("port")), pass.isEmpty() ? null : pass,
                Integer.parseInt(values.get("databases")), (int) Math.min(Integer.MAX_VALUE, Long.parseLong(values.get("maxclients"))),
                Integer.parseInt(values.get("timeout")), configFile, durable, Map.of(), userNamespaces, storage, List.of());
        slowlogSlowerThan = Long.parseLong(values.get("slowlog-log-slower-than"));
        latencyMonitorThreshold = Long.parseLong(values.get("latency-monitor-threshold"));
        slowlogMaxLength = Long.parseLong(values.get("slowlog-max-len"));
        replicasRequired = Long.parseLong(values.get("min-replicas-to-write")) > 0
                && Long.parseLong(values.get("min-replicas-max-lag")) > 0;
        limits = RespLimits.REDIS_DEFAULTS.withMaxBulkBytes(Long.parseLong(values.get("proto-max-bulk-len")))
                .withMaxQueryBytes(Long.parseLong(values.get("client-query-buffer-limit")));
        Map<String, Long> parsed = new HashMap<>();
        values.forEach((name, value) -> {
            if (isNumber(value)) {
                parsed.put(name, Long.parseLong(value));
            }
        });
        numbers = Map.copyOf(parsed);
    }

    /** Whether {@link Long#parseLong} takes {@code value}: an optional sign and up to 18 digits (so no overflow). */
    private static boolean isNumber(String value) {
        int start = value.startsWith("-") || value.startsWith("+") ? 1 : 0;
        if (value.length() == start || value.length() - start > 18) {
            return false;
        }
        for (int i = start; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
