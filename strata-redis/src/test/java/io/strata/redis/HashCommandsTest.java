package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.KeyValue;

/** The hash commands over TCP with Jedis, RESP2 and RESP3. */
class HashCommandsTest {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

    private RunningServer server;
    private Jedis jedis;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        jedis = server.jedis();
    }

    @AfterEach
    void stop() {
        jedis.close();
        server.close();
    }

    private Object raw(Command command, String... args) {
        return jedis.sendCommand(command, args);
    }

    private static String text(Object reply) {
        return new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    private Map<String, String> fields(int n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put("f" + i, "v" + i);
        }
        return m;
    }

    @Test
    void hsetCountsOnlyNewFieldsAndTheLastValueOfARepeatedFieldWins() {
        assertThat(raw(Command.HSET, "h", "a", "1", "b", "2", "a", "3")).isEqualTo(2L);
        assertThat(jedis.hget("h", "a")).isEqualTo("3");
        assertThat(raw(Command.HSET, "h", "a", "4", "c", "5")).isEqualTo(1L);
        assertThat(jedis.hlen("h")).isEqualTo(3);
        assertThat(jedis.hmget("h", "a", "nope", "c")).containsExactly("4", null, "5");
        assertThat(jedis.hexists("h", "b")).isTrue();
        assertThat(jedis.hexists("h", "nope")).isFalse();
        assertThat(jedis.hstrlen("h", "c")).isEqualTo(1);
        assertThat(jedis.hstrlen("h", "nope")).isZero();
        assertThat(jedis.type("h")).isEqualTo("hash");
    }

    @Test
    void hmsetAnswersOkAndAnOddNumberOfArgumentsIsAnArityError() {
        assertThat(jedis.hmset("h", Map.of("a", "1", "b", "2"))).isEqualTo("OK");
        assertThat(jedis.hgetAll("h")).isEqualTo(Map.of("a", "1", "b", "2"));
        assertThatThrownBy(() -> raw(Command.HSET, "h", "a", "1", "b"))
                .hasMessage("ERR wrong number of arguments for 'hset' command");
        assertThatThrownBy(() -> raw(Command.HMSET, "h", "a", "1", "b"))
                .hasMessage("ERR wrong number of arguments for 'hmset' command");
        assertThat(jedis.hget("h", "b")).isEqualTo("2");
    }

    @Test
    void hsetnxSetsOnlyAnAbsentField() {
        assertThat(jedis.hsetnx("h", "a", "1")).isEqualTo(1);
        assertThat(jedis.hsetnx("h", "a", "2")).isZero();
        assertThat(jedis.hget("h", "a")).isEqualTo("1");
        assertThat(jedis.hlen("h")).isEqualTo(1);
    }

    @Test
    void hdelCountsDistinctRemovedFieldsAndDeletesTheKeyWithItsLastField() {
        jedis.hset("h", Map.of("a", "1", "b", "2", "c", "3"));
        assertThat(jedis.hdel("h", "x", "y")).isZero();
        assertThat(jedis.hdel("h", "a", "a", "x")).isEqualTo(1);
        assertThat(jedis.hlen("h")).isEqualTo(2);
        assertThat(jedis.dbSize()).isEqualTo(1);
        assertThat(jedis.hdel("h", "b", "c")).isEqualTo(2);
        assertThat(jedis.exists("h")).isFalse();
        assertThat(jedis.type("h")).isEqualTo("none");
        assertThat(jedis.dbSize()).isZero();
        assertThat(jedis.hdel("h", "a")).isZero();
        // A hash made again starts empty.
        jedis.hset("h", "z", "1");
        assertThat(jedis.hgetAll("h")).isEqualTo(Map.of("z", "1"));
    }

    @Test
    void anAbsentKeyReadsAsAnEmptyHash() {
        assertThat(jedis.hget("h", "a")).isNull();
        assertThat(jedis.hmget("h", "a", "b")).containsExactly(null, null);
        assertThat(jedis.hlen("h")).isZero();
        assertThat(jedis.hstrlen("h", "a")).isZero();
        assertThat(jedis.hexists("h", "a")).isFalse();
        assertThat(jedis.hgetAll("h")).isEmpty();
        assertThat(jedis.hkeys("h")).isEmpty();
        assertThat(jedis.hvals("h")).isEmpty();
        assertThat(jedis.hrandfield("h")).isNull();
        assertThat(jedis.hrandfield("h", 5)).isEmpty();
        ScanResult<Map.Entry<String, String>> scan = jedis.hscan("h", "0");
        assertThat(scan.getCursor()).isEqualTo("0");
        assertThat(scan.getResult()).isEmpty();
        assertThat(jedis.exists("h")).isFalse();
    }

    @Test
    void everyHashCommandRefusesAnotherTypeAndOtherTypesRefuseAHash() {
        jedis.set("s", "v");
        List<Runnable> calls = List.of(
                () -> jedis.hset("s", "a", "1"), () -> jedis.hmset("s", Map.of("a", "1")), () -> jedis.hsetnx("s", "a", "1"),
                () -> jedis.hget("s", "a"), () -> jedis.hmget("s", "a"), () -> jedis.hdel("s", "a"), () -> jedis.hlen("s"),
                () -> jedis.hstrlen("s", "a"), () -> jedis.hexists("s", "a"), () -> jedis.hkeys("s"), () -> jedis.hvals("s"),
                () -> jedis.hgetAll("s"), () -> jedis.hincrBy("s", "a", 1), () -> jedis.hincrByFloat("s", "a", 1),
                () -> jedis.hrandfield("s"), () -> jedis.hrandfield("s", 2), () -> jedis.hscan("s", "0"));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(JedisDataException.class).hasMessage(WRONGTYPE);
        }
        assertThat(jedis.get("s")).isEqualTo("v");
        jedis.hset("h", "a", "1");
        assertThatThrownBy(() -> jedis.get("h")).hasMessage(WRONGTYPE);
    }

    @Test
    void hincrbyAddsWithinSixtyFourBits() {
        assertThat(jedis.hincrBy("h", "n", 5)).isEqualTo(5);
        assertThat(jedis.hincrBy("h", "n", -7)).isEqualTo(-2);
        assertThat(jedis.hget("h", "n")).isEqualTo("-2");
        jedis.hset("h", "big", "17179869184");
        assertThat(jedis.hincrBy("h", "big", 17179869184L)).isEqualTo(34359738368L);
        jedis.hset("h", "max", Long.toString(Long.MAX_VALUE));
        assertThatThrownBy(() -> jedis.hincrBy("h", "max", 1)).hasMessage("ERR increment or decrement would overflow");
        jedis.hset("h", "text", " 11");
        assertThatThrownBy(() -> jedis.hincrBy("h", "text", 1)).hasMessage("ERR hash value is not an integer");
        assertThatThrownBy(() -> raw(Command.HINCRBY, "h", "n", "1.5"))
                .hasMessage("ERR value is not an integer or out of range");
        assertThat(jedis.hget("h", "max")).isEqualTo(Long.toString(Long.MAX_VALUE));
        assertThat(jedis.hlen("h")).isEqualTo(4);
    }

    @Test
    void hincrbyfloatAnswersAsRedisLongDoublesPrint() {
        assertThat(text(raw(Command.HINCRBYFLOAT, "h", "f", "1.23"))).isEqualTo("1.23");
        assertThat(text(raw(Command.HINCRBYFLOAT, "h", "f", "0.77"))).isEqualTo("2");
        assertThat(text(raw(Command.HINCRBYFLOAT, "h", "f", "-0.1"))).isEqualTo("1.9");
        assertThat(text(raw(Command.HINCRBYFLOAT, "h", "g", "1000.1"))).isEqualTo("1000.09999999999999998");
        assertThat(jedis.hget("h", "g")).isEqualTo("1000.09999999999999998");
        jedis.hset("h", "int", "17179869184");
        assertThat(text(raw(Command.HINCRBYFLOAT, "h", "int", "17179869184"))).isEqualTo("34359738368");
    }

    @Test
    void hincrbyfloatErrorsLeaveNothingBehind() {
        assertThatThrownBy(() -> raw(Command.HINCRBYFLOAT, "h", "f", "+inf")).hasMessage("ERR value is NaN or Infinity");
        assertThatThrownBy(() -> raw(Command.HINCRBYFLOAT, "h", "f", "x")).hasMessage("ERR value is not a valid float");
        assertThat(jedis.exists("h")).isFalse();
        jedis.hset("h", "s", "11 ");
        jedis.hset("h", "nul", "1\u00002");
        jedis.hset("h", "inf", "inf");
        assertThatThrownBy(() -> raw(Command.HINCRBYFLOAT, "h", "s", "1")).hasMessage("ERR hash value is not a float");
        assertThatThrownBy(() -> raw(Command.HINCRBYFLOAT, "h", "nul", "1")).hasMessage("ERR hash value is not a float");
        assertThatThrownBy(() -> raw(Command.HINCRBYFLOAT, "h", "inf", "1"))
                .hasMessage("ERR increment would produce NaN or Infinity");
        assertThat(jedis.hget("h", "s")).isEqualTo("11 ");
        assertThat(jedis.hget("h", "inf")).isEqualTo("inf");
    }

    @Test
    void wholeHashReadsReturnEveryFieldOnce() {
        Map<String, String> m = fields(300);
        jedis.hset("h", m);
        assertThat(jedis.hlen("h")).isEqualTo(300);
        assertThat(jedis.hgetAll("h")).isEqualTo(m);
        assertThat(jedis.hkeys("h")).containsExactlyInAnyOrderElementsOf(m.keySet());
        assertThat(jedis.hvals("h")).containsExactlyInAnyOrderElementsOf(m.values());
    }

    @Test
    void binaryFieldsAndValuesRoundTrip() {
        byte[] key = {'h', 0};
        byte[] f1 = {0, (byte) 0xff};
        byte[] f2 = {(byte) 0xff};
        byte[] f3 = {};
        byte[] v = {'\r', '\n', 0, (byte) 0x80};
        jedis.hset(key, Map.of(f1, v, f2, v, f3, v));
        assertThat(jedis.hget(key, f1)).isEqualTo(v);
        assertThat(jedis.hget(key, f3)).isEqualTo(v);
        assertThat(jedis.hgetAll(key)).hasSize(3);
        assertThat(jedis.hdel(key, f1, f2, f3)).isEqualTo(3);
        assertThat(jedis.exists(key)).isFalse();
    }

    @Test
    void oversizedFieldsAndValuesAreRefusedWithoutWriting() {
        String hugeValue = "x".repeat(100_001);
        String hugeField = "f".repeat(10_000);
        assertThatThrownBy(() -> jedis.hset("h", Map.of("a", "1", "b", hugeValue))).hasMessageContaining("not supported");
        assertThatThrownBy(() -> jedis.hset("h", hugeField, "1")).hasMessageContaining("not supported");
        assertThat(jedis.exists("h")).isFalse();
        String largest = "y".repeat(100_000);
        jedis.hset("h", "big", largest);
        assertThat(jedis.hget("h", "big")).isEqualTo(largest);
    }

    @Test
    void hrandfieldCountsAndTheirErrors() {
        Map<String, String> m = fields(10);
        jedis.hset("h", m);
        assertThat(m).containsKey(jedis.hrandfield("h"));
        assertThat(jedis.hrandfield("h", 0)).isEmpty();
        assertThat(jedis.hrandfield("h", 20)).containsExactlyInAnyOrderElementsOf(m.keySet());
        List<String> some = jedis.hrandfield("h", 4);
        assertThat(some).hasSize(4).doesNotHaveDuplicates();
        assertThat(m.keySet()).containsAll(some);
        assertThat(jedis.hrandfield("h", -1001)).hasSize(1001);
        List<Map.Entry<String, String>> pairs = jedis.hrandfieldWithValues("h", -30);
        assertThat(pairs).hasSize(30).allSatisfy(e -> assertThat(m.get(e.getKey())).isEqualTo(e.getValue()));
        assertThat(jedis.hrandfieldWithValues("h", 1)).hasSize(1);

        assertThatThrownBy(() -> raw(Command.HRANDFIELD, "h", "-9223372036854775808"))
                .hasMessage("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807");
        assertThatThrownBy(() -> raw(Command.HRANDFIELD, "h", "-9223372036854770000", "withvalues"))
                .hasMessage("ERR value is out of range");
        assertThatThrownBy(() -> raw(Command.HRANDFIELD, "h", "1", "foo")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> raw(Command.HRANDFIELD, "h", "x")).hasMessage("ERR value is not an integer or out of range");
        // The count is checked before the key.
        assertThatThrownBy(() -> raw(Command.HRANDFIELD, "nokey", "1", "foo")).hasMessage("ERR syntax error");
    }

    @Test
    void hrandfieldPicksEveryFieldAboutEquallyOften() {
        jedis.hset("h", fields(10));
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            seen.merge(jedis.hrandfield("h"), 1, Integer::sum);
        }
        for (String field : jedis.hrandfield("h", -2000)) {
            seen.merge(field, 1, Integer::sum);
        }
        // 300 expected draws each; a fair draw falls below 200 with probability far under 1e-9.
        assertThat(seen).hasSize(10);
        assertThat(seen.values()).allSatisfy(n -> assertThat(n).isGreaterThan(200));
    }

    @Test
    void hscanAnswersASmallHashWholeWithCursorZero() {
        jedis.hset("h", fields(100));
        ScanResult<Map.Entry<String, String>> r = jedis.hscan("h", "0", new ScanParams().count(5));
        assertThat(r.getCursor()).isEqualTo("0");
        assertThat(r.getResult()).hasSize(100);
        ScanResult<Map.Entry<String, String>> matched = jedis.hscan("h", "0", new ScanParams().match("f1*"));
        assertThat(matched.getResult()).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("f1", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19");
        assertThat(matched.getResult()).allSatisfy(e -> assertThat(e.getValue()).isEqualTo("v" + e.getKey().substring(1)));
    }

    @Test
    void hscanWalksALargeHashByCountAndSurvivesWrites() {
        // More than hash-max-listpack-entries (512): a hash table, walked by cursor.
        Map<String, String> m = fields(600);
        jedis.hset("h", m);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int calls = 0;
        do {
            ScanResult<Map.Entry<String, String>> r = jedis.hscan("h", cursor, new ScanParams().count(50));
            for (Map.Entry<String, String> e : r.getResult()) {
                assertThat(seen.add(e.getKey())).as("returned once: " + e.getKey()).isTrue();
            }
            cursor = r.getCursor();
            if (calls++ == 3) {
                jedis.hset("h", "new", "x");
                jedis.hdel("h", "f599");
                m.remove("f599");
            }
        } while (!cursor.equals("0"));
        assertThat(calls).isGreaterThanOrEqualTo(10);
        assertThat(seen).containsAll(m.keySet());
    }

    @Test
    void hscanChecksTheCursorBeforeTheKeyAndTheOptionsAfterIt() {
        assertThatThrownBy(() -> raw(Command.HSCAN, "nokey", "x")).hasMessage("ERR invalid cursor");
        assertThat(raw(Command.HSCAN, "nokey", "0", "COUNT", "0")).asList().hasSize(2);
        jedis.hset("h", "a", "1");
        assertThatThrownBy(() -> raw(Command.HSCAN, "h", "0", "COUNT", "0")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> raw(Command.HSCAN, "h", "0", "TYPE", "hash")).hasMessage("ERR syntax error");
    }

    @Test
    void hashCommandsComposeInsideMultiExec() {
        jedis.hset("h", "text", "abc");
        Transaction t = jedis.multi();
        t.hset("h", Map.of("a", "1", "b", "2"));
        t.hincrBy("h", "text", 1);
        t.hdel("h", "a");
        t.hlen("h");
        t.hincrByFloat("new", "f", Double.POSITIVE_INFINITY);
        t.hdel("h", "b", "text");
        t.exists("h");
        t.hset("h", "c", "3");
        t.hgetAll("h");
        List<Object> replies = t.exec();
        assertThat(replies.get(0)).isEqualTo(2L);
        assertThat(replies.get(1)).isInstanceOf(JedisDataException.class);
        assertThat(replies.get(2)).isEqualTo(1L);
        assertThat(replies.get(3)).isEqualTo(2L);
        assertThat(replies.get(4)).isInstanceOf(JedisDataException.class);
        assertThat(replies.get(5)).isEqualTo(2L);
        assertThat(replies.get(6)).isEqualTo(false);
        assertThat(replies.get(7)).isEqualTo(1L);
        assertThat(replies.get(8)).isEqualTo(Map.of("c", "3"));
        assertThat(jedis.exists("new")).isFalse();
        assertThat(jedis.hlen("h")).isEqualTo(1);
    }

    @Test
    void aFieldChangeAbortsAWatchingExecButAMissedHdelDoesNot() {
        jedis.hset("h", "a", "1");
        try (Jedis other = server.jedis()) {
            jedis.watch("h");
            other.hdel("h", "nothing");
            Transaction t = jedis.multi();
            t.hset("h", "b", "2");
            assertThat(t.exec()).containsExactly(1L);

            jedis.watch("h");
            other.hset("h", "a", "changed");
            t = jedis.multi();
            t.hset("h", "c", "3");
            assertThat(t.exec()).isNull();
        }
        assertThat(jedis.hexists("h", "c")).isFalse();
    }

    @Test
    void aHashKeepsItsExpiryAndAnExpiredOneStartsOverEmpty() {
        jedis.hset("h", Map.of("a", "1", "b", "2"));
        jedis.pexpire("h", 1000);
        jedis.hset("h", "c", "3");
        jedis.hdel("h", "a");
        assertThat(jedis.pttl("h")).isEqualTo(1000);
        server.advanceMillis(1000);
        assertThat(jedis.hlen("h")).isZero();
        assertThat(jedis.hset("h", "z", "1")).isEqualTo(1);
        assertThat(jedis.hgetAll("h")).isEqualTo(Map.of("z", "1"));
        assertThat(jedis.ttl("h")).isEqualTo(-1);
    }

    @Test
    void renameAndDelCarryOrDropTheFields() {
        jedis.hset("h", fields(3));
        jedis.rename("h", "g");
        assertThat(jedis.hgetAll("g")).isEqualTo(fields(3));
        assertThat(jedis.hlen("g")).isEqualTo(3);
        assertThat(jedis.del("g")).isEqualTo(1);
        jedis.hset("g", "x", "y");
        assertThat(jedis.hlen("g")).isEqualTo(1);
    }

    @Test
    void concurrentWritersKeepTheFieldCountExact() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                work.add(pool.submit(() -> {
                    try (Jedis c = server.jedis()) {
                        for (int i = 0; i < 60; i++) {
                            c.hset("h", "w" + writer + ":" + i, "v");
                            c.hset("h", "shared" + (i % 7), "v");
                            if (i % 3 == 0) {
                                c.hdel("h", "w" + writer + ":" + (i / 2), "shared" + (i % 5));
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(jedis.hlen("h")).isEqualTo(jedis.hkeys("h").size());
    }

    @Test
    void resp3AnswersHgetallAsAMapAndRandomPairsAsArrays() {
        jedis.hset("h", Map.of("a", "1", "b", "2"));
        try (Jedis resp3 = new Jedis(new HostAndPort("127.0.0.1", server.port()),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).timeoutMillis(10_000).build())) {
            Object all = resp3.sendCommand(Command.HGETALL, "h");
            assertThat(all).asList().hasSize(2).allSatisfy(kv -> assertThat(kv).isInstanceOf(KeyValue.class));
            assertThat(resp3.sendCommand(Command.HGETALL, "nokey")).asList().isEmpty();
            Object keys = resp3.sendCommand(Command.HKEYS, "h");
            assertThat(keys).asList().allSatisfy(k -> assertThat(k).isInstanceOf(byte[].class));
            Object pairs = resp3.sendCommand(Command.HRANDFIELD, "h", "-3", "WITHVALUES");
            assertThat(pairs).asList().hasSize(3).allSatisfy(p -> assertThat(p).asList().hasSize(2));
            Object one = resp3.sendCommand(Command.HRANDFIELD, "h", "1", "WITHVALUES");
            assertThat(one).asList().hasSize(1).allSatisfy(p -> assertThat(p).asList().hasSize(2));
            assertThat(resp3.sendCommand(Command.HRANDFIELD, "nokey")).isNull();
        }
        assertThat(raw(Command.HRANDFIELD, "h", "-3", "WITHVALUES")).asList().hasSize(6);
    }
}
