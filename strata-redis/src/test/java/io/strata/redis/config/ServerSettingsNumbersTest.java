package io.strata.redis.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import io.strata.redis.protocol.RedisException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ServerSettings#getLong} answers from parsed values that follow every change. */
class ServerSettingsNumbersTest {
    private final ServerSettings settings = new ServerSettings(RedisConfig.defaults(), "/tmp");

    @Test
    void readsDefaultsAndChanges() {
        assertThat(settings.getLong("hash-max-listpack-entries")).isEqualTo(512);
        settings.set(List.of("hash-max-listpack-entries", "7"), true);
        assertThat(settings.getLong("hash-max-listpack-entries")).isEqualTo(7);
    }

    @Test
    void aChangeThroughAnAliasIsSeenUnderEitherName() {
        settings.set(List.of("hash-max-ziplist-value", "9"), true);
        assertThat(settings.getLong("hash-max-listpack-value")).isEqualTo(9);
        assertThat(settings.getLong("hash-max-ziplist-value")).isEqualTo(9);
        assertThat(settings.getLong("HASH-MAX-LISTPACK-VALUE")).isEqualTo(9);
    }

    @Test
    void aRefusedChangeLeavesEveryValue() {
        assertThatThrownBy(() -> settings.set(List.of("hash-max-listpack-entries", "5", "hz", "nope"), true))
                .isInstanceOf(RedisException.class);
        assertThat(settings.getLong("hash-max-listpack-entries")).isEqualTo(512);
        assertThat(settings.get("hash-max-listpack-entries")).isEqualTo("512");
    }

    @Test
    void memoryValuesReadAsBytesAndWordsAreNotNumbers() {
        settings.set(List.of("maxmemory", "2kb"), true);
        assertThat(settings.getLong("maxmemory")).isEqualTo(2048);
        assertThatThrownBy(() -> settings.getLong("appendonly")).isInstanceOf(NumberFormatException.class);
    }
}
