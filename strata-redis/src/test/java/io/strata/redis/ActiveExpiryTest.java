package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import io.strata.Strata;
import io.strata.layers.directory.StrataDirectoryLayer;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.server.RedisServer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.params.SetParams;

/** The expiry cycle: due keys disappear without being touched, from the index kept in the database. */
class ActiveExpiryTest {

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            Thread.sleep(20);
        }
    }

    private static long expiryIndexSize(Database database) {
        Keyspace keyspace = new Keyspace(new StrataDirectoryLayer().createOrOpen(database, RedisServer.DIRECTORY).join());
        return database.run(tr -> (long) tr.getRange(keyspace.expiredBy(Long.MAX_VALUE - 1)).asList().join().size());
    }

    @Test
    void dueKeysLeaveWithoutBeingAccessed() throws Exception {
        try (RunningServer server = RunningServer.start(); Jedis jedis = server.jedis()) {
            // More than one batch of the cycle, written in one transaction (one commit).
            Transaction multi = jedis.multi();
            for (int i = 0; i < 150; i++) {
                multi.set("short:" + i, "v", SetParams.setParams().px(500));
            }
            multi.exec();
            jedis.set("long", "v", SetParams.setParams().ex(100));
            jedis.set("forever", "v");
            assertThat(jedis.dbSize()).isEqualTo(152);
            server.advanceMillis(1_000);
            await(() -> jedis.dbSize() == 2);
            assertThat(jedis.keys("*")).containsExactlyInAnyOrder("long", "forever");
            assertThat(server.server.expiryCycle().isActive()).isTrue();
            assertThat(expiryIndexSize(server.database)).isEqualTo(1);
        }
    }

    @Test
    void noActiveExpiryWhenTurnedOff() throws Exception {
        try (RunningServer server = RunningServer.start(); Jedis jedis = server.jedis()) {
            server.server.expiryCycle().setActive(false);
            jedis.set("k", "v", SetParams.setParams().px(100));
            server.advanceMillis(200);
            Thread.sleep(300);
            assertThat(jedis.dbSize()).isEqualTo(1);
            server.server.expiryCycle().setActive(true);
            await(() -> jedis.dbSize() == 0);
        }
    }

    @Test
    void staleIndexEntriesAreClearedAndChangedExpiriesHonoured() throws Exception {
        try (RunningServer server = RunningServer.start(); Jedis jedis = server.jedis()) {
            jedis.set("flushed", "v", SetParams.setParams().px(100));
            jedis.flushDB(); // leaves the index entry behind
            jedis.set("flushed", "again");
            jedis.set("moved", "v", SetParams.setParams().px(100));
            jedis.pexpire("moved", 100_000);
            server.advanceMillis(200);
            await(() -> expiryIndexSize(server.database) == 1);
            assertThat(jedis.exists("moved", "flushed")).isEqualTo(2);
            assertThat(jedis.ttl("flushed")).isEqualTo(-1);
        }
    }

    @Test
    void expiriesSurviveARestartOnTheSameDatabase() throws Exception {
        Database database = Strata.inMemory();
        AtomicLong clock = new AtomicLong(System.currentTimeMillis());
        try {
            RedisServer first = RedisServer.start(database, RedisConfig.defaults().withPort(0), clock::get);
            first.expiryCycle().setActive(false);
            try (Jedis jedis = new Jedis("127.0.0.1", first.port())) {
                jedis.set("k", "v", SetParams.setParams().px(1_000));
                jedis.set("stays", "v");
            }
            first.close();
            clock.addAndGet(2_000);
            RedisServer second = RedisServer.start(database, RedisConfig.defaults().withPort(0), clock::get);
            try (Jedis jedis = new Jedis("127.0.0.1", second.port())) {
                await(() -> jedis.dbSize() == 1);
                assertThat(jedis.keys("*")).containsExactly("stays");
            } finally {
                second.close();
            }
        } finally {
            database.close();
        }
    }
}
