package io.strata.redis.config;

/**
 * How a configuration parameter reads a value: {@link #canonical} checks a value as Redis's
 * CONFIG SET does and returns it as CONFIG GET will print it ({@code 1kb} → {@code 1024},
 * {@code YES} → {@code yes}). {@code current} is the parameter's value now, for types that
 * update part of it (client-output-buffer-limit sets only the classes it names).
 */
@FunctionalInterface
public interface ParameterType {
    String canonical(String value, String current) throws ConfigException;
}
