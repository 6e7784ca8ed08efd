package io.strata.redis;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Transaction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OBJECT IDLETIME as Redis 7.0 answers it: seconds since a command last accessed the key,
 * where TYPE, TTL, PTTL, EXPIRETIME, PEXPIRETIME, EXISTS, MEMORY USAGE and OBJECT itself do
 * not count as accesses. Time is the server's injected clock, so the test does not sleep.
 */
class ObjectIdletimeTest extends ServerTestSupport {
    @Test
    void lookupsThatDoNotTouchLeaveTheIdleTimeGrowing() {
        jedis.set("foo", "bar");
        server.advanceMillis(5_000);
        jedis.ttl("foo");
        jedis.pttl("foo");
        jedis.type("foo");
        jedis.exists("foo");
        jedis.sendCommand(() -> "EXPIRETIME".getBytes(), "foo");
        jedis.objectEncoding("foo");
        jedis.memoryUsage("foo");

        assertThat(jedis.objectIdletime("foo")).isEqualTo(5L);
    }

    @Test
    void readsWritesAndTouchResetIt() {
        jedis.set("foo", "bar");
        server.advanceMillis(3_000);
        assertThat(jedis.objectIdletime("foo")).isEqualTo(3L);
        jedis.get("foo");
        assertThat(jedis.objectIdletime("foo")).isZero();

        server.advanceMillis(4_000);
        jedis.touch("foo");
        assertThat(jedis.objectIdletime("foo")).isZero();

        server.advanceMillis(2_000);
        jedis.append("foo", "!");
        assertThat(jedis.objectIdletime("foo")).isZero();
    }

    @Test
    void everyKeyOfAMultiKeyCommandIsAccessed() {
        jedis.mset("a", "1", "b", "2", "c", "3");
        server.advanceMillis(10_000);
        jedis.mget("a", "c");

        assertThat(jedis.objectIdletime("a")).isZero();
        assertThat(jedis.objectIdletime("b")).isEqualTo(10L);
        assertThat(jedis.objectIdletime("c")).isZero();
    }

    @Test
    void pipelinedAndTransactionCommandsCount() {
        jedis.mset("p", "1", "t", "1");
        server.advanceMillis(7_000);
        Pipeline p = jedis.pipelined();
        p.incr("p");
        p.sync();
        Transaction multi = jedis.multi();
        multi.incr("t");
        multi.exec();

        assertThat(jedis.objectIdletime("p")).isZero();
        assertThat(jedis.objectIdletime("t")).isZero();
    }

    @Test
    void aScriptsCommandsCount() {
        jedis.set("s", "1");
        server.advanceMillis(8_000);
        jedis.eval("return redis.call('get', 's')"); // a key the script does not declare

        assertThat(jedis.objectIdletime("s")).isZero();
    }

    @Test
    void databasesAreSeparate() {
        jedis.set("k", "0");
        jedis.select(1);
        jedis.set("k", "1");
        server.advanceMillis(6_000);
        jedis.get("k");

        assertThat(jedis.objectIdletime("k")).isZero();
        jedis.select(0);
        assertThat(jedis.objectIdletime("k")).isEqualTo(6L);
    }

    @Test
    void restoreSetsItFromIdletime() {
        jedis.set("src", "hello");
        byte[] payload = jedis.dump("src");
        jedis.restore("plain".getBytes(), 0, payload);
        jedis.sendCommand(() -> "RESTORE".getBytes(), "idle".getBytes(), "0".getBytes(), payload,
                "IDLETIME".getBytes(), "1000".getBytes());

        assertThat(jedis.objectIdletime("plain")).isZero();
        assertThat(jedis.objectIdletime("idle")).isEqualTo(1000L);
        server.advanceMillis(2_000);
        assertThat(jedis.objectIdletime("idle")).isEqualTo(1002L);
    }

    @Test
    void aMissingKeyHasNone() {
        assertThat(jedis.objectIdletime("missing")).isNull();
    }

    /**
     * A blocked command accesses its keys when it is served, not when it started waiting, as
     * Redis looks the keys up when it unblocks the client: BLMOVE's destination is fresh.
     */
    @Test
    void aBlockedCommandAccessesItsKeysWhenServed() throws Exception {
        jedis.rpush("dst", "old");
        try (redis.clients.jedis.Jedis waiting = server.jedis()) {
            java.util.concurrent.CompletableFuture<String> moved = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    waiting.blmove("src", "dst", redis.clients.jedis.args.ListDirection.LEFT,
                            redis.clients.jedis.args.ListDirection.RIGHT, 0));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!jedis.info("clients").contains("blocked_clients:1")) {
                assertThat(System.nanoTime()).as("BLMOVE blocked in time").isLessThan(deadline);
                Thread.sleep(10);
            }
            server.advanceMillis(7_000);
            jedis.rpush("src", "x");
            assertThat(moved.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("x");
        }
        assertThat(jedis.objectIdletime("dst")).isZero();
    }
}
