package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;

/**
 * Broken and hostile input over raw sockets: each protocol error is answered with Redis's
 * message and closes that connection only; requests before it still run; half-sent requests
 * wait; inline requests and large arguments work; many idle connections and deep pipelines
 * are served.
 */
class ProtocolHardeningTest {
    private static RunningServer server;
    private static Jedis bystander;

    @BeforeAll
    static void start() throws Exception {
        server = RunningServer.start();
        bystander = server.jedis();
        bystander.set("alive", "yes");
    }

    @AfterAll
    static void stop() {
        bystander.close();
        server.close();
    }

    /** Sends {@code raw} on a new connection; the server must answer {@code expected} and close it. */
    private static void refused(String raw, String expected) throws IOException {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send(raw);
            assertThat(c.reply()).isEqualTo(expected);
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(bystander.get("alive")).isEqualTo("yes");
    }

    @Test
    void brokenMultibulkRequestsGetRedisErrorsAndClose() throws IOException {
        refused("*3000000000\r\n", "-ERR Protocol error: invalid multibulk length\r\n");
        refused("*abc\r\n", "-ERR Protocol error: invalid multibulk length\r\n");
        refused("*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n", "-ERR Protocol error: expected '$', got 'f'\r\n");
        refused("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$-10\r\n", "-ERR Protocol error: invalid bulk length\r\n");
        refused("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$2000000000\r\n", "-ERR Protocol error: invalid bulk length\r\n");
        refused("*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$blabla\r\n", "-ERR Protocol error: invalid bulk length\r\n");
        refused("*1\r\nfoo\r\n", "-ERR Protocol error: expected '$', got 'f'\r\n");
        refused("set \"\"\"test-key\"\"\" test-value\r\nping\r\n", "-ERR Protocol error: unbalanced quotes in request\r\n");
    }

    @Test
    void endlessLinesAreCutAtRedisLimits() throws IOException {
        String noNewline = "A".repeat(70 * 1024);
        refused("\0" + noNewline, "-ERR Protocol error: too big inline request\r\n");
        refused("*" + noNewline, "-ERR Protocol error: too big mbulk count string\r\n");
        refused("*1\r\n$" + noNewline, "-ERR Protocol error: too big bulk count string\r\n");
    }

    @Test
    void requestsBeforeAProtocolErrorStillRun() throws IOException {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("*3\r\n$3\r\nSET\r\n$6\r\nbefore\r\n$1\r\n1\r\n*1\r\n$-5\r\n");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            assertThat(c.reply()).isEqualTo("-ERR Protocol error: invalid bulk length\r\n");
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(bystander.get("before")).isEqualTo("1");
    }

    @Test
    void emptyAndNegativeRequestsAreIgnored() throws IOException {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("\r\n").send("*-10\r\n").send("*0\r\n").command("PING");
            assertThat(c.reply()).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void inlineRequestsFollowRedisQuoting() throws IOException {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("SET inline \"a b\\x41\\n\"\r\nGET inline\nECHO 'it\\'s'\r\n");
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            assertThat(c.reply()).isEqualTo("$5\r\na bA\n\r\n");
            assertThat(c.reply()).isEqualTo("$4\r\nit's\r\n");
        }
    }

    @Test
    void halfSentRequestsWaitForTheirRest() throws Exception {
        try (RespSocket c = new RespSocket(server.port())) {
            byte[] request = "*3\r\n$3\r\nSET\r\n$4\r\nhalf\r\n$5\r\nvalue\r\n".getBytes();
            for (byte b : request) {
                c.send(new byte[] {b});
            }
            assertThat(c.reply()).isEqualTo("+OK\r\n");
            c.send("*2\r\n$3\r\nGET\r\n$4\r\nha");
            c.timeout(300);
            assertThat(c.closedByServer()).isFalse();
            c.timeout(10_000);
            c.send("lf\r\n");
            assertThat(c.reply()).isEqualTo("$5\r\nvalue\r\n");
        }
    }

    @Test
    void largeArgumentsAndManyArgumentsArrive() throws IOException {
        String big = "x".repeat(3 * 1024 * 1024);
        assertThat(bystander.echo(big)).isEqualTo(big);
        String[] args = new String[20_002];
        for (int i = 0; i < args.length; i += 2) {
            args[i] = "k" + i;
            args[i + 1] = "v";
        }
        assertThat(bystander.mset(args)).isEqualTo("OK");
        assertThat(bystander.get("k20000")).isEqualTo("v");
    }

    @Test
    void unauthenticatedClientsMaySendOnlySmallRequests() throws Exception {
        try (RunningServer locked = RunningServer.start(io.strata.redis.command.RedisConfig.defaults().withRequirepass("pw"))) {
            try (RespSocket c = new RespSocket(locked.port())) {
                c.send("*100\r\n");
                assertThat(c.reply()).isEqualTo("-ERR Protocol error: unauthenticated multibulk length\r\n");
            }
            try (RespSocket c = new RespSocket(locked.port())) {
                c.send("*1\r\n$100000000\r\n");
                assertThat(c.reply()).isEqualTo("-ERR Protocol error: unauthenticated bulk length\r\n");
            }
        }
    }

    @Test
    void aClientOverTheQueryBufferLimitIsClosedWithoutAReply() throws Exception {
        try (RunningServer small = RunningServer.start(io.strata.redis.command.RedisConfig.defaults()
                .withParameter("client-query-buffer-limit", "1mb"));
             RespSocket c = new RespSocket(small.port())) {
            c.send("*2\r\n$4\r\nECHO\r\n$1500000\r\n");
            byte[] chunk = new byte[64 * 1024];
            try {
                for (int i = 0; i < 20; i++) {
                    c.send(chunk);
                }
            } catch (java.io.IOException closed) {
                // the server may close before everything is sent
            }
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void httpRequestsAreDroppedWithoutAReply() throws IOException {
        try (RespSocket c = new RespSocket(server.port())) {
            c.send("POST / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(bystander.get("alive")).isEqualTo("yes");
    }

    @Test
    void aThousandIdleConnectionsAreServed() throws IOException, InterruptedException {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 1000; i++) {
                idle.add(new Socket("127.0.0.1", server.port()));
            }
            try (RespSocket last = new RespSocket(server.port())) {
                last.command("PING");
                assertThat(last.reply()).isEqualTo("+PONG\r\n");
                // A connect() returns once the kernel queued the connection; the server accepts it a little later.
                String info = "";
                for (long deadline = System.nanoTime() + 20_000_000_000L; System.nanoTime() < deadline; ) {
                    info = last.command("INFO", "clients").reply();
                    if (info.contains("connected_clients:1002\r\n")) {
                        break;
                    }
                    Thread.sleep(50);
                }
                assertThat(info).contains("connected_clients:1002\r\n");
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void tenThousandPipelinedCommandsAnswerInOrder() {
        try (Jedis j = server.jedis()) {
            Pipeline p = j.pipelined();
            List<Response<?>> replies = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                replies.add(i % 10 == 0 ? p.incr("counter") : p.sendCommand(Protocol.Command.ECHO, "e" + i));
            }
            p.sync();
            for (int i = 0; i < replies.size(); i++) {
                assertThat(Raw.decode(replies.get(i).get())).isEqualTo(i % 10 == 0 ? (Object) (i / 10 + 1L) : "e" + i);
            }
        }
    }

    @Test
    void aPipelineMixingLargeAndSmallRepliesGetsEachWholeAndInOrder() {
        // Replies are gathered into shared buffers up to a size: a reply larger than that, and
        // the small ones around it, must still arrive whole and in order.
        byte[] large = new byte[300_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31 + 7);
        }
        try (Jedis j = server.jedis()) {
            j.set("large".getBytes(), large);
            Pipeline p = j.pipelined();
            List<Response<byte[]>> bigs = new ArrayList<>();
            List<Response<Long>> counts = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                counts.add(p.incr("pipelined-counter"));
                if (i % 20 == 0) {
                    bigs.add(p.get("large".getBytes()));
                }
            }
            p.sync();
            for (int i = 0; i < counts.size(); i++) {
                assertThat(counts.get(i).get()).isEqualTo(i + 1L);
            }
            assertThat(bigs).hasSize(10).allSatisfy(r -> assertThat(r.get()).isEqualTo(large));
        }
    }
}
