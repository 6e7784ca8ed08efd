package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.SortingParams;

/**
 * SORT and SORT_RO over TCP, as far as this branch can feed them: parsing, missing and
 * wrongly typed keys, STORE of an empty result. Ordering itself is pinned by SortEngineTest.
 */
class SortCommandTest {
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
    void aMissingKeySortsAsEmpty() {
        assertThat(jedis.sort("missing")).isEmpty();
        assertThat(jedis.sort("missing", new SortingParams().by("w_*").get("#", "v_*").limit(0, 10).desc().alpha())).isEmpty();
        assertThat(jedis.sortReadonly("missing", new SortingParams().asc())).isEmpty();
    }

    @Test
    void storeOfAnEmptyResultDeletesTheDestination() {
        jedis.setex("dest", 100, "old");
        assertThat(jedis.sort("missing", "dest")).isZero();
        assertThat(jedis.exists("dest")).isFalse();
        assertThat(jedis.sort("missing", "dest")).isZero();
    }

    @Test
    void aStringIsTheWrongType() {
        jedis.set("s", "1");
        assertThatThrownBy(() -> jedis.sort("s")).hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThatThrownBy(() -> jedis.sortReadonly("s", new SortingParams())).hasMessageStartingWith("WRONGTYPE");
    }

    @Test
    void syntaxErrors() {
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SORT".getBytes(), "k", "FOO")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SORT".getBytes(), "k", "LIMIT", "1")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SORT".getBytes(), "k", "LIMIT", "a", "1"))
                .hasMessage("ERR value is not an integer or out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SORT_RO".getBytes(), "k", "STORE", "d")).hasMessage("ERR syntax error");
        // Syntax comes before the key's type.
        jedis.set("s", "1");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SORT".getBytes(), "s", "BY")).hasMessage("ERR syntax error");
    }
}
