package io.strata.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code strata serve redis --storage memory|ssd} (and {@code storage} in {@code --config}): a
 * new directory records the storage asked for, a later start needs none, asking for the other
 * one exits with the engine's message, and a bad value is a usage error.
 */
class ServeRedisStorageTest {
    @TempDir
    Path dir;

    private static void assertExited(ServerProcess p, int code) throws InterruptedException {
        assertThat(p.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.process.exitValue()).as(p.printed()).isEqualTo(code);
        assertThat(p.isReady()).isFalse();
        assertThat(p.printed()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void storageSsdMakesAnSsdDirectoryThatLaterStartsKeep() throws Exception {
        Path db = dir.resolve("db");
        try (ServerProcess server = ServerProcess.start(db, "--storage", "ssd", "--disk-cache", "16m");
             Jedis j = new Jedis("127.0.0.1", server.port)) {
            assertThat(server.printed()).contains("data durable in " + db.toAbsolutePath() + " (storage ssd, fsync before each reply)");
            assertThat(Files.readString(db.resolve("STORAGE")).trim()).isEqualTo("ssd");
            assertThat(j.info("persistence")).contains("strata_durable:1\r\n", "strata_storage:ssd\r\n");
            j.set("k", "v");
        }
        try (ServerProcess again = ServerProcess.start(db); Jedis j = new Jedis("127.0.0.1", again.port)) {
            assertThat(again.printed()).as("no --storage: what created the directory").contains("(storage ssd,");
            assertThat(j.get("k")).isEqualTo("v");
        }
        try (ServerProcess memory = ServerProcess.start(db, "--storage", "memory")) {
            assertExited(memory, 1);
            assertThat(memory.printed()).isEqualTo("strata serve redis: the Strata database " + db.toAbsolutePath()
                    + " was created with storage ssd; it cannot be opened with storage memory"
                    + " (open it without choosing a storage, or use a new directory)");
        }
    }

    @Test
    void aNewDirectoryIsMemoryByDefaultAndTheConfigFileMayChoose() throws Exception {
        try (ServerProcess server = ServerProcess.start(dir.resolve("default"), "--disk-cache", "8m");
             Jedis j = new Jedis("127.0.0.1", server.port)) {
            assertThat(server.printed()).contains("(storage memory, fsync before each reply)")
                    .contains("strata serve redis: --disk-cache has no effect: the database's storage is memory");
            assertThat(j.info("persistence")).contains("strata_storage:memory\r\n");
        }
        Path conf = dir.resolve("redis.conf");
        Files.writeString(conf, "# Strata's storage engine\nstorage ssd\n");
        try (ServerProcess server = ServerProcess.start(dir.resolve("conf"), "--config", conf.toString())) {
            assertThat(server.isReady()).as(server.printed()).isTrue();
            assertThat(Files.readString(dir.resolve("conf").resolve("STORAGE")).trim()).isEqualTo("ssd");
        }
        Files.writeString(conf, "storage disk\n");
        try (ServerProcess bad = ServerProcess.start(dir.resolve("bad"), "--config", conf.toString())) {
            assertExited(bad, 2);
            assertThat(bad.printed()).isEqualTo("strata serve redis: " + conf + " line 1: storage: expected memory or ssd, got 'disk'");
        }
    }

    @Test
    void aBadStorageOrStorageWithoutADirectoryIsRefused() throws Exception {
        try (ServerProcess bad = ServerProcess.start(dir.resolve("db"), "--storage", "x")) {
            assertExited(bad, 2);
            assertThat(bad.printed()).startsWith("Invalid value for option '--storage': expected memory or ssd, got 'x'\n");
        }
        assertThat(dir.resolve("db")).doesNotExist();
        try (ServerProcess memory = ServerProcess.startWith("--memory", "--storage", "ssd")) {
            assertExited(memory, 2);
            assertThat(memory.printed()).isEqualTo("strata serve redis: --storage applies to a database directory (--dir), "
                    + "not to --memory, which keeps no directory");
        }
        try (ServerProcess cache = ServerProcess.start(dir.resolve("db"), "--storage", "memory", "--disk-cache", "64m")) {
            assertExited(cache, 2);
            assertThat(cache.printed()).isEqualTo("strata serve redis: --disk-cache applies to --storage ssd only");
        }
    }
}
