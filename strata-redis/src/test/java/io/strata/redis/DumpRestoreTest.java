package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.Tuple;
import redis.clients.jedis.util.SafeEncoder;

/**
 * DUMP and RESTORE over TCP: round trips of every type, payloads captured from redis-server
 * 7.0.15 in each encoding it writes (and the older ones it loads), the options, and every
 * error in Redis's order.
 */
class DumpRestoreTest extends SharedServerTestSupport {
    /** DUMP of the string "hello" on Redis 7.0.15. */
    private static final String HELLO = "000568656c6c6f0a006372df766534200a";
    private static final ProtocolCommand RESTORE = () -> SafeEncoder.encode("RESTORE");

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    private static byte[] b(Object o) {
        return o instanceof byte[] bytes ? bytes : String.valueOf(o).getBytes(StandardCharsets.UTF_8);
    }

    /** RESTORE key ttl payload [options...]; the reply, or the error message. */
    private static Object restore(Object... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = b(args[i]);
        }
        try {
            Object reply = jedis.sendCommand(RESTORE, raw);
            return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : reply;
        } catch (JedisDataException e) {
            return e.getMessage();
        }
    }

    private static Object restoreHex(String key, String payload) {
        return restore(key, 0, hex(payload));
    }

    @Test
    void dumpOfAMissingKeyIsNil() {
        assertThat(jedis.dump("nothing")).isNull();
    }

    @Test
    void everyTypeRoundTrips() {
        jedis.set("s", "some text");
        jedis.set("n", "-12345");
        jedis.set("long", "x".repeat(200_000));
        jedis.rpush("l", "a", "b", "", "42", "a");
        jedis.sadd("set", "m1", "m2", "7");
        jedis.hset("h", Map.of("f1", "v1", "f2", "", "3", "4"));
        jedis.zadd("z", Map.of("a", 1.5, "b", Double.NEGATIVE_INFINITY, "c", -0.0, "d", 1e300));
        for (String k : List.of("s", "n", "long", "l", "set", "h", "z")) {
            assertThat(restore(k + "2", 0, jedis.dump(k))).isEqualTo("OK");
        }
        assertThat(jedis.get("s2")).isEqualTo("some text");
        assertThat(jedis.get("n2")).isEqualTo("-12345");
        assertThat(jedis.get("long2")).isEqualTo("x".repeat(200_000));
        assertThat(jedis.lrange("l2", 0, -1)).containsExactly("a", "b", "", "42", "a");
        assertThat(jedis.smembers("set2")).containsExactlyInAnyOrder("m1", "m2", "7");
        assertThat(jedis.hgetAll("h2")).isEqualTo(Map.of("f1", "v1", "f2", "", "3", "4"));
        assertThat(jedis.zrangeWithScores("z2", 0, -1)).containsExactly(
                new Tuple("b", Double.NEGATIVE_INFINITY), new Tuple("c", 0.0), new Tuple("a", 1.5), new Tuple("d", 1e300));
        assertThat(jedis.ttl("s2")).isEqualTo(-1);
    }

    @Test
    void dumpWritesRedisBytesForPlainStringsAndScores() {
        jedis.set("k", "hello");
        assertThat(jedis.dump("k")).isEqualTo(hex(HELLO));
        jedis.set("i", "12345");
        assertThat(jedis.dump("i")).isEqualTo(hex("00c139300a009d94ea2793fc08b9"));
        // A sorted set as ZSET_2, member "a" with the binary score 2.5: what Redis 7.0.15 writes
        // for a sorted set too large for a listpack.
        jedis.zadd("z", 2.5, "a");
        assertThat(jedis.dump("z")).isEqualTo(seal(hex("050101610000000000000440")));
    }

    @Test
    void payloadsOfRedis7InEveryEncodingItWrites() {
        assertThat(restoreHex("raw", HELLO)).isEqualTo("OK");
        assertThat(restoreHex("int8", "00c0f90a005e26d130d7a242ab")).isEqualTo("OK");
        assertThat(restoreHex("int32", "00c2a08601000a00f12403506f2fa674")).isEqualTo("OK");
        assertThat(restoreHex("lzf", "00c30928017878e01b000178780a007a1d6ccea5401333")).isEqualTo("OK");
        assertThat(restoreHex("hlp", "10151500000004008266310382763103826632030201ff0a005c5ea813feec1ff5")).isEqualTo("OK");
        assertThat(restoreHex("hplain", "04010166c3094041017979e034000179790a0021ef8f5990cf4fd0")).isEqualTo("OK");
        assertThat(restoreHex("zlp", "111d1d0000000600816202842d696e660581610283312e35048163020301ff0a002970c58fcde6fc31")).isEqualTo("OK");
        assertThat(restoreHex("z2", "0502c3094041016d6de03400016d6d0000000000000440016e000000000000f03f0a00a1b7e20e711ea93b")).isEqualTo("OK");
        assertThat(restoreHex("is", "0b0e0200000003000000fdff010002000a00d1b78ed9bc07c27f")).isEqualTo("OK");
        assertThat(restoreHex("ps", "0202016101620a00fe642125eb033d0d")).isEqualTo("OK");
        assertThat(restoreHex("ql", "1201020f0f00000003008161028162020701ff0a00a4d57d137e93439c")).isEqualTo("OK");
        assertThat(restoreHex("qplain", "1202020e0e000000010085736d616c6c06ff010c7070707070707070707070700a001318a281575d8f86")).isEqualTo("OK");

        assertThat(jedis.get("raw")).isEqualTo("hello");
        assertThat(jedis.get("int8")).isEqualTo("-7");
        assertThat(jedis.get("int32")).isEqualTo("100000");
        assertThat(jedis.get("lzf")).isEqualTo("x".repeat(40));
        assertThat(jedis.hgetAll("hlp")).isEqualTo(Map.of("f1", "v1", "f2", "2"));
        assertThat(jedis.hgetAll("hplain")).isEqualTo(Map.of("f", "y".repeat(65)));
        assertThat(jedis.zrangeWithScores("zlp", 0, -1)).containsExactly(
                new Tuple("b", Double.NEGATIVE_INFINITY), new Tuple("a", 1.5), new Tuple("c", 3.0));
        assertThat(jedis.zrangeWithScores("z2", 0, -1)).containsExactly(new Tuple("n", 1.0), new Tuple("m".repeat(65), 2.5));
        assertThat(jedis.smembers("is")).containsExactlyInAnyOrder("1", "2", "-3");
        assertThat(jedis.smembers("ps")).containsExactlyInAnyOrder("a", "b");
        assertThat(jedis.lrange("ql", 0, -1)).containsExactly("a", "b", "7");
        assertThat(jedis.lrange("qplain", 0, -1)).containsExactly("small", "p".repeat(12));
    }

    @Test
    void olderEncodingsRedis7StillLoads() {
        assertThat(restoreHex("zipmap", "0910020266310200763102663202007632ff0300ead239e970a5b6e0")).isEqualTo("OK");
        assertThat(restoreHex("hzl", "0d1b1b00000016000000040000026631040276310402663204027632ff0900777d2e23e132521f")).isEqualTo("OK");
        assertThat(restoreHex("zzl", "0c191900000016000000040000036f6e6505f2020374776f05f3ff0a0060e90b962c140aca")).isEqualTo("OK");
        assertThat(restoreHex("lzl", "0a303000000025000000080000c0010004c0020004c0030004016103016203016303d0a086010006e000bca06501000000ff04004d40f1bdecce17f6"))
                .isEqualTo("OK");
        assertThat(restoreHex("qzl", "0e010d0d0000000a000000010000f8ff080010ebd801dd1c4d8d")).isEqualTo("OK");
        assertThat(restoreHex("plainlist", "0118c001c002c003016101620163c2a08601000a36303030303030303030c001c002c003016101620163c2a08601000a"
                + "36303030303030303030c001c002c003016101620163c2a08601000a363030303030303030300400efcc7e864423e2f7")).isEqualTo("OK");
        assertThat(jedis.hgetAll("zipmap")).isEqualTo(Map.of("f1", "v1", "f2", "v2"));
        assertThat(jedis.hgetAll("hzl")).isEqualTo(Map.of("f1", "v1", "f2", "v2"));
        assertThat(jedis.zrangeWithScores("zzl", 0, -1)).containsExactly(new Tuple("one", 1.0), new Tuple("two", 2.0));
        assertThat(jedis.lrange("lzl", 0, -1)).containsExactly("1", "2", "3", "a", "b", "c", "100000", "6000000000");
        assertThat(jedis.lrange("qzl", 0, -1)).containsExactly("7");
        assertThat(jedis.llen("plainlist")).isEqualTo(24);
    }

    @Test
    void anExistingKeyIsBusyUnlessReplaced() {
        jedis.rpush("k", "old");
        assertThat(restore("k", 0, hex(HELLO))).isEqualTo("BUSYKEY Target key name already exists.");
        assertThat(jedis.lrange("k", 0, -1)).containsExactly("old");
        assertThat(restore("k", 0, hex(HELLO), "REPLACE")).isEqualTo("OK");
        assertThat(jedis.get("k")).isEqualTo("hello");
        assertThat(jedis.type("k")).isEqualTo("string");
    }

    @Test
    void anExpiredKeyIsNotBusy() {
        jedis.psetex("k", 100, "old");
        server.advanceMillis(200);
        assertThat(restore("k", 0, hex(HELLO))).isEqualTo("OK");
        assertThat(jedis.get("k")).isEqualTo("hello");
        assertThat(jedis.ttl("k")).isEqualTo(-1);
    }

    @Test
    void ttlIsRelativeOrAbsolute() {
        long now = server.clock.get();
        assertThat(restore("rel", 5000, hex(HELLO))).isEqualTo("OK");
        assertThat(jedis.pexpireTime("rel")).isEqualTo(now + 5000);
        assertThat(restore("abs", now + 9000, hex(HELLO), "ABSTTL")).isEqualTo("OK");
        assertThat(jedis.pexpireTime("abs")).isEqualTo(now + 9000);
        server.advanceMillis(5001);
        assertThat(jedis.exists("rel")).isFalse();
        assertThat(jedis.exists("abs")).isTrue();
    }

    @Test
    void aTtlAlreadyPastCreatesNothingAndReplaceDeletes() {
        long now = server.clock.get();
        assertThat(restore("k", now - 1, hex(HELLO), "ABSTTL")).isEqualTo("OK");
        assertThat(jedis.exists("k")).isFalse();
        jedis.sadd("s", "a");
        assertThat(restore("s", 1, hex(HELLO), "ABSTTL", "REPLACE")).isEqualTo("OK");
        assertThat(jedis.exists("s")).isFalse();
        assertThat(jedis.dbSize()).isZero();
    }

    @Test
    void idletimeAndFreqAreChecked() {
        assertThat(restore("a", 0, hex(HELLO), "IDLETIME", 1000)).isEqualTo("OK");
        assertThat(restore("b", 0, hex(HELLO), "FREQ", 255)).isEqualTo("OK");
        assertThat(restore("c", 0, hex(HELLO), "IDLETIME", -1)).isEqualTo("ERR Invalid IDLETIME value, must be >= 0");
        assertThat(restore("c", 0, hex(HELLO), "FREQ", 256)).isEqualTo("ERR Invalid FREQ value, must be >= 0 and <= 255");
        assertThat(restore("c", 0, hex(HELLO), "FREQ", -1)).isEqualTo("ERR Invalid FREQ value, must be >= 0 and <= 255");
        assertThat(restore("c", 0, hex(HELLO), "FREQ", "x")).isEqualTo("ERR value is not an integer or out of range");
        assertThat(restore("c", 0, hex(HELLO), "IDLETIME", 1, "FREQ", 1)).isEqualTo("ERR syntax error");
        assertThat(restore("c", 0, hex(HELLO), "FREQ", 1, "IDLETIME", 1)).isEqualTo("ERR syntax error");
        assertThat(restore("c", 0, hex(HELLO), "IDLETIME")).isEqualTo("ERR syntax error");
        assertThat(restore("c", 0, hex(HELLO), "BOGUS")).isEqualTo("ERR syntax error");
        assertThat(jedis.exists("c")).isFalse();
    }

    @Test
    void errorsComeInRedisOrder() {
        jedis.set("busy", "v");
        // Options before the key, the key before the TTL, the TTL before the payload.
        assertThat(restore("busy", -1, "junk", "BOGUS")).isEqualTo("ERR syntax error");
        assertThat(restore("busy", -1, "junk")).isEqualTo("BUSYKEY Target key name already exists.");
        assertThat(restore("k", "abc", "junk")).isEqualTo("ERR value is not an integer or out of range");
        assertThat(restore("k", -1, "junk")).isEqualTo("ERR Invalid TTL value, must be >= 0");
        assertThat(restore("k", 0, "junk")).isEqualTo("ERR DUMP payload version or checksum are wrong");
    }

    @Test
    void aWrongChecksumOrNewerVersionIsRefused() {
        byte[] flipped = hex(HELLO);
        flipped[flipped.length - 1] ^= 1;
        assertThat(restore("k", 0, flipped)).isEqualTo("ERR DUMP payload version or checksum are wrong");
        byte[] changedValue = hex(HELLO);
        changedValue[2] = 'j';
        assertThat(restore("k", 0, changedValue)).isEqualTo("ERR DUMP payload version or checksum are wrong");
        // "abc" as RDB version 11 with a correct CRC.
        assertThat(restore("k", 0, hex("00036162630b00d7b4c1ff5a3e5f7b"))).isEqualTo("ERR DUMP payload version or checksum are wrong");
        assertThat(jedis.exists("k")).isFalse();
    }

    @Test
    void badValuesAreBadDataFormat() {
        // Sealed with version 10 and a correct CRC: an unknown type, an empty list, a set with a
        // duplicate, a sorted set with a NaN score, a string longer than the whole payload.
        for (String body : List.of("0803616263", "0100", "020201610161", "05010161000000000000f87f", "0020616263")) {
            assertThat(restore("k", 0, seal(hex(body)))).isEqualTo("ERR Bad data format");
        }
        assertThat(jedis.exists("k")).isFalse();
    }

    /** {@code body} (a type byte and a value) followed by version 10 and its CRC-64, as DUMP ends a payload. */
    static byte[] seal(byte[] body) {
        byte[] out = java.util.Arrays.copyOf(body, body.length + 10);
        out[body.length] = 10;
        long crc = io.strata.redis.rdb.Crc64.of(out, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            out[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return out;
    }

    @Test
    void aSortedSetTooLargeForOneTransactionIsStagedAndRanksExactly() {
        // 60,000 members: beyond one transaction, so its keys are written over several first.
        List<byte[]> members = new java.util.ArrayList<>();
        List<Double> scores = new java.util.ArrayList<>();
        for (int i = 0; i < 60_000; i++) {
            members.add(("member-" + i).getBytes(StandardCharsets.US_ASCII));
            scores.add((double) (i % 1000));
        }
        java.util.Collections.shuffle(members, new java.util.Random(7)); // payload order is not score order
        byte[] payload = io.strata.redis.rdb.RdbEncoder.encode(new io.strata.redis.rdb.RdbValue.ZSetValue(members, scores));
        jedis.set("k", "old");
        assertThat(restore("k", 0, payload, "REPLACE")).isEqualTo("OK");
        assertThat(jedis.zcard("k")).isEqualTo(60_000);
        String m = new String(members.get(12_345), StandardCharsets.US_ASCII);
        assertThat(jedis.zscore("k", m)).isEqualTo(scores.get(12_345));
        // Ranks are exact: members with a lower score, then those before it in byte order at its score.
        long lower = scores.stream().filter(s -> s < scores.get(12_345)).count();
        long sameBefore = java.util.stream.IntStream.range(0, members.size())
                .filter(i -> scores.get(i).equals(scores.get(12_345))
                        && java.util.Arrays.compareUnsigned(members.get(i), members.get(12_345)) < 0)
                .count();
        assertThat(jedis.zrank("k", m)).isEqualTo(lower + sameBefore);
        assertThat(jedis.zcount("k", "100", "(200")).isEqualTo(6_000);
    }

    @Test
    void aLargeSortedSetIsBuiltInOnePass() {
        // 5,000 members, fifty per score 0..99, in no particular order in the payload.
        List<byte[]> members = new java.util.ArrayList<>();
        List<Double> scores = new java.util.ArrayList<>();
        java.util.TreeMap<String, Double> expected = new java.util.TreeMap<>();
        for (int i = 0; i < 5000; i++) {
            int n = (i * 7919) % 5000;
            members.add(("member:" + n).getBytes(StandardCharsets.US_ASCII));
            scores.add((double) (n % 100));
            expected.put("member:" + n, (double) (n % 100));
        }
        byte[] payload = io.strata.redis.rdb.RdbEncoder.encode(new io.strata.redis.rdb.RdbValue.ZSetValue(members, scores));
        assertThat(restore("z", 0, payload)).isEqualTo("OK");
        assertThat(jedis.zcard("z")).isEqualTo(5000);
        List<String> order = expected.keySet().stream()
                .sorted(java.util.Comparator.comparing((String m) -> expected.get(m)).thenComparing(m -> m)).toList();
        assertThat(jedis.zrange("z", 0, -1)).containsExactlyElementsOf(order);
        assertThat(jedis.zrank("z", "member:4321")).isEqualTo(order.indexOf("member:4321"));
        assertThat(jedis.zrange("z", 2500, 2501)).containsExactly(order.get(2500), order.get(2501));
        assertThat(jedis.zcount("z", 10, 20)).isEqualTo(11 * 50);
        jedis.zrem("z", "member:0");
        jedis.zadd("z", 50.5, "new");
        // Below 50.5: the 51 scores 0..50, fifty members each, less the one removed.
        assertThat(jedis.zrank("z", "new")).isEqualTo(51 * 50 - 1);
    }

    @Test
    void aRefusedRestoreInsideMultiWritesNothing() {
        jedis.set("busy", "v");
        Transaction t = jedis.multi();
        t.set("other", "1");
        t.sendCommand(RESTORE, b("busy"), b(0), hex(HELLO));
        t.sendCommand(RESTORE, b("fresh"), b(0), seal(hex("020201610161")));
        t.sendCommand(RESTORE, b("good"), b(0), hex(HELLO));
        List<Object> replies = t.exec();
        assertThat(replies.get(1)).isInstanceOf(JedisDataException.class);
        assertThat(replies.get(2)).isInstanceOf(JedisDataException.class);
        assertThat(jedis.exists("fresh")).isFalse();
        assertThat(jedis.get("good")).isEqualTo("hello");
        assertThat(jedis.get("busy")).isEqualTo("v");
    }

    @Test
    void restoreTouchesAWatchedKey() {
        try (Jedis other = server.jedis()) {
            other.watch("k");
            assertThat(restore("k", 0, hex(HELLO))).isEqualTo("OK");
            Transaction t = other.multi();
            t.set("k", "mine");
            assertThat(t.exec()).isNull();
        }
        assertThat(jedis.get("k")).isEqualTo("hello");
    }

    @Test
    void restoringAListWakesABlockedPop() throws Exception {
        try (Jedis blocked = server.jedis()) {
            var popped = java.util.concurrent.CompletableFuture.supplyAsync(() -> blocked.blpop(10, "q"));
            // Give BLPOP time to block; RESTORE before it would simply leave the element to pop.
            Thread.sleep(200);
            assertThat(restore("q", 0, seal(hex("010201780179")))).isEqualTo("OK");
            assertThat(popped.get(5, java.util.concurrent.TimeUnit.SECONDS)).containsExactly("q", "x");
        }
        assertThat(jedis.lrange("q", 0, -1)).containsExactly("y");
    }

    @Test
    void replacedCollectionLeavesNoElementsBehind() {
        jedis.sadd("k", "a", "b");
        byte[] list = seal(hex("010201780179"));
        assertThat(restore("k", 0, list, "REPLACE")).isEqualTo("OK");
        assertThat(jedis.lrange("k", 0, -1)).containsExactly("x", "y");
        assertThat(restore("k", 0, jedis.dump("k"), "REPLACE")).isEqualTo("OK");
        assertThat(jedis.lrange("k", 0, -1)).containsExactly("x", "y");
        assertThat(jedis.dbSize()).isEqualTo(1);
    }
}
