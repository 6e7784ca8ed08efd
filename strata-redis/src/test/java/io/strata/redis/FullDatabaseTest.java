package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.commit.CommitPipeline;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.eviction.DatabaseMemory;
import io.strata.redis.server.RedisServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A database that refuses writes because it is full (Strata's engine past its memory limit:
 * {@code storage_quota_exceeded}) answers writes with Redis's OOM error, as Redis past
 * {@code maxmemory} does under {@code noeviction}; reads and deletes go on, so a client can
 * free space.
 */
class FullDatabaseTest {
    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    private static final int VALUE = 20_000;

    @Test
    void writesGetOomWhileReadsAndDeletesGoOn() throws Exception {
        // The memory engine's full store; the disk engine's window drains, so it refuses retryably (1042) instead.
        Assumptions.assumeFalse(Storage.SSD.label().equals(System.getProperty(Strata.TEST_STORAGE_PROPERTY)));
        try (Database db = Strata.builder().memoryLimit(1 << 20).inMemory()) {
            RedisServer server = RedisServer.start(db, RedisConfig.defaults().withPort(0));
            try (Jedis jedis = new Jedis("127.0.0.1", server.port(), 10_000)) {
                String value = "v".repeat(VALUE);
                int written = 0;
                JedisDataException refused = null;
                while (refused == null && written < 500) {
                    try {
                        jedis.set("key:" + written, value);
                        written++;
                    } catch (JedisDataException e) {
                        refused = e;
                    }
                }
                assertThat(refused).isNotNull().hasMessage(OOM);
                assertThat(written).isBetween(10, 60);
                assertThat(jedis.get("key:0")).isEqualTo(value);
                assertThatThrownBy(() -> jedis.rpush("list", "x")).hasMessage(OOM);
                assertThatThrownBy(() -> jedis.incr("counter")).hasMessage(OOM);
                assertThat(jedis.del("key:0", "key:1")).isEqualTo(2);
                assertThat(jedis.exists("key:0")).isFalse();
                assertThat(jedis.flushDB()).isEqualTo("OK");
                assertThat(jedis.dbSize()).isZero();
            } finally {
                server.close();
            }
        }
    }

    @Test
    void maxmemoryGovernsTheDatabasesLimitWhenTheServerIsGivenIt() throws Exception {
        try (Database db = Strata.inMemory()) {
            CommitPipeline pipeline = ((EngineDatabase) db).engine().pipeline();
            long engineDefault = pipeline.memoryLimit();
            List<Long> applied = new ArrayList<>();
            RedisServer server = RedisServer.start(db, RedisConfig.defaults().withPort(0));
            server.applyMaxmemoryTo(DatabaseMemory.of(pipeline::settledBytes, pipeline::settledVersion, bytes -> {
                applied.add(bytes);
                pipeline.memoryLimit(bytes > 0 ? bytes : engineDefault);
            }, pipeline::isFull));
            try (Jedis jedis = new Jedis("127.0.0.1", server.port(), 10_000)) {
                jedis.set("before", "v");
                assertThat(jedis.configSet("maxmemory", "1")).isEqualTo("OK");
                assertThatThrownBy(() -> jedis.set("after", "v")).hasMessage(OOM);
                // Rejected before running, as Redis rejects denyoom commands past maxmemory.
                assertThat(jedis.info("commandstats")).contains("cmdstat_set:calls=1,", "rejected_calls=1,");
                assertThatThrownBy(() -> jedis.eval("return redis.call('set', 'x', 'y')")).hasMessageContaining(OOM);
                assertThat(jedis.eval("return redis.call('get', 'before')")).isEqualTo("v");
                assertThat(jedis.get("before")).isEqualTo("v");
                assertThat(jedis.del("before")).isEqualTo(1);
                assertThat(jedis.configSet("maxmemory", "1mb")).isEqualTo("OK");
                assertThat(pipeline.memoryLimit()).isEqualTo(1 << 20);
                assertThat(jedis.set("after", "v")).isEqualTo("OK");
                assertThat(jedis.configSet("maxmemory", "0")).isEqualTo("OK");
                assertThat(jedis.set("again", "v")).isEqualTo("OK");
                assertThat(pipeline.memoryLimit()).isEqualTo(engineDefault);
                assertThat(applied).containsExactly(0L, 1L, 1L << 20, 0L);
            } finally {
                server.close();
            }
        }
    }
}
