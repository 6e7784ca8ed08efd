package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import io.strata.Storage;
import io.strata.Strata;
import io.strata.engine.client.EngineDatabase;
import io.strata.engine.commit.CommitPipeline;
import io.strata.redis.command.AccessClock;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.eviction.DatabaseMemory;
import io.strata.redis.server.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * maxmemory with a policy that evicts: writes past the limit delete keys as the policy says
 * and go on; noeviction and a volatile policy with nothing volatile answer OOM. The engine's
 * clock runs 200 times faster than real time, so that its five-second window — which keeps a
 * deleted key's bytes counted until it passes, and counts what was written in it besides —
 * lasts 25 ms here.
 */
class EvictionTest {
    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    private static final String VALUE = "v".repeat(2_000);

    private Database db;
    private RedisServer server;
    /** The server's clock (Unix ms), which OBJECT IDLETIME and the LRU policies read. */
    private final AtomicLong clock = new AtomicLong(System.currentTimeMillis());

    @BeforeEach
    void start() throws Exception {
        // The disk engine's memory holds only the window: it does not evict (DatabaseMemory).
        Assumptions.assumeFalse(Storage.SSD.label().equals(System.getProperty(Strata.TEST_STORAGE_PROPERTY)));
        long origin = System.nanoTime();
        db = Strata.builder().nanoTime(() -> origin + (System.nanoTime() - origin) * 200).inMemory();
        CommitPipeline pipeline = ((EngineDatabase) db).engine().pipeline();
        server = RedisServer.start(db, RedisConfig.defaults().withPort(0), clock::get);
        server.applyMaxmemoryTo(DatabaseMemory.of(pipeline::settledBytes, pipeline::settledVersion,
                bytes -> pipeline.memoryLimit(bytes > 0 ? bytes : CommitPipeline.defaultMemoryLimit()), pipeline::isFull));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (db != null) {
            db.close();
        }
    }

    private Jedis jedis() {
        return new Jedis("127.0.0.1", server.port(), 30_000);
    }

    private static long infoField(Jedis jedis, String section, String field) {
        for (String line : jedis.info(section).split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1));
            }
        }
        throw new AssertionError(field + " not in INFO " + section);
    }

    /** Sets maxmemory to what the data takes, once settled, plus {@code room} bytes; returns the limit. */
    private static long limitAtDatasetPlus(Jedis jedis, long room) throws InterruptedException {
        long limit = settledDataset(jedis) + room;
        jedis.configSet("maxmemory", Long.toString(limit));
        return limit;
    }

    /** Waits until the gauge has settled (the window has passed every eviction), then reads it. */
    private static long settledDataset(Jedis jedis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long last = -1;
        while (System.nanoTime() < deadline) {
            jedis.set("tick", "t");
            Thread.sleep(100);
            long now = infoField(jedis, "memory", "used_memory_dataset");
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    @Test
    void allkeysRandomKeepsTheDataUnderMaxmemoryAndWritesGoOn() throws Exception {
        try (Jedis jedis = jedis()) {
            jedis.configSet("maxmemory-policy", "allkeys-random");
            jedis.configSet("latency-monitor-threshold", "1");
            long limit = limitAtDatasetPlus(jedis, 1 << 20);
            for (int i = 0; i < 2_000; i++) {
                assertThat(jedis.set("key:" + i, VALUE)).isEqualTo("OK");
            }
            // 4 MB written into 1 MB of room: once the window has passed, the data is back under the limit.
            assertThat(settledDataset(jedis)).isLessThanOrEqualTo(limit + (64 << 10));
            long evicted = infoField(jedis, "stats", "evicted_keys");
            assertThat(evicted).isGreaterThan(1_000);
            assertThat(jedis.dbSize()).isLessThan(2_000 - 1_000);
            assertThat(jedis.get("key:1999")).isEqualTo(VALUE);
            // Rounds that freed room while writes waited are the latency monitor's eviction-cycle samples.
            assertThat(Raw.list(Raw.call(jedis, "LATENCY", "LATEST"))).anySatisfy(e -> assertThat(Raw.list(e).get(0)).isEqualTo("eviction-cycle"));
            jedis.configResetStat();
            assertThat(infoField(jedis, "stats", "evicted_keys")).isZero();
        }
    }

    /** As Redis's own "is the memory limit honoured?" test (unit/maxmemory), policy by policy. */
    @ParameterizedTest
    @ValueSource(strings = {"allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru", "volatile-lfu",
            "volatile-random", "volatile-ttl"})
    void everyPolicyHonoursTheLimit(String policy) throws Exception {
        try (Jedis jedis = jedis()) {
            jedis.configSet("maxmemory-policy", policy);
            long limit = limitAtDatasetPlus(jedis, 512 << 10);
            for (int i = 0; i < 800; i++) {
                assertThat(jedis.setex("key:" + i, 10_000 + i, VALUE)).isEqualTo("OK");
            }
            assertThat(settledDataset(jedis)).isLessThanOrEqualTo(limit + (64 << 10));
            assertThat(infoField(jedis, "stats", "evicted_keys")).isGreaterThan(200);
        }
    }

    @Test
    void noevictionAndAVolatilePolicyWithNothingVolatileAnswerOom() throws Exception {
        try (Jedis jedis = jedis()) {
            jedis.configSet("maxmemory-policy", "volatile-lru");
            limitAtDatasetPlus(jedis, 256 << 10);
            List<Integer> written = new ArrayList<>();
            // Writes go on until what they wrote has left the window (the limit measures what is below it).
            assertThatThrownBy(() -> {
                for (int i = 0; i < 5_000; i++) {
                    jedis.set("key:" + i, VALUE);
                    written.add(i);
                }
            }).hasMessage(OOM);
            assertThat(written.size()).isBetween(50, 2_000);
            assertThat(infoField(jedis, "stats", "evicted_keys")).isZero();
            // Scripts that may write are refused too (Redis's pre-command OOM state), reads go on.
            assertThatThrownBy(() -> jedis.eval("return redis.call('set', 'x', 'y')")).hasMessageContaining(OOM);
            assertThat(jedis.eval("return redis.call('get', 'key:0')")).isEqualTo(VALUE);
            // Reads and deletes go on, and deleting makes room again.
            assertThat(jedis.get("key:0")).isEqualTo(VALUE);
            assertThat(jedis.del("key:0")).isEqualTo(1);
            // noeviction: the database's own limit refuses the writes (the one delete made room for a key or so).
            jedis.configSet("maxmemory-policy", "noeviction");
            assertThatThrownBy(() -> {
                for (int i = 0; i < 1_000; i++) {
                    jedis.rpush("list", VALUE);
                }
            }).hasMessage(OOM);
            assertThat(jedis.llen("list")).isLessThan(1_000);
            jedis.configSet("maxmemory", "0");
            assertThat(jedis.rpush("list", "x")).isPositive();
        }
    }

    @Test
    void volatileTtlEvictsTheKeysThatExpireFirstAndNeverAKeyWithoutExpiry() throws Exception {
        try (Jedis jedis = jedis()) {
            for (int i = 0; i < 100; i++) {
                jedis.set("keep:" + i, VALUE);
            }
            jedis.configSet("maxmemory-policy", "volatile-ttl");
            limitAtDatasetPlus(jedis, 1 << 20);
            // 2 MB of volatile keys into 1 MB of room.
            for (int i = 0; i < 1_000; i++) {
                // Later keys expire later.
                assertThat(jedis.setex("tmp:" + i, 10_000 + i, VALUE)).isEqualTo("OK");
            }
            settledDataset(jedis);
            assertThat(infoField(jedis, "stats", "evicted_keys")).isGreaterThan(100);
            for (int i = 0; i < 100; i++) {
                assertThat(jedis.exists("keep:" + i)).isTrue();
            }
            // What is left of the volatile keys is the latest to expire: no key survives one that expires after it.
            int firstLeft = 0;
            while (firstLeft < 1_000 && !jedis.exists("tmp:" + firstLeft)) {
                firstLeft++;
            }
            assertThat(firstLeft).isBetween(100, 999);
            for (int i = firstLeft; i < 1_000; i++) {
                assertThat(jedis.exists("tmp:" + i)).as("tmp:%d", i).isTrue();
            }
        }
    }

    /** Keys of one shape, as an application names them: samples (random points of the key space) reach them evenly. */
    private static String key(int i) {
        return String.format("key:%04d", i);
    }

    @Test
    void allkeysLruEvictsKeysIdleLongestFirst() throws Exception {
        try (Jedis jedis = jedis()) {
            // Even keys cold, odd keys hot.
            for (int i = 0; i < 600; i++) {
                jedis.set(key(i), VALUE);
            }
            clock.addAndGet(1_000_000);
            for (int i = 1; i < 600; i += 2) {
                jedis.get(key(i));
            }
            assertThat(jedis.objectIdletime(key(0))).isGreaterThanOrEqualTo(1_000);
            assertThat(jedis.objectIdletime(key(1))).isZero();
            jedis.configSet("maxmemory-policy", "allkeys-lru");
            limitAtDatasetPlus(jedis, 0);
            // 100 new keys must push out about 100 others: the cold ones, idle for 1,000 s.
            for (int i = 600; i < 700; i++) {
                jedis.set(key(i), VALUE);
            }
            settledDataset(jedis);
            assertEvictedMostlyEven(jedis);
        }
    }

    /** At least 50 of the first 600 keys were evicted, nine in ten of them even (cold, or rarely used). */
    private static void assertEvictedMostlyEven(Jedis jedis) {
        int evenGone = 300 - survivors(jedis, 0);
        int oddGone = 300 - survivors(jedis, 1);
        assertThat(evenGone + oddGone).isGreaterThanOrEqualTo(50);
        assertThat(evenGone).isGreaterThanOrEqualTo(9 * (evenGone + oddGone) / 10);
    }

    /** How many of the keys {@code key(i)}, {@code i < 600}, of parity {@code parity} are left. */
    private static int survivors(Jedis jedis, int parity) {
        int left = 0;
        for (int i = parity; i < 600; i += 2) {
            left += jedis.exists(key(i)) ? 1 : 0;
        }
        return left;
    }

    @Test
    void lfuPoliciesCountAccessesForObjectFreqAndEvictTheRarelyUsed() throws Exception {
        try (Jedis jedis = jedis()) {
            jedis.set("k", "v");
            assertThatThrownBy(() -> jedis.objectFreq("k")).hasMessageStartingWith("ERR An LFU maxmemory policy is not selected");
            jedis.configSet("maxmemory-policy", "allkeys-lfu");
            assertThatThrownBy(() -> jedis.objectIdletime("k")).hasMessageStartingWith("ERR An LFU maxmemory policy is selected");
            jedis.del("k");
            // Every access counts (lfu-log-factor 0), so that the counts below are exact.
            jedis.configSet("lfu-log-factor", "0");
            // Even keys used once, odd keys eleven times.
            for (int i = 0; i < 600; i++) {
                jedis.set(key(i), VALUE);
            }
            for (int round = 0; round < 10; round++) {
                for (int i = 1; i < 600; i += 2) {
                    jedis.get(key(i));
                }
            }
            assertThat(jedis.objectFreq(key(0))).isEqualTo(AccessClock.LFU_INITIAL + 1);
            assertThat(jedis.objectFreq(key(1))).isEqualTo(AccessClock.LFU_INITIAL + 11);
            limitAtDatasetPlus(jedis, 0);
            for (int i = 600; i < 700; i++) {
                jedis.set(key(i), VALUE);
            }
            settledDataset(jedis);
            assertEvictedMostlyEven(jedis);
        }
    }

    @Test
    void anEvictedKeyIsAnnouncedAsEvicted() throws Exception {
        List<String> evicted = new CopyOnWriteArrayList<>();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                evicted.add(message);
            }
        };
        try (Jedis jedis = jedis(); Jedis subscriber = jedis()) {
            jedis.configSet("notify-keyspace-events", "Ee");
            Thread t = new Thread(() -> subscriber.subscribe(listener, "__keyevent@0__:evicted"));
            t.start();
            while (listener.getSubscribedChannels() == 0) {
                Thread.sleep(10);
            }
            jedis.configSet("maxmemory-policy", "allkeys-random");
            limitAtDatasetPlus(jedis, 512 << 10);
            for (int i = 0; i < 500; i++) {
                jedis.set("key:" + i, VALUE);
            }
            settledDataset(jedis);
            long count = infoField(jedis, "stats", "evicted_keys");
            assertThat(count).isPositive();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (evicted.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            listener.unsubscribe();
            t.join();
            assertThat(evicted).hasSize((int) count).allMatch(k -> k.startsWith("key:") || k.equals("tick"));
            for (String k : evicted) {
                // "tick" (settledDataset's) is written again after it goes; the others never are.
                assertThat(jedis.exists(k)).as(k).isEqualTo(k.equals("tick"));
            }
        }
    }
}
