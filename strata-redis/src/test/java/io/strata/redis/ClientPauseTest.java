package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.util.concurrent.TimeUnit;

/**
 * CLIENT PAUSE and UNPAUSE over TCP, as Redis 7.0's pause unit checks them: which commands
 * WRITE holds (writes, may-replicate commands, EXEC of them, scripts that may write) and which
 * it lets through, held clients counted as blocked, the pause's end on the server's clock, and
 * active expiry stopped meanwhile.
 */
class ClientPauseTest extends SharedServerTestSupport {

    @AfterEach
    void unpause() {
        jedis.clientUnpause();
        jedis.flushAll();
    }

    private static long blockedClients() {
        String info = jedis.info("clients");
        int at = info.indexOf("blocked_clients:") + "blocked_clients:".length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)));
    }

    private static void waitForBlocked(long n) throws InterruptedException {
        for (int i = 0; i < 200 && blockedClients() != n; i++) {
            Thread.sleep(10);
        }
        assertThat(blockedClients()).isEqualTo(n);
    }

    @Test
    void writePauseHoldsWritesUntilUnpauseAndLetsReadsThrough() throws Exception {
        jedis.set("k", "v");
        assertThat(Raw.call(jedis, "CLIENT", "PAUSE", "100000", "WRITE")).isEqualTo("OK");
        try (RespClient c = new RespClient(server.port())) {
            assertThat(c.call("GET", "k")).isEqualTo("v");
            assertThat(c.call("SET", "k")).isEqualTo(new RespClient.Error("ERR wrong number of arguments for 'set' command"));
            c.send("SET", "k", "w");
            c.send("PUBLISH", "ch", "m");
            waitForBlocked(1);
            assertThat(c.silentFor(100)).isTrue();
            assertThat(jedis.get("k")).isEqualTo("v");
            jedis.clientUnpause();
            assertThat(c.read()).isEqualTo("OK");
            assertThat(c.read()).isEqualTo(0L);
            assertThat(jedis.get("k")).isEqualTo("w");
            assertThat(blockedClients()).isZero();
        }
    }

    @Test
    void execIsHeldOnlyForQueuedWrites() throws Exception {
        try (RespClient reader = new RespClient(server.port()); RespClient writer = new RespClient(server.port())) {
            writer.call("MULTI");
            writer.call("SET", "a", "1");
            Raw.call(jedis, "CLIENT", "PAUSE", "100000", "WRITE");
            reader.call("MULTI");
            reader.call("GET", "a");
            assertThat(reader.call("EXEC")).isEqualTo(java.util.Collections.singletonList(null));
            writer.send("EXEC");
            waitForBlocked(1);
            jedis.clientUnpause();
            assertThat(writer.read()).isEqualTo(java.util.List.of("OK"));
        }
    }

    @Test
    void scriptsAreHeldByTheirFlags() throws Exception {
        Raw.call(jedis, "FUNCTION", "LOAD", "REPLACE", "#!lua name=paused\n"
                + "redis.register_function{function_name='ro', callback=function() return 'ro' end, flags={'no-writes'}}\n"
                + "redis.register_function('rw', function() return redis.call('set', 'x', 'y') end)");
        Raw.call(jedis, "CLIENT", "PAUSE", "100000", "WRITE");
        try (RespClient c = new RespClient(server.port()); RespClient f = new RespClient(server.port())) {
            assertThat(c.call("EVAL", "#!lua flags=no-writes\nreturn 1", "0")).isEqualTo(1L);
            assertThat(c.call("FCALL", "ro", "0")).isEqualTo("ro");
            assertThat(c.call("EVAL_RO", "return redis.call('publish', 'ch', 'm')", "0")).isInstanceOf(RespClient.Error.class);
            c.send("EVAL", "return 2", "0");
            f.send("FCALL", "rw", "0");
            waitForBlocked(2);
            jedis.clientUnpause();
            assertThat(c.read()).isEqualTo(2L);
            assertThat(f.read()).isEqualTo("OK");
        }
    }

    @Test
    void aPauseEndsByItselfOnTheServersClock() throws Exception {
        Raw.call(jedis, "CLIENT", "PAUSE", "5000", "WRITE");
        try (RespClient c = new RespClient(server.port())) {
            c.send("SET", "k", "v");
            waitForBlocked(1);
            server.advanceMillis(5001);
            assertThat(c.read()).isEqualTo("OK");
        }
    }

    @Test
    void activeExpiryWaitsForTheEndOfThePause() throws Exception {
        jedis.set("short", "v", redis.clients.jedis.params.SetParams.setParams().px(10));
        long expired = expiredKeys();
        Raw.call(jedis, "CLIENT", "PAUSE", "100000", "WRITE");
        server.advanceMillis(100);
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(expiredKeys()).isEqualTo(expired);
        assertThat(jedis.get("short")).isNull();
        jedis.clientUnpause();
        assertThat(expiredKeys()).isEqualTo(expired + 1);
    }

    private static long expiredKeys() {
        String info = jedis.info("stats");
        int at = info.indexOf("expired_keys:") + "expired_keys:".length();
        return Long.parseLong(info.substring(at, info.indexOf('\r', at)));
    }

    @Test
    void pauseChecksItsArguments() {
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "PAUSE", "10", "NONE")).hasMessage("ERR CLIENT PAUSE mode must be WRITE or ALL");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "PAUSE", "-1")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> Raw.call(jedis, "CLIENT", "PAUSE", "x")).hasMessage("ERR timeout is not an integer or out of range");
    }
}
