package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ExpiryOption;

/** EXPIRE's options and checks, KEYS's pattern matching, as unit/expire and unit/keyspace pin them. */
class KeyExpiryCommandsTest {
    private RunningServer server;
    private Jedis jedis;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterEach
    void stop() {
        jedis.close();
        server.close();
    }

    @Test
    void optionsAreCheckedBeforeTheAmount() {
        jedis.set("k", "v");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "EXPIRE".getBytes(), "k", "abc", "XY"))
                .hasMessage("ERR Unsupported option XY");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "EXPIRE".getBytes(), "k", "abc", "NX", "GT"))
                .hasMessage("ERR NX and XX, GT or LT options at the same time are not compatible");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "EXPIRE".getBytes(), "k", "abc"))
                .hasMessage("ERR value is not an integer or out of range");
    }

    @Test
    void ltAndGtAgainstAKeyWithoutExpiry() {
        jedis.set("k", "v");
        assertThat(jedis.expire("k", 100, ExpiryOption.GT)).isZero();
        assertThat(jedis.ttl("k")).isEqualTo(-1);
        assertThat(jedis.expire("k", 100, ExpiryOption.LT)).isEqualTo(1);
        assertThat(jedis.ttl("k")).isEqualTo(100);
        assertThat(jedis.expire("k", 200, ExpiryOption.LT)).isZero();
        assertThat(jedis.expire("k", 200, ExpiryOption.GT)).isEqualTo(1);
        jedis.set("k2", "v");
        assertThat(jedis.pexpireAt("k2", Long.MAX_VALUE, ExpiryOption.LT)).isEqualTo(1);
    }

    @Test
    void overflowingAmountsAreRefused() {
        jedis.set("k", "v");
        assertThatThrownBy(() -> jedis.expire("k", 9223370399119966L)).hasMessage("ERR invalid expire time in 'expire' command");
        assertThatThrownBy(() -> jedis.expire("k", -9223372036854776L)).hasMessage("ERR invalid expire time in 'expire' command");
        assertThatThrownBy(() -> jedis.pexpire("k", 9223372036854770000L)).hasMessage("ERR invalid expire time in 'pexpire' command");
        assertThat(jedis.ttl("k")).isEqualTo(-1);
        assertThat(jedis.pexpireAt("k", -9223372036854770000L)).isEqualTo(1);
        assertThat(jedis.exists("k")).isFalse();
    }

    @Test
    void keysWithAPathologicalPatternAnswersQuickly() {
        jedis.set("a".repeat(40), "1");
        long t = System.nanoTime();
        assertThat(jedis.keys("a*".repeat(20) + "b")).isEmpty();
        assertThat(System.nanoTime() - t).isLessThan(2_000_000_000L);
        assertThat(jedis.keys("a*a*a")).hasSize(1);
    }
}
