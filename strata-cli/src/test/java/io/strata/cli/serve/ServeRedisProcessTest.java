package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code strata serve redis} as a process: acknowledged writes survive {@code kill -9}, SIGTERM
 * stops it cleanly, and a second server on the same directory is refused.
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
