package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.command.RedisConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** AUTH and HELLO AUTH with requirepass, as Redis's unit/auth checks them (it skips them against an external server). */
class AuthTest {

    @Test
    void withoutAPasswordAuthSaysSo() throws Exception {
        try (RunningServer server = RunningServer.start(); Jedis j = server.jedis()) {
            assertThatThrownBy(() -> j.auth("foo")).hasMessageStartingWith("ERR AUTH <password> called without any password configured");
            assertThatThrownBy(() -> Raw.call(j, "AUTH", "a", "b", "c")).hasMessage("ERR syntax error");
            assertThat(j.auth("default", "anything")).isEqualTo("OK");
        }
    }

    @Test
    void withAPasswordEverythingButAuthWaits() throws Exception {
        try (RunningServer server = RunningServer.start(RedisConfig.defaults().withRequirepass("foobar")); Jedis j = server.jedis()) {
            assertThatThrownBy(() -> j.auth("wrong!")).hasMessage("WRONGPASS invalid username-password pair or user is disabled.");
            assertThatThrownBy(() -> j.set("foo", "bar")).hasMessage("NOAUTH Authentication required.");
            assertThatThrownBy(() -> j.auth("someone", "foobar")).hasMessageStartingWith("WRONGPASS");
            assertThat(j.auth("foobar")).isEqualTo("OK");
            assertThat(j.set("foo", "100")).isEqualTo("OK");
            assertThat(j.incr("foo")).isEqualTo(101);
            assertThat(Raw.call(j, "RESET")).isEqualTo("RESET");
            assertThatThrownBy(j::ping).hasMessageStartingWith("NOAUTH");
            List<Object> hello = Raw.list(Raw.call(j, "HELLO", "2", "AUTH", "default", "foobar"));
            assertThat(hello.subList(0, 4)).containsExactly("server", "redis", "version", "7.0.15");
            assertThat(j.ping()).isEqualTo("PONG");
        }
    }
}
