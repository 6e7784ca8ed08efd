package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** redis.conf's {@code user} lines: each user exactly as its line declares it, in force before the first connection. */
class ConfiguredUsersTest {
    @Test
    void declaredUsersAreInForceFromTheStart() throws Exception {
        RedisConfig config = RedisConfig.defaults()
                .withUser(List.of("alice", "on", ">secret", "~cache:*", "+get", "+set"))
                .withUser(List.of("default", "on", "nopass", "~*", "&*", "+@all", "-set"));
        try (RunningServer server = RunningServer.start(config); Jedis jedis = server.jedis(); Jedis alice = server.jedis()) {
            assertThatThrownBy(() -> jedis.set("k", "v")).hasMessageContaining("NOPERM");
            alice.auth("alice", "secret");
            assertThat(alice.set("cache:1", "v")).isEqualTo("OK");
            assertThat(alice.get("cache:1")).isEqualTo("v");
            assertThatThrownBy(() -> alice.get("other")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> alice.del("cache:1")).hasMessageContaining("NOPERM");
        }
    }

    @Test
    void aBadRuleStopsTheStartNamingTheUser() {
        RedisConfig config = RedisConfig.defaults().withUser(List.of("bob", "on", "+nosuchcommand"));
        assertThatThrownBy(() -> RunningServer.start(config)).hasMessageContaining("Error in user declaration 'bob'");
    }
}
