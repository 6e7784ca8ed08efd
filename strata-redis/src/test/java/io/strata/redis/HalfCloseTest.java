package io.strata.redis;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.args.ClientPauseMode;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that shuts down its output (a FIN, as Node's {@code socket.end()} sends) after its
 * requests still gets every reply, as from Redis, which answers what it read before the end of
 * the stream; a request blocked or paused when the input ends is dropped with the connection,
 * as Redis frees a blocked client when it reads the end. Each case is repeated: the FIN races
 * the requests' execution on the database's threads.
 */
class HalfCloseTest extends SharedServerTestSupport {

    @Test
    void requestsSentBeforeTheFinAreAllAnswered() throws IOException {
        for (int i = 0; i < 50; i++) {
            try (RespSocket c = new RespSocket(server.port())) {
                c.command("SET", "half:" + i, "v" + i).command("GET", "half:" + i).command("INCR", "half:n")
                        .command("PUBLISH", "half:channel", "hello").command("PING").shutdownOutput();
                assertThat(c.reply()).isEqualTo("+OK\r\n");
                assertThat(c.reply()).isEqualTo("$" + ("v" + i).length() + "\r\nv" + i + "\r\n");
                assertThat(c.reply()).isEqualTo(":" + (i + 1) + "\r\n");
                assertThat(c.reply()).isEqualTo(":0\r\n");
                assertThat(c.reply()).isEqualTo("+PONG\r\n");
                assertThat(c.closedByServer()).isTrue();
            }
        }
        assertThat(jedis.get("half:n")).isEqualTo("50");
    }

    @Test
    void aSelectInfoSubscribePipelineIsAnsweredWhole() throws IOException {
        for (int i = 0; i < 20; i++) {
            try (RespSocket c = new RespSocket(server.port())) {
                c.command("SELECT", "2").command("INFO", "server").command("SUBSCRIBE", "half:any").shutdownOutput();
                assertThat(c.reply()).isEqualTo("+OK\r\n");
                assertThat(c.reply()).startsWith("$").contains("redis_version:");
                assertThat(c.reply()).isEqualTo("*3\r\n$9\r\nsubscribe\r\n$8\r\nhalf:any\r\n:1\r\n");
                assertThat(c.closedByServer()).isTrue();
            }
        }
    }

    @Test
    void aBlockedPopEndsWithTheInputAndTakesNothing() throws IOException {
        jedis.del("half:list");
        try (RespSocket c = new RespSocket(server.port())) {
            c.command("SET", "half:before", "1").command("BLPOP", "half:list", "0").command("SET", "half:after", "1");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            c.shutdownOutput();
            assertThat(c.closedByServer()).isTrue(); // no reply for the blocked pop, as from Redis
        }
        jedis.rpush("half:list", "x");
        assertThat(jedis.lrange("half:list", 0, -1)).containsExactly("x");
        assertThat(jedis.get("half:after")).isNull();
    }

    @Test
    void aRequestHeldByClientPauseIsDroppedWithTheInput() throws IOException {
        jedis.del("half:paused");
        jedis.clientPause(20_000, ClientPauseMode.WRITE); // this client's UNPAUSE still runs
        try {
            try (RespSocket c = new RespSocket(server.port())) {
                c.command("SET", "half:paused", "1").shutdownOutput();
                assertThat(c.closedByServer()).isTrue(); // within RespSocket's 10 s, not the pause's 20 s
            }
        } finally {
            jedis.clientUnpause();
        }
        assertThat(jedis.get("half:paused")).isNull();
    }
}
