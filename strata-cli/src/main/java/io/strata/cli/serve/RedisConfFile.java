package io.strata.cli.serve;

import io.strata.redis.command.RedisConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The part of {@code redis.conf} that applies here: {@code port}, {@code bind},
 * {@code requirepass}, {@code databases}, {@code maxclients}, {@code timeout}. Lines are
 * {@code directive value}, {@code #} starts a comment; persistence directives ({@code save},
 * {@code appendonly}, {@code appendfsync}, {@code dir}, {@code dbfilename}) are accepted and
 * ignored because every write is already durable; any other directive is an error naming the
 * line, so a typo is not silently dropped.
 */
final class RedisConfFile {
    private static final List<String> IGNORED = List.of("save", "appendonly", "appendfsync", "dir", "dbfilename",
            "daemonize", "protected-mode", "loglevel", "logfile", "tcp-keepalive", "supervised", "pidfile");

    private RedisConfFile() {
    }

    static RedisConfig read(Path file, RedisConfig base) throws IOException {
        RedisConfig c = base;
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
                    default:
                        if (!IGNORED.contains(directive)) {
                            throw new IllegalArgumentException("unsupported directive '" + parts[0] + "'");
                        }
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (n + 1) + ": " + e.getMessage(), e);
            }
        }
        return c;
    }

    private static String unquote(String v) {
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
