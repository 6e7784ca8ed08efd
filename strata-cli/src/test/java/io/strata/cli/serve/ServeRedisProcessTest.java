package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code strata serve redis} as a process: acknowledged writes survive {@code kill -9}, SIGTERM
 * stops it cleanly, 10,000 idle connections are held, and a second server on the same
 * directory is refused.
 */
class ServeRedisProcessTest {
    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedWriteSurvivesKillDashNine() throws Exception {
        AtomicInteger acknowledged = new AtomicInteger();
        try (ServerProcess server = ServerProcess.start(dir.resolve("db"))) {
            Thread writer = new Thread(() -> {
                try (Jedis j = new Jedis("127.0.0.1", server.port)) {
                    for (int i = 0; ; i++) {
                        j.set("k" + i, "v" + i);
                        acknowledged.set(i + 1);
                    }
                } catch (RuntimeException connectionLost) {
                    // the crash below
                }
            });
            writer.start();
            while (acknowledged.get() < 300) {
                Thread.sleep(5);
            }
            server.crash();
            writer.join(10_000);
        }
        int acked = acknowledged.get();
        try (ServerProcess again = ServerProcess.start(dir.resolve("db")); Jedis j = new Jedis("127.0.0.1", again.port)) {
            for (int i = 0; i < acked; i++) {
                assertThat(j.get("k" + i)).as("key k%d, acknowledged before the crash", i).isEqualTo("v" + i);
            }
            assertThat(j.dbSize()).isBetween((long) acked, (long) acked + 1);
        }
    }

    @Test
    void sigtermStopsTheServerCleanly() throws Exception {
        try (ServerProcess server = ServerProcess.start(dir.resolve("db"))) {
            assertThat(server.printed()).contains("strata-redis ready on 127.0.0.1:" + server.port).contains("durable in");
            try (Jedis j = new Jedis("127.0.0.1", server.port)) {
                j.set("k", "v");
            }
            server.process.destroy();
            assertThat(server.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        try (ServerProcess again = ServerProcess.start(dir.resolve("db")); Jedis j = new Jedis("127.0.0.1", again.port)) {
            assertThat(j.get("k")).isEqualTo("v");
        }
    }

    /**
     * Redis's default maxclients is 10,000: that many idle connections are held (the server is
     * a process of its own, so each side has its own descriptors), the next is refused with
     * Redis's error, and the connections already open are served as before.
     */
    @Test
    void tenThousandIdleConnectionsAreHeldAndTheNextIsRefused() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(dir.resolve("db"))) {
            for (int i = 0; i < 9_999; i++) {
                idle.add(new Socket("127.0.0.1", server.port));
            }
            try (Jedis active = new Jedis("127.0.0.1", server.port, 60_000)) {
                assertThat(active.ping()).isEqualTo("PONG");
                String clients = "";
                // A connect() returns once the kernel queued the connection; the server accepts it a little later.
                for (long deadline = System.nanoTime() + 60_000_000_000L; System.nanoTime() < deadline; Thread.sleep(100)) {
                    clients = active.info("clients");
                    if (clients.contains("connected_clients:10000\r\n")) {
                        break;
                    }
                }
                assertThat(clients).contains("connected_clients:10000\r\n");

                try (Socket refused = new Socket("127.0.0.1", server.port)) {
                    refused.setSoTimeout(30_000);
                    assertThat(new String(refused.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                            .isEqualTo("-ERR max number of clients reached\r\n");
                }
                for (Socket s : List.of(idle.get(0), idle.get(5_000), idle.get(9_998))) {
                    s.setSoTimeout(30_000);
                    s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                    byte[] reply = new byte[7];
                    assertThat(s.getInputStream().readNBytes(reply, 0, 7)).isEqualTo(7);
                    assertThat(new String(reply, StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
                }
                assertThat(active.set("still", "served")).isEqualTo("OK");
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void aSecondServerOnTheSameDirectoryIsRefused() throws Exception {
        try (ServerProcess first = ServerProcess.start(dir.resolve("db"));
             ServerProcess second = ServerProcess.start(dir.resolve("db"))) {
            assertThat(second.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(second.process.exitValue()).isEqualTo(1);
            assertThat(second.printed()).contains("is already open").doesNotContain("Exception");
            assertThat(first.isReady()).isTrue();
        }
    }
}
