package io.strata.redis.config;

import java.util.Set;

/**
 * One configuration parameter.
 *
 * @param name its name, lower case
 * @param alias its other name (Redis's old names: {@code slaveof}, {@code hash-max-ziplist-entries}), or null
 * @param type how it reads values
 * @param flags {@code immutable}, {@code protected}, {@code hidden}, {@code sensitive}, {@code deny-loading}
 * @param defaultValue its value when nothing set it, as CONFIG GET prints it
 */
public record ConfigParameter(String name, String alias, ParameterType type, Set<String> flags, String defaultValue) {

    public ConfigParameter {
        flags = Set.copyOf(flags);
    }

    public boolean has(String flag) {
        return flags.contains(flag);
    }
}
