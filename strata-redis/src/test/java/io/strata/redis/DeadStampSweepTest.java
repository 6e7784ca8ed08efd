package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.Strata;
import io.strata.layers.directory.StrataDirectoryLayer;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.keyspace.WatchRegistry;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.server.RedisServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;

/**
 * Deleted keys' change stamps are swept once no WATCH can need them, so that deleting keys
 * leaves nothing behind; while a WATCH is in force, stamps newer than it stay, and EXEC still
 * fails exactly when a watched key changed — including a key absent at WATCH that came and
 * went, and never because the sweep cleared an older stamp.
 */
class DeadStampSweepTest {
    private static Keyspace keyspace(RunningServer s) {
        return new Keyspace(new StrataDirectoryLayer().createOrOpen(s.database, RedisServer.DIRECTORY).join());
    }

    private static byte[] stamp(RunningServer s, String key) {
        Keyspace k = keyspace(s);
        return s.database.read(tr -> tr.get(k.stampKey(0, key.getBytes(StandardCharsets.UTF_8))).join());
    }

    private static List<KeyValue> deadStampIndex(RunningServer s) {
        Keyspace k = keyspace(s);
        return s.database.read(tr -> tr.getRange(k.deadStampsBefore(Long.MAX_VALUE)).asList().join());
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met in 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void deletedAndExpiredKeysLeaveNoStampOnceNoWatchNeedsIt() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis jedis = s.jedis()) {
            for (int i = 0; i < 300; i++) {
                jedis.set("k" + i, "v");
            }
            assertThat(stamp(s, "k0")).isNotNull();
            for (int i = 0; i < 300; i++) {
                jedis.del("k" + i);
            }
            jedis.set("gone", "v", redis.clients.jedis.params.SetParams.setParams().px(1));
            s.advanceMillis(10);
            eventually(() -> stamp(s, "gone") == null && stamp(s, "k299") == null && deadStampIndex(s).isEmpty());
            for (int i = 0; i < 300; i++) {
                assertThat(stamp(s, "k" + i)).isNull();
            }
            // A key deleted and created again keeps the stamp of its new life.
            jedis.set("again", "1");
            jedis.del("again");
            jedis.set("again", "2");
            eventually(() -> deadStampIndex(s).isEmpty());
            assertThat(stamp(s, "again")).isNotNull();
            assertThat(jedis.get("again")).isEqualTo("2");
        }
    }

    @Test
    void aWatchHoldsTheStampsNewerThanItAndExecSeesAKeyThatCameAndWent() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis watcher = s.jedis(); Jedis other = s.jedis()) {
            // An old deletion: its stamp is older than the WATCH below, so it may go.
            other.set("old", "v");
            other.del("old");
            watcher.watch("absent", "old");
            other.set("absent", "v");
            other.del("absent");
            // The sweep runs (the old stamp goes) but keeps the one newer than the WATCH.
            eventually(() -> stamp(s, "old") == null);
            Thread.sleep(500);
            assertThat(stamp(s, "absent")).isNotNull();
            Transaction multi = watcher.multi();
            multi.set("result", "x");
            assertThat(multi.exec()).isNull();
            // EXEC released the WATCH: the stamp goes now.
            eventually(() -> stamp(s, "absent") == null);
        }
    }

    private static List<KeyValue> flushRecords(RunningServer s) {
        Keyspace k = keyspace(s);
        return s.database.read(tr -> tr.getRange(k.flushesBefore(Long.MAX_VALUE)).asList().join());
    }

    /**
     * A flush leaves its keys' stamps for WATCH; they go once no WATCH can need them, in
     * batches (more keys than one batch), while the stamp of a key written after the flush
     * stays; a WATCH older than the flush holds them all.
     */
    @Test
    void theStampsAFlushLeavesGoOnceNoWatchNeedsThem() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis watcher = s.jedis(); Jedis other = s.jedis()) {
            watcher.watch("w");
            for (int i = 0; i < 1_200; i++) {
                other.set("k" + i, "v");
            }
            other.flushAll();
            other.set("after", "v");
            other.flushDB(); // a second flush of database 0: one sweep does for both
            other.set("later", "v");
            Thread.sleep(500);
            assertThat(stamp(s, "k0")).as("held by the WATCH").isNotNull();
            assertThat(flushRecords(s)).isNotEmpty();
            watcher.unwatch();
            eventually(() -> flushRecords(s).isEmpty());
            for (int i = 0; i < 1_200; i++) {
                assertThat(stamp(s, "k" + i)).as("k" + i).isNull();
            }
            assertThat(stamp(s, "after")).isNull();
            assertThat(stamp(s, "later")).isNotNull();
            assertThat(other.get("later")).isEqualTo("v");
        }
    }

    @Test
    void activeExpiryKeepsTheStampOfAKeyCreatedAfterAWatch() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis watcher = s.jedis(); Jedis other = s.jedis()) {
            other.set("old", "v", redis.clients.jedis.params.SetParams.setParams().px(1));
            s.advanceMillis(10);
            // Expired with no WATCH in force: its stamp is cleared with it, nothing left to sweep.
            eventually(() -> stamp(s, "old") == null && deadStampIndex(s).isEmpty());
            watcher.watch("k");
            other.set("k", "v", redis.clients.jedis.params.SetParams.setParams().px(1));
            s.advanceMillis(10);
            eventually(() -> !other.exists("k"));
            Thread.sleep(300);
            assertThat(stamp(s, "k")).isNotNull();
            Transaction multi = watcher.multi();
            multi.set("k", "mine");
            assertThat(multi.exec()).isNull();
        }
    }

    @Test
    void aStampSweptAfterWatchIsNoChange() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis watcher = s.jedis(); Jedis other = s.jedis()) {
            other.set("k", "v");
            other.del("k");
            // The WATCH reads the dead stamp; the sweep then clears it (it is older than the WATCH).
            watcher.watch("k");
            eventually(() -> stamp(s, "k") == null);
            Transaction multi = watcher.multi();
            multi.set("k", "mine");
            assertThat(multi.exec()).containsExactly("OK");
            assertThat(watcher.get("k")).isEqualTo("mine");
        }
    }

    @Test
    void aWatchedLiveKeyThatIsDeletedFailsExec() throws Exception {
        try (RunningServer s = RunningServer.start(); Jedis watcher = s.jedis(); Jedis other = s.jedis()) {
            other.set("k", "v");
            watcher.watch("k");
            other.del("k");
            Transaction multi = watcher.multi();
            multi.set("k", "mine");
            assertThat(multi.exec()).isNull();
            assertThat(watcher.exists("k")).isFalse();
        }
    }

    private static List<KeyValue> registryEntries(Database db, Subspace area) {
        return db.read(tr -> tr.getRange(area.range()).asList().join());
    }

    private static long floor(Database db, WatchRegistry registry, long now) {
        return db.run(tr -> registry.floor(tr, now).join());
    }

    @Test
    void aStoppedServerWithdrawsItsFloorAndACrashedOnesLeaseRunsOut() throws Exception {
        try (Database db = Strata.inMemory()) {
            RedisServer server = RedisServer.start(db, RedisConfig.defaults().withPort(0));
            Keyspace k = new Keyspace(new StrataDirectoryLayer().createOrOpen(db, RedisServer.DIRECTORY).join());
            Subspace area = k.area('w');
            try (Jedis jedis = new Jedis("127.0.0.1", server.port(), 10_000)) {
                jedis.watch("x");
                assertThat(registryEntries(db, area)).hasSize(2);
            } finally {
                server.close();
            }
            assertThat(registryEntries(db, area)).isEmpty();
            // A process that stopped renewing its lease (it crashed) holds the floor no more.
            long now = System.currentTimeMillis();
            WatchRegistry crashed = new WatchRegistry(area, "crashed");
            WatchRegistry live = new WatchRegistry(area, "live");
            db.run(tr -> {
                crashed.watching(tr, 100, now - WatchRegistry.LEASE_MILLIS - 1);
                live.watching(tr, 200, now);
                return null;
            });
            assertThat(floor(db, live, now)).isEqualTo(200L);
            assertThat(registryEntries(db, area)).hasSize(2);
            db.run(tr -> {
                live.withdraw(tr);
                return null;
            });
            assertThat(floor(db, live, now)).isEqualTo(WatchRegistry.NONE);
        }
    }
}
