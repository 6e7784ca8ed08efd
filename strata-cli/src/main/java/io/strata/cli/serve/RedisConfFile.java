package io.strata.cli.serve;

import io.strata.Storage;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.config.ConfigCatalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Reads a {@code redis.conf}: {@code port}, {@code bind}, {@code requirepass}, {@code databases},
 * {@code maxclients} and {@code timeout} set the server's core settings; {@code user} lines
 * declare ACL users (each applied at start to the user reset first, as Redis loads them);
 * any other Redis 7.0
 * parameter the server knows (its {@code ConfigCatalog}) is passed on and checked when the
 * server starts (CONFIG GET reports it; docs/redis.md says which ones take effect). Lines are
 * {@code directive value}, {@code #} starts a comment; {@code daemonize}, {@code supervised},
 * {@code pidfile} and {@code logfile} are accepted and ignored (the server runs in the
 * foreground and logs to its output); {@code storage memory|ssd} is Strata's, the storage engine
 * of a new database directory (as {@code --storage}); any other directive is an error naming
 * the line, so a typo is not silently dropped. The file is the one CONFIG REWRITE writes back
 * (it keeps the {@code storage} line as it is).
 */
final class RedisConfFile {
    private static final List<String> IGNORED = List.of("daemonize", "logfile", "supervised", "pidfile");

    private RedisConfFile() {
    }

    /**
     * What a file says.
     *
     * @param settings the server's settings: {@code base} with the file's
     * @param storage  the storage its {@code storage} directive asks for, or null when it has none
     */
    record Read(RedisConfig settings, Storage storage) {}

    static Read read(Path file, RedisConfig base) throws IOException {
        RedisConfig c = base.withConfigFile(file.toAbsolutePath().toString());
        Storage storage = null;
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+", 2);
            String directive = parts[0].toLowerCase(Locale.ROOT);
            String value = parts.length > 1 ? unquote(parts[1].trim()) : "";
            try {
                switch (directive) {
                    case "port": c = c.withPort(Integer.parseInt(value)); break;
                    case "bind": c = c.withBind(value.split("\\s+")[0]); break;
                    case "requirepass": c = c.withRequirepass(value.isEmpty() ? null : value); break;
                    case "databases": c = c.withDatabases(Integer.parseInt(value)); break;
                    case "maxclients": c = c.withMaxclients(Integer.parseInt(value)); break;
                    case "timeout": c = c.withTimeout(Integer.parseInt(value)); break;
                    case "user": {
                        // user <name> [rule ...]: an ACL user, defined whole at start (Redis's ACLSetUser on a new user).
                        List<String> words = parts.length > 1 ? List.of(parts[1].trim().split("\\s+")) : List.of();
                        if (words.isEmpty() || words.get(0).isEmpty()) {
                            throw new IllegalArgumentException("user: a name is needed, as in 'user alice on >password ~* +@all'");
                        }
                        c = c.withUser(words.stream().map(RedisConfFile::unquote).toList());
                        break;
                    }
                    case "storage":
                        try {
                            storage = Storage.fromLabel(value);
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException("storage: expected memory or ssd, got '" + value + "'");
                        }
                        break;
                    default:
                        if (ConfigCatalog.redis70().lookup(directive) != null && !IGNORED.contains(directive)) {
                            c = c.withParameter(directive, value);
                        } else if (!IGNORED.contains(directive)) {
                            throw new IllegalArgumentException("unsupported directive '" + parts[0] + "'");
                        }
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
            }
        }
        return new Read(c, storage);
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
