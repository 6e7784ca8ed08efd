package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * {@code client-output-buffer-limit}'s normal class, as Redis applies it to every client that is
 * not a subscriber: a reply that would take the bytes waiting past the hard limit is not sent
 * and the client is closed; past the soft limit for more than its seconds, the same; no limit
 * by default. Other clients and the data are untouched.
 */
class NormalOutputLimitTest extends ServerTestSupport {
    private static final String VALUE = "v".repeat(200_000);

    @Test
    void aReplyPastTheHardLimitIsNotSentAndTheClientIsClosed() throws Exception {
        jedis.set("bigkey", VALUE);
        jedis.configSet("client-output-buffer-limit", "normal 100000 0 0");
        try (Socket s = socket()) {
            send(s, "*2\r\n$3\r\nGET\r\n$6\r\nbigkey\r\n");
            assertThat(s.getInputStream().read()).as("no byte of the reply, then the end of the stream").isEqualTo(-1);
        }
        assertThat(jedis.strlen("bigkey")).as("another client, whose replies are small, is served").isEqualTo(200_000);
        assertThat(jedis.getrange("bigkey", 0, 9)).isEqualTo("vvvvvvvvvv");
    }

    @Test
    void repliesUnderTheLimitAndEveryReplyWithTheDefaultLimitAreSent() throws Exception {
        jedis.set("bigkey", VALUE);
        assertThat(jedis.configGet("client-output-buffer-limit").get("client-output-buffer-limit"))
                .startsWith("normal 0 0 0 ");
        try (RespSocket s = new RespSocket(server.port())) {
            for (int i = 0; i < 50; i++) {
                s.command("GET", "bigkey");
            }
            for (int i = 0; i < 50; i++) {
                assertThat(s.reply()).startsWith("$200000\r\n");
            }
        }
        jedis.configSet("client-output-buffer-limit", "normal 1000000 0 0");
        try (RespSocket s = new RespSocket(server.port())) {
            s.command("GET", "bigkey");
            assertThat(s.reply()).startsWith("$200000\r\n");
        }
    }

    @Test
    void aClientPastTheSoftLimitForLongerThanItsSecondsIsClosed() throws Exception {
        jedis.set("bigkey", VALUE);
        jedis.configSet("client-output-buffer-limit", "normal 0 65536 1");
        try (Socket s = socket()) {
            // Replies it does not read: past the socket buffers, then past the soft limit.
            for (int i = 0; i < 100; i++) {
                send(s, "*2\r\n$3\r\nGET\r\n$6\r\nbigkey\r\n");
            }
            send(s, "*1\r\n$4\r\nPING\r\n");
            awaitLastCommand("ping"); // every GET answered into the buffer, at the clock's old time
            assertThat(unsentBytesOfLastPing()).as("CLIENT LIST's omem: the replies it has not read").isGreaterThan(65_536);
            assertThat(infoField("clients", "client_recent_max_output_buffer")).isGreaterThan(65_536);
            awaitClients(2);
            server.advanceMillis(2_500); // the server's clock: more than the limit's one second
            send(s, "*1\r\n$4\r\nPING\r\n");
            awaitClients(1);
        }
    }

    private void awaitLastCommand(String command) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!jedis.clientList().contains(" cmd=" + command + " ") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(jedis.clientList()).contains(" cmd=" + command + " ");
    }

    private long unsentBytesOfLastPing() {
        String line = jedis.clientList().lines().filter(l -> l.contains(" cmd=ping ")).findFirst().orElseThrow();
        String omem = line.substring(line.indexOf(" omem=") + 6);
        return Long.parseLong(omem.substring(0, omem.indexOf(' ')));
    }

    private void awaitClients(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (connectedClients() != n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(connectedClients()).isEqualTo(n);
    }

    private long connectedClients() {
        return infoField("clients", "connected_clients");
    }

    private long infoField(String section, String field) {
        return jedis.info(section).lines().filter(l -> l.startsWith(field + ":"))
                .mapToLong(l -> Long.parseLong(l.substring(field.length() + 1).trim())).findFirst().orElseThrow();
    }

    /** A client socket with a small receive buffer, so that what it does not read stays at the server. */
    private Socket socket() throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", server.port()));
        s.setSoTimeout(10_000);
        return s;
    }

    private static void send(Socket s, String raw) throws IOException {
        s.getOutputStream().write(raw.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
    }
}
