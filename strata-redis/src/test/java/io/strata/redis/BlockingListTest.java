package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.util.KeyValue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * BLPOP and its family over TCP: a blocked client is woken by another client's push (through
 * a watch, within the timeout), times out with nil, is served in arrival order, does not take
 * an element once it has gone, and inside MULTI acts as if its timeout had expired.
 */
class BlockingListTest extends BlockingTestSupport {

    @Test
    void blpopIsWokenByAnotherClientsPush() throws Exception {
        long start = System.nanoTime();
        CompletableFuture<KeyValue<String, String>> popped = onOwnConnection(j -> j.blpop(10.0, "none", "q"));
        awaitBlocked(1);
        assertThat(jedis.ping()).isEqualTo("PONG");
        assertThat(jedis.rpush("q", "job")).isEqualTo(1);
        KeyValue<String, String> r = popped.get(5, TimeUnit.SECONDS);
        assertThat(r.getKey()).isEqualTo("q");
        assertThat(r.getValue()).isEqualTo("job");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
        assertThat(jedis.exists("q")).isFalse();
        awaitBlocked(0);
    }

    @Test
    void aTimeoutAnswersNil() throws Exception {
        long start = System.nanoTime();
        assertThat(jedis.blpop(0.2, "q")).isNull();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(200);
        try (RawConnection c = new RawConnection(server.port())) {
            assertThat(c.call("BRPOP", "q", "0.01")).isEqualTo("*-1");
            assertThat(c.call("BLMOVE", "q", "d", "LEFT", "LEFT", "0.01")).isEqualTo("*-1");
            c.resp3();
            assertThat(c.call("BLMPOP", "0.01", "1", "q", "LEFT")).isEqualTo("_");
        }
        awaitBlocked(0);
    }

    @Test
    void twoBlockedClientsAreServedOneElementEachInArrivalOrder() throws Exception {
        CompletableFuture<KeyValue<String, String>> first = onOwnConnection(j -> j.brpop(5.0, "q"));
        awaitBlocked(1);
        CompletableFuture<KeyValue<String, String>> second = onOwnConnection(j -> j.brpop(5.0, "q"));
        awaitBlocked(2);
        jedis.lpush("q", "one");
        assertThat(first.get(5, TimeUnit.SECONDS).getValue()).isEqualTo("one");
        assertThat(second).isNotDone();
        jedis.lpush("q", "two", "three");
        assertThat(second.get(5, TimeUnit.SECONDS).getValue()).isEqualTo("two");
        assertThat(jedis.lrange("q", 0, -1)).containsExactly("three");
    }

    @Test
    void insideMultiItActsAsIfTheTimeoutHadExpired() {
        jedis.rpush("q", "a");
        Transaction t = jedis.multi();
        t.blpop(0, "q");
        t.blpop(0, "q");
        t.brpoplpush("q", "d", 0);
        List<Object> replies = t.exec();
        assertThat(replies).hasSize(3);
        assertThat(replies.get(0)).isEqualTo(List.of("q", "a"));
        assertThat(replies.get(1)).isNull();
        assertThat(replies.get(2)).isNull();
        assertThat(blockedClients()).isZero();
    }

    @Test
    void argumentsAndTypesAreCheckedFirst() {
        assertThatThrownBy(() -> raw(jedis, "BLPOP", "q", "-1")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> raw(jedis, "BLPOP", "q", "soon")).hasMessage("ERR timeout is not a float or out of range");
        assertThatThrownBy(() -> raw(jedis, "BLPOP", "q", "inf")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> raw(jedis, "BLMPOP", "-1", "1", "q", "LEFT")).hasMessage("ERR timeout is negative");
        assertThatThrownBy(() -> raw(jedis, "BLMPOP", "0", "0", "q", "LEFT")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw(jedis, "BLMOVE", "q", "d", "LEFT", "UP", "0")).hasMessage("ERR syntax error");
        jedis.set("s", "v");
        assertThatThrownBy(() -> jedis.blpop(1.0, "empty", "s")).hasMessageStartingWith("WRONGTYPE");
        assertThatThrownBy(() -> jedis.brpoplpush("s", "d", 1)).hasMessageStartingWith("WRONGTYPE");
        jedis.rpush("q", "x");
        assertThatThrownBy(() -> jedis.blmove("q", "s", ListDirection.LEFT, ListDirection.LEFT, 1.0)).hasMessageStartingWith("WRONGTYPE");
        assertThat(jedis.lrange("q", 0, -1)).containsExactly("x");
    }

    @Test
    void blmoveAndBlmpopAreWokenToo() throws Exception {
        jedis.rpush("dst", "old");
        CompletableFuture<String> moved = onOwnConnection(j -> j.blmove("src", "dst", ListDirection.RIGHT, ListDirection.LEFT, 5.0));
        awaitBlocked(1);
        jedis.rpush("src", "a", "b");
        assertThat(moved.get(5, TimeUnit.SECONDS)).isEqualTo("b");
        assertThat(jedis.lrange("dst", 0, -1)).containsExactly("b", "old");

        CompletableFuture<KeyValue<String, List<String>>> popped = onOwnConnection(j -> j.blmpop(5.0, ListDirection.LEFT, 10, "x", "y"));
        awaitBlocked(1);
        jedis.rpush("y", "1", "2", "3");
        KeyValue<String, List<String>> r = popped.get(5, TimeUnit.SECONDS);
        assertThat(r.getKey()).isEqualTo("y");
        assertThat(r.getValue()).containsExactly("1", "2", "3");
        assertThat(jedis.exists("y")).isFalse();
    }

    @Test
    void aKeyThatBecomesAnotherTypeLeavesTheClientBlocked() throws Exception {
        CompletableFuture<KeyValue<String, String>> popped = onOwnConnection(j -> j.blpop(5.0, "q"));
        awaitBlocked(1);
        Transaction t = jedis.multi();
        t.lpush("q", "a");
        t.del("q");
        t.set("q", "string");
        t.exec();
        Thread.sleep(50);
        assertThat(popped).isNotDone();
        jedis.del("q");
        jedis.lpush("q", "b");
        assertThat(popped.get(5, TimeUnit.SECONDS).getValue()).isEqualTo("b");
    }

    @Test
    void aClientThatDisconnectsWhileBlockedTakesNothing() throws Exception {
        Jedis leaving = server.jedis();
        CompletableFuture<Object> never = CompletableFuture.supplyAsync(() -> {
            try {
                return leaving.blpop(0.0, "q");
            } catch (RuntimeException closed) {
                return closed;
            }
        });
        awaitBlocked(1);
        leaving.disconnect();
        awaitBlocked(0);
        jedis.rpush("q", "kept");
        Thread.sleep(50);
        assertThat(jedis.lrange("q", 0, -1)).containsExactly("kept");
        never.get(5, TimeUnit.SECONDS);
    }

    @Test
    void clientUnblockEndsTheWait() throws Exception {
        try (Jedis blocked = server.jedis()) {
            long id = blocked.clientId();
            CompletableFuture<KeyValue<String, String>> timedOut = CompletableFuture.supplyAsync(() -> blocked.blpop(0.0, "q"));
            awaitBlocked(1);
            assertThat(raw(jedis, "CLIENT", "UNBLOCK", Long.toString(id))).isEqualTo(1L);
            assertThat(timedOut.get(5, TimeUnit.SECONDS)).isNull();
            assertThat(raw(jedis, "CLIENT", "UNBLOCK", Long.toString(id))).isEqualTo(0L);

            CompletableFuture<KeyValue<String, String>> failed = CompletableFuture.supplyAsync(() -> blocked.blpop(0.0, "q"));
            awaitBlocked(1);
            assertThat(raw(jedis, "CLIENT", "UNBLOCK", Long.toString(id), "ERROR")).isEqualTo(1L);
            assertThatThrownBy(() -> failed.get(5, TimeUnit.SECONDS))
                    .hasMessageContaining("UNBLOCKED client unblocked via CLIENT UNBLOCK");
            assertThatThrownBy(() -> raw(jedis, "CLIENT", "UNBLOCK", "1", "LATER"))
                    .hasMessage("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
        }
    }

    @Test
    void clientUnblockSentRightBehindThePopFindsItBlocked() throws Exception {
        // Lettuce's clientUnblock test: once CLIENT LIST shows the pop, CLIENT UNBLOCK follows at
        // once, while the pop may still be in its first try; Redis has then always blocked it.
        for (int i = 0; i < 20; i++) {
            try (RespSocket blocked = new RespSocket(server.port())) {
                blocked.command("CLIENT", "ID");
                String id = blocked.reply().substring(1).trim();
                // Many keys make the first try (one read each) outlast a CLIENT LIST round trip.
                String[] pop = new String[2 + 2_000];
                pop[0] = "BRPOP";
                for (int k = 1; k <= 2_000; k++) {
                    pop[k] = "unblock:q" + k;
                }
                pop[pop.length - 1] = "0";
                blocked.command(pop);
                String client = "id=" + id + " ";
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!clientLine(client).contains(" cmd=brpop ")) {
                    assertThat(System.nanoTime()).as("the pop is read").isLessThan(deadline);
                    Thread.onSpinWait();
                }
                assertThat(raw(jedis, "CLIENT", "UNBLOCK", id, "ERROR")).isEqualTo(1L);
                assertThat(blocked.reply()).startsWith("-UNBLOCKED client unblocked via CLIENT UNBLOCK");
            }
        }
    }

    private static String clientLine(String prefix) {
        for (String line : jedis.clientList().split("\n")) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return "";
    }

    @Test
    void thePushAnswersAfterTheHandOverAlongAChain() throws Exception {
        CompletableFuture<String> first = onOwnConnection(j -> j.blmove("l1", "l2", ListDirection.RIGHT, ListDirection.LEFT, 5.0));
        awaitBlocked(1);
        CompletableFuture<String> second = onOwnConnection(j -> j.blmove("l2", "l3", ListDirection.LEFT, ListDirection.RIGHT, 5.0));
        awaitBlocked(2);
        jedis.rpush("l1", "foo");
        // As in Redis: by the time RPUSH has answered, both blocked clients have been served.
        assertThat(jedis.lrange("l1", 0, -1)).isEmpty();
        assertThat(jedis.lrange("l2", 0, -1)).isEmpty();
        assertThat(jedis.lrange("l3", 0, -1)).containsExactly("foo");
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("foo");
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("foo");
    }

    /** A push through another server process on the same database reaches the client only by the watch. */
    @Test
    void aPushThroughAnotherServerWakesTheClientThroughItsWatch() throws Exception {
        try (var other = io.strata.redis.server.RedisServer.start(server.database,
                io.strata.redis.command.RedisConfig.defaults().withPort(0), server.clock::get);
             Jedis elsewhere = new Jedis("127.0.0.1", other.port(), 10_000)) {
            CompletableFuture<KeyValue<String, String>> popped = onOwnConnection(j -> j.blpop(5.0, "q"));
            awaitBlocked(1);
            assertThat(elsewhere.lpush("q", "remote")).isEqualTo(1);
            assertThat(popped.get(5, TimeUnit.SECONDS).getValue()).isEqualTo("remote");
            assertThat(elsewhere.exists("q")).isFalse();
        }
    }
}
