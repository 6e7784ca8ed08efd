package io.strata.redis.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CONFIG REWRITE: brings a {@code redis.conf} up to date with the running configuration. A
 * directive the file already has gets the current value in place (comments and order stay);
 * parameters changed from their defaults that the file lacks are appended; a directive whose
 * parameter is back at its default is kept with the default value. The new file replaces the
 * old one atomically (written beside it, then moved), so a crash leaves one or the other.
 */
public final class ConfigFileRewriter {
    private ConfigFileRewriter() {
    }

    /** Rewrites {@code file} with {@code changed} (canonical names, values as CONFIG GET prints them). */
    public static void rewrite(Path file, Map<String, String> changed) throws IOException {
        ConfigCatalog catalog = ConfigCatalog.redis70();
        List<String> lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : new ArrayList<>();
        Map<String, String> pending = new LinkedHashMap<>(changed);
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                out.add(line);
                continue;
            }
            String directive = trimmed.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
            ConfigParameter p = catalog.lookup(directive);
            if (p == null) {
                out.add(line);
                continue;
            }
            String value = pending.containsKey(p.name()) ? pending.remove(p.name()) : changed.getOrDefault(p.name(), null);
            if (value == null) {
                value = p.defaultValue();
            }
            out.add(directive + " " + quote(value));
        }
        if (!pending.isEmpty()) {
            out.add("# Written by CONFIG REWRITE");
            pending.forEach((name, value) -> out.add(name + " " + quote(value)));
        }
        Path temp = file.resolveSibling(file.getFileName() + ".rewrite");
        Files.write(temp, out, StandardCharsets.UTF_8);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String quote(String value) {
        if (!value.isEmpty() && !value.contains("\"") && !value.contains(" ")) {
            return value;
        }
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
