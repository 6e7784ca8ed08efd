package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.util.SafeEncoder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * BZPOPMIN, BZPOPMAX and BZMPOP over TCP: the reply shapes of Redis 7.0 (RESP2 and RESP3), a
 * blocked client woken by another client's ZADD, arrival order, timeouts, MULTI, and the
 * argument and type errors.
 */
class BlockingSortedSetTest extends BlockingTestSupport {

    /** Sends a command and reads {@code lines} lines of its reply. */
    private static List<String> lines(RawConnection c, int lines, String... command) throws Exception {
        c.send(command);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            out.add(c.line());
        }
        return out;
    }

    @Test
    void bzpopminAndMaxAnswerKeyMemberScore() throws Exception {
        jedis.zadd("z", 1, "a");
        jedis.zadd("z", 2.5, "b");
        jedis.zadd("z", 3, "c");
        try (RawConnection c = new RawConnection(server.port())) {
            assertThat(lines(c, 7, "BZPOPMIN", "none", "z", "0"))
                    .containsExactly("*3", "$1", "z", "$1", "a", "$1", "1");
            assertThat(lines(c, 7, "BZPOPMAX", "z", "0"))
                    .containsExactly("*3", "$1", "z", "$1", "c", "$1", "3");
            c.resp3();
            assertThat(lines(c, 6, "BZPOPMIN", "z", "0"))
                    .containsExactly("*3", "$1", "z", "$1", "b", ",2.5");
        }
        assertThat(jedis.exists("z")).isFalse();
    }

    @Test
    void bzmpopAnswersAsZmpop() throws Exception {
        jedis.zadd("z", 1, "a");
        jedis.zadd("z", 2, "b");
        jedis.zadd("z", 3, "c");
        Object r = raw(jedis, "BZMPOP", "0", "2", "none", "z", "MAX", "COUNT", "2");
        assertThat(decode(r)).isEqualTo(List.of("z", List.of(List.of("c", "3"), List.of("b", "2"))));
        assertThat(jedis.zrange("z", 0, -1)).containsExactly("a");
    }

    @Test
    void aBlockedClientIsWokenByZaddAndServedInArrivalOrder() throws Exception {
        CompletableFuture<Object> first = onOwnConnection(j -> decode(raw(j, "BZPOPMIN", "z", "5")));
        awaitBlocked(1);
        CompletableFuture<Object> second = onOwnConnection(j -> decode(raw(j, "BZMPOP", "5", "1", "z", "MIN", "COUNT", "10")));
        awaitBlocked(2);
        jedis.zadd("z", 7, "x");
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo(List.of("z", "x", "7"));
        assertThat(second).isNotDone();
        jedis.zadd("z", java.util.Map.of("y", 1.0, "w", 2.0));
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo(List.of("z", List.of(List.of("y", "1"), List.of("w", "2"))));
        assertThat(jedis.exists("z")).isFalse();
        awaitBlocked(0);
        assertThat(jedis.info("clients")).contains("blocked_clients:0");
    }

    @Test
    void aTimeoutAnswersANullArray() throws Exception {
        long start = System.nanoTime();
        try (RawConnection c = new RawConnection(server.port())) {
            assertThat(c.call("BZPOPMIN", "z", "0.2")).isEqualTo("*-1");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(200);
            assertThat(c.call("BZMPOP", "0.01", "1", "z", "MIN")).isEqualTo("*-1");
            c.resp3();
            assertThat(c.call("BZPOPMAX", "z", "0.01")).isEqualTo("_");
        }
    }

    @Test
    void insideMultiItActsAsIfTheTimeoutHadExpired() {
        jedis.zadd("z", 1, "a");
        Transaction t = jedis.multi();
        t.bzpopmin(0, "z");
        t.bzpopmax(0, "z");
        List<Object> replies = t.exec();
        assertThat(replies).hasSize(2);
        assertThat(replies.get(1)).isNull();
        assertThat(blockedClients()).isZero();
    }

    @Test
    void argumentsAndTypesAreCheckedFirst() {
        jedis.set("s", "v");
        assertThatThrownBy(() -> raw(jedis, "BZPOPMIN", "z", "-1")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> raw(jedis, "BZPOPMAX", "z", "soon")).hasMessage("ERR timeout is not a float or out of range");
        assertThatThrownBy(() -> raw(jedis, "BZPOPMIN", "s", "0")).hasMessageStartingWith("WRONGTYPE");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "-1", "1", "z", "MIN")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "0", "z", "MIN")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "x", "z", "MIN")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "ZMPOP", "x", "z", "MIN")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "1", "z", "MIN", "COUNT", "x"))
                .hasMessage("ERR count should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "1", "z", "UP")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "1", "z", "MIN", "COUNT", "0"))
                .hasMessage("ERR count should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "BZMPOP", "0", "1", "s", "MIN")).hasMessageStartingWith("WRONGTYPE");
    }

    @Test
    void aKeyThatBecomesAnotherTypeLeavesTheClientBlocked() throws Exception {
        CompletableFuture<Object> popped = onOwnConnection(j -> decode(raw(j, "BZPOPMIN", "z", "5")));
        awaitBlocked(1);
        jedis.set("z", "not a zset");
        Thread.sleep(100);
        assertThat(popped).isNotDone();
        jedis.del("z");
        jedis.zadd("z", 4, "m");
        assertThat(popped.get(5, TimeUnit.SECONDS)).isEqualTo(List.of("z", "m", "4"));
    }

    /** Jedis's raw reply as strings and lists. */
    private static Object decode(Object reply) {
        if (reply instanceof byte[]) {
            return SafeEncoder.encode((byte[]) reply);
        }
        if (reply instanceof List<?>) {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) reply) {
                out.add(decode(o));
            }
            return out;
        }
        return reply;
    }
}
