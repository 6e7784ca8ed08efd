package io.strata.redis.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every configuration parameter the server knows, read once from the resource
 * {@code redis-7.0-parameters.txt} beside this class (its header gives the format and says
 * which parameters take effect).
 *
 * <p>Concurrency: immutable after loading; shared through the class-holder idiom.
 */
public final class ConfigCatalog {
    private static final String RESOURCE = "redis-7.0-parameters.txt";

    /** By name and by alias. */
    private final Map<String, ConfigParameter> byName;
    private final Map<String, ConfigParameter> parameters;

    private ConfigCatalog(Map<String, ConfigParameter> parameters) {
        this.parameters = Collections.unmodifiableMap(parameters);
        Map<String, ConfigParameter> all = new TreeMap<>(parameters);
        for (ConfigParameter p : parameters.values()) {
            if (p.alias() != null) {
                all.put(p.alias(), p);
            }
        }
        this.byName = Collections.unmodifiableMap(all);
    }

    public static ConfigCatalog redis70() {
        return Holder.INSTANCE;
    }

    private static final class Holder {
        static final ConfigCatalog INSTANCE = load();
    }

    /** The parameter called {@code name} (or that has it as alias), any case; null if none. */
    public ConfigParameter lookup(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every parameter, by canonical name. */
    public Collection<ConfigParameter> parameters() {
        return parameters.values();
    }

    /** Every name CONFIG GET patterns match against: canonical names and aliases. */
    public Map<String, ConfigParameter> names() {
        return byName;
    }

    private static ConfigCatalog load() {
        Map<String, ConfigParameter> parameters = new TreeMap<>();
        try (InputStream in = ConfigCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int n = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\|", -1);
                if (f.length != 5) {
                    throw new IllegalStateException(RESOURCE + " line " + n + ": expected 5 fields");
                }
                String name = f[0].trim();
                String alias = f[1].trim().equals("-") ? null : f[1].trim();
                Set<String> flags = new HashSet<>(ParameterTypes.words(f[3].trim().equals("-") ? "" : f[3]));
                String dflt = f[4].startsWith(" ") ? f[4].substring(1) : f[4];
                parameters.put(name, new ConfigParameter(name, alias, ParameterTypes.of(f[2].trim()), flags, dflt));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ConfigCatalog(parameters);
    }
}
