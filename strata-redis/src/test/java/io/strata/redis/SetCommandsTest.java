package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** The set commands over TCP with Jedis: Redis 7.0's replies and errors, and the algebra against a Java model. */
class SetCommandsTest extends SharedServerTestSupport {

    @Test
    void addRemoveCountAndTestMembership() {
        assertThat(jedis.sadd("s", "a", "b", "c", "a")).isEqualTo(3);
        assertThat(jedis.sadd("s", "c", "d")).isEqualTo(1);
        assertThat(jedis.scard("s")).isEqualTo(4);
        assertThat(jedis.smembers("s")).containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThat(jedis.sismember("s", "a")).isTrue();
        assertThat(jedis.sismember("s", "never-interned")).isFalse();
        assertThat(jedis.smismember("s", "a", "x", "d")).containsExactly(true, false, true);
        assertThat(jedis.smismember("missing", "a", "b")).containsExactly(false, false);
        assertThat(jedis.srem("s", "a", "x", "a")).isEqualTo(1);
        assertThat(jedis.scard("s")).isEqualTo(3);
        assertThat(jedis.type("s")).isEqualTo("set");
        assertThat(jedis.scard("missing")).isZero();
        assertThat(jedis.smembers("missing")).isEmpty();
        assertThat(jedis.srem("missing", "a")).isZero();
    }

    @Test
    void aSetEmptiedByAnyCommandIsDeleted() {
        jedis.sadd("s", "a", "b");
        assertThat(jedis.srem("s", "a", "b", "c")).isEqualTo(2);
        assertThat(jedis.exists("s")).isFalse();
        assertThat(jedis.dbSize()).isZero();

        jedis.sadd("s", "a");
        assertThat(jedis.smove("s", "t", "a")).isEqualTo(1);
        assertThat(jedis.exists("s")).isFalse();
        assertThat(jedis.smembers("t")).containsExactly("a");

        assertThat(jedis.spop("t")).isEqualTo("a");
        assertThat(jedis.exists("t")).isFalse();

        jedis.sadd("u", "a", "b");
        assertThat(jedis.spop("u", 5)).containsExactlyInAnyOrder("a", "b");
        assertThat(jedis.exists("u")).isFalse();
        assertThat(jedis.dbSize()).isZero();
    }

    @Test
    void membersAreBinarySafe() {
        byte[] zero = {0, 0};
        byte[] invalidUtf8 = {(byte) 0xff, (byte) 0xfe, (byte) 0x80};
        byte[] crlf = "a\r\nb".getBytes(StandardCharsets.UTF_8);
        byte[] key = {'k', 0, (byte) 0xff};
        assertThat(jedis.sadd(key, zero, invalidUtf8, crlf, new byte[0])).isEqualTo(4);
        assertThat(jedis.sismember(key, invalidUtf8)).isTrue();
        assertThat(jedis.sismember(key, new byte[] {(byte) 0xff, (byte) 0xfe})).isFalse();
        assertThat(jedis.sismember(key, new byte[0])).isTrue();
        Set<byte[]> members = jedis.smembers(key);
        assertThat(members).hasSize(4);
        assertThat(members.stream().map(Arrays::toString))
                .containsExactlyInAnyOrder(Arrays.toString(zero), Arrays.toString(invalidUtf8), Arrays.toString(crlf), "[]");
    }

    @Test
    void aMemberTooLongToInternIsRefusedBeforeAnyWrite() {
        byte[] huge = new byte[20_000];
        assertThatThrownBy(() -> jedis.sadd("s".getBytes(), "ok".getBytes(), huge))
                .isInstanceOf(JedisDataException.class).hasMessageContaining("not supported");
        assertThat(jedis.exists("s")).isFalse();
        jedis.sadd("s", "ok");
        // A member that cannot be interned is in no set.
        assertThat(jedis.sismember("s".getBytes(), huge)).isFalse();
        assertThat(jedis.srem("s".getBytes(), huge)).isZero();
        assertThat(jedis.smove("s".getBytes(), "t".getBytes(), huge)).isZero();
    }

    @Test
    void wrongTypeEverywhere() {
        jedis.set("str", "x");
        jedis.sadd("s", "a");
        List<Runnable> calls = List.of(
                () -> jedis.sadd("str", "a"), () -> jedis.srem("str", "a"), () -> jedis.scard("str"),
                () -> jedis.sismember("str", "a"), () -> jedis.smismember("str", "a"), () -> jedis.smembers("str"),
                () -> jedis.srandmember("str"), () -> jedis.spop("str"), () -> jedis.sscan("str", "0"),
                () -> jedis.sinter("s", "missing", "str"), () -> jedis.sunion("str", "s"), () -> jedis.sdiff("missing", "str"),
                () -> jedis.sintercard("s", "str"), () -> jedis.sinterstore("d", "missing", "str"),
                () -> jedis.smove("s", "str", "a"), () -> jedis.smove("str", "s", "a"));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).isInstanceOf(JedisDataException.class).hasMessageStartingWith("WRONGTYPE");
        }
        assertThat(jedis.exists("d")).isFalse();
        assertThat(jedis.get("str")).isEqualTo("x");
        // A missing source answers 0 before the destination's type is looked at.
        assertThat(jedis.smove("missing", "str", "a")).isZero();
    }

    @Test
    void algebraWithMissingKeys() {
        jedis.sadd("a", "1", "2", "3", "4");
        jedis.sadd("b", "3", "4", "5");
        assertThat(jedis.sinter("a", "b")).containsExactlyInAnyOrder("3", "4");
        assertThat(jedis.sinter("a", "missing")).isEmpty();
        assertThat(jedis.sunion("a", "missing", "b")).containsExactlyInAnyOrder("1", "2", "3", "4", "5");
        assertThat(jedis.sunion("missing")).isEmpty();
        assertThat(jedis.sdiff("a", "missing", "b")).containsExactlyInAnyOrder("1", "2");
        assertThat(jedis.sdiff("missing", "a")).isEmpty();
        assertThat(jedis.sdiff("a", "a")).isEmpty();
        assertThat(jedis.sdiff("a")).containsExactlyInAnyOrder("1", "2", "3", "4");
    }

    @Test
    void storeFormsReplaceAnyTypeDropTheTtlAndDeleteOnEmpty() {
        jedis.sadd("a", "1", "2", "3");
        jedis.sadd("b", "2", "3", "4");
        jedis.set("dst", "a string");
        jedis.expire("dst", 100);
        assertThat(jedis.sinterstore("dst", "a", "b")).isEqualTo(2);
        assertThat(jedis.type("dst")).isEqualTo("set");
        assertThat(jedis.ttl("dst")).isEqualTo(-1);
        assertThat(jedis.smembers("dst")).containsExactlyInAnyOrder("2", "3");

        jedis.expire("dst", 100);
        assertThat(jedis.sunionstore("dst", "dst", "a", "b")).isEqualTo(4);
        assertThat(jedis.ttl("dst")).isEqualTo(-1);
        assertThat(jedis.smembers("dst")).containsExactlyInAnyOrder("1", "2", "3", "4");

        assertThat(jedis.sdiffstore("a", "a", "b")).isEqualTo(1); // the destination is also the first source
        assertThat(jedis.smembers("a")).containsExactly("1");

        jedis.set("str", "x");
        assertThat(jedis.sdiffstore("str", "b", "dst")).isZero();
        assertThat(jedis.exists("str")).isFalse();
        assertThat(jedis.sinterstore("dst", "b", "missing")).isZero();
        assertThat(jedis.exists("dst")).isFalse();
        assertThat(jedis.sunionstore("none", "missing")).isZero();
        assertThat(jedis.exists("none")).isFalse();
        assertThat(jedis.dbSize()).isEqualTo(2);
    }

    @Test
    void sintercardCountsUpToItsLimit() {
        for (int i = 0; i < 100; i++) {
            jedis.sadd("a", "m" + i);
            if (i % 2 == 0) {
                jedis.sadd("b", "m" + i);
            }
        }
        assertThat(jedis.sintercard("a", "b")).isEqualTo(50);
        assertThat(jedis.sintercard(7, "a", "b")).isEqualTo(7);
        assertThat(jedis.sintercard(0, "a", "b")).isEqualTo(50);
        assertThat(jedis.sintercard(500, "a", "b")).isEqualTo(50);
        assertThat(jedis.sintercard("a", "missing")).isZero();
        assertThat(jedis.sintercard(3, "a")).isEqualTo(3);
        assertError("ERR numkeys should be greater than 0", "SINTERCARD", "0", "a");
        assertError("ERR numkeys should be greater than 0", "SINTERCARD", "x", "a");
        assertError("ERR Number of keys can't be greater than number of args", "SINTERCARD", "3", "a", "b");
        assertError("ERR syntax error", "SINTERCARD", "1", "a", "b");
        assertError("ERR syntax error", "SINTERCARD", "1", "a", "LIMIT");
        assertError("ERR LIMIT can't be negative", "SINTERCARD", "1", "a", "LIMIT", "-1");
        assertError("ERR LIMIT can't be negative", "SINTERCARD", "1", "a", "LIMIT", "x");
    }

    @Test
    void srandmemberCounts() {
        jedis.sadd("s", "a", "b", "c");
        assertThat(jedis.srandmember("s")).isIn("a", "b", "c");
        assertThat(jedis.srandmember("missing")).isNull();
        assertThat(jedis.srandmember("missing", 3)).isEmpty();
        assertThat(jedis.srandmember("s", 0)).isEmpty();
        assertThat(jedis.srandmember("s", 2)).hasSize(2).doesNotHaveDuplicates().isSubsetOf("a", "b", "c");
        assertThat(jedis.srandmember("s", 10)).containsExactlyInAnyOrder("a", "b", "c");
        List<String> repeated = jedis.srandmember("s", -10);
        assertThat(repeated).hasSize(10).isSubsetOf("a", "b", "c");
        assertError("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                "SRANDMEMBER", "s", "-9223372036854775808");
        assertError("ERR value is not an integer or out of range", "SRANDMEMBER", "s", "x");
        assertError("ERR syntax error", "SRANDMEMBER", "s", "1", "2");
        assertThat(jedis.scard("s")).isEqualTo(3);
    }

    @Test
    void spopCounts() {
        jedis.sadd("s", "a", "b", "c", "d", "e");
        assertThat(jedis.spop("missing")).isNull();
        assertThat(jedis.spop("missing", 2)).isEmpty();
        assertThat(jedis.spop("s", 0)).isEmpty();
        Set<String> popped = jedis.spop("s", 2);
        assertThat(popped).hasSize(2).isSubsetOf("a", "b", "c", "d", "e");
        assertThat(jedis.scard("s")).isEqualTo(3);
        assertThat(jedis.smembers("s")).doesNotContainAnyElementsOf(popped);
        assertError("ERR value is out of range, must be positive", "SPOP", "s", "-1");
        assertError("ERR value is out of range, must be positive", "SPOP", "s", "x");
        assertError("ERR syntax error", "SPOP", "s", "1", "2");
        String one = jedis.spop("s");
        assertThat(jedis.sismember("s", one)).isFalse();
        assertThat(jedis.scard("s")).isEqualTo(2);
    }

    /**
     * Draws are uniform: 20 members, 1,000 single draws, 100 draws of 10 distinct and 1,000 with repetition; each
     * member's count must stay within a chi-square bound that a fair draw exceeds with
     * probability below 1e-5 (df = 19, bound 50), as Redis's own histogram test checks.
     */
    @Test
    void randomPicksAreUniform() {
        for (int i = 0; i < 20; i++) {
            jedis.sadd("s", "m" + i);
        }
        redis.clients.jedis.Pipeline pipeline = jedis.pipelined();
        List<redis.clients.jedis.Response<String>> singles = new ArrayList<>();
        List<redis.clients.jedis.Response<List<String>>> tenths = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            singles.add(pipeline.srandmember("s"));
        }
        for (int i = 0; i < 100; i++) {
            tenths.add(pipeline.srandmember("s", 10));
        }
        pipeline.sync();
        Map<String, Integer> single = new HashMap<>();
        singles.forEach(r -> single.merge(r.get(), 1, Integer::sum));
        assertThat(chiSquare(single, 20, 1000)).isLessThan(50);
        Map<String, Integer> tens = new HashMap<>();
        for (var r : tenths) {
            assertThat(r.get()).doesNotHaveDuplicates();
            r.get().forEach(m -> tens.merge(m, 1, Integer::sum));
        }
        assertThat(chiSquare(tens, 20, 1000)).isLessThan(50);
        Map<String, Integer> repeated = new HashMap<>();
        jedis.srandmember("s", -1000).forEach(m -> repeated.merge(m, 1, Integer::sum));
        assertThat(chiSquare(repeated, 20, 1000)).isLessThan(50);
    }

    private static double chiSquare(Map<String, Integer> counts, int members, int draws) {
        assertThat(counts).hasSize(members);
        double expected = (double) draws / members;
        double sum = 0;
        for (int c : counts.values()) {
            sum += (c - expected) * (c - expected) / expected;
        }
        return sum;
    }

    @Test
    void smoveBetweenSets() {
        jedis.sadd("a", "1", "2");
        jedis.sadd("b", "3");
        assertThat(jedis.smove("a", "b", "1")).isEqualTo(1);
        assertThat(jedis.smembers("a")).containsExactly("2");
        assertThat(jedis.smembers("b")).containsExactlyInAnyOrder("1", "3");
        assertThat(jedis.smove("a", "b", "9")).isZero();
        assertThat(jedis.smove("a", "a", "2")).isEqualTo(1);
        assertThat(jedis.smove("a", "a", "3")).isZero();
        jedis.sadd("b", "2");
        assertThat(jedis.smove("a", "b", "2")).isEqualTo(1); // already in the destination: still moved
        assertThat(jedis.exists("a")).isFalse();
        assertThat(jedis.scard("b")).isEqualTo(3);
        assertThat(jedis.smove("b", "new", "3")).isEqualTo(1);
        assertThat(jedis.smembers("new")).containsExactly("3");
    }

    @Test
    void sscanVisitsEveryMemberOnceAcrossWrites() {
        Set<String> all = new HashSet<>();
        for (int i = 0; i < 250; i++) {
            all.add("m" + i);
        }
        jedis.sadd("s", all.toArray(new String[0]));
        List<String> seen = new ArrayList<>();
        String cursor = "0";
        int calls = 0;
        do {
            ScanResult<String> page = jedis.sscan("s", cursor, new ScanParams().count(20));
            seen.addAll(page.getResult());
            cursor = page.getCursor();
            if (calls++ == 3) {
                jedis.sadd("s", "added-during-the-scan");
                jedis.srem("s", "m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
            }
        } while (!cursor.equals("0"));
        assertThat(calls).isGreaterThan(10);
        assertThat(seen).doesNotHaveDuplicates();
        Set<String> untouched = new HashSet<>(all);
        for (int i = 0; i < 10; i++) {
            untouched.remove("m" + i);
        }
        assertThat(seen).containsAll(untouched);

        ScanResult<String> matching = jedis.sscan("s", "0", new ScanParams().match("m2?").count(1000));
        assertThat(matching.getCursor()).isEqualTo("0");
        assertThat(matching.getResult()).hasSize(10).allMatch(m -> m.matches("m2[0-9]"));
        assertThat(jedis.sscan("missing", "0").getResult()).isEmpty();
        assertError("ERR invalid cursor", "SSCAN", "s", "x");
        assertError("ERR syntax error", "SSCAN", "s", "0", "COUNT", "0");
        // A missing key is an empty scan before its options are looked at, as in Redis.
        assertThat(jedis.sendCommand(Protocol.Command.SSCAN, "missing", "0", "COUNT", "0")).asList().hasSize(2);
    }

    @Test
    void multiExecComposesAndAnErrorLeavesNoPartialWrite() {
        jedis.set("str", "x");
        jedis.sadd("a", "1", "2");
        jedis.sadd("dst", "old");
        Transaction t = jedis.multi();
        t.sadd("b", "2", "3");
        t.sinterstore("dst", "a", "str");
        t.sinterstore("dst2", "a", "b");
        t.srem("a", "1", "2");
        t.smembers("dst2");
        List<Object> replies = t.exec();
        assertThat(replies.get(0)).isEqualTo(2L);
        assertThat(replies.get(1)).isInstanceOf(JedisDataException.class);
        assertThat(replies.get(2)).isEqualTo(1L);
        assertThat(replies.get(3)).isEqualTo(2L);
        assertThat(replies.get(4)).isEqualTo(Set.of("2"));
        assertThat(jedis.smembers("dst")).containsExactly("old");
        assertThat(jedis.exists("a")).isFalse();
    }

    @Test
    void watchSeesChangesButNotNoOps() {
        jedis.sadd("s", "a");
        try (Jedis other = server.jedis()) {
            jedis.watch("s");
            other.sadd("s", "a"); // nothing added: the set did not change
            other.srem("s", "zz");
            Transaction t = jedis.multi();
            t.scard("s");
            assertThat(t.exec()).containsExactly(1L);

            jedis.watch("s");
            other.sadd("s", "b");
            t = jedis.multi();
            t.scard("s");
            assertThat(t.exec()).isNull();
        }
    }

    /**
     * Random sets over a pool of 400 members (so they overlap) against {@link HashSet}s:
     * every algebra command and STORE form, with missing keys among the inputs.
     */
    @Test
    void algebraAgreesWithAJavaModel() {
        java.util.Random random = new java.util.Random(42);
        Map<String, Set<String>> model = new HashMap<>();
        String[] keys = {"k0", "k1", "k2", "k3", "k4"};
        for (String k : keys) {
            if (k.equals("k4")) {
                continue; // stays missing
            }
            Set<String> members = new HashSet<>();
            int size = 1 + random.nextInt(300);
            for (int i = 0; i < size; i++) {
                members.add("member-" + random.nextInt(400));
            }
            jedis.sadd(k, members.toArray(new String[0]));
            model.put(k, members);
        }
        for (int round = 0; round < 60; round++) {
            int n = 1 + random.nextInt(4);
            String[] in = new String[n];
            for (int i = 0; i < n; i++) {
                in[i] = keys[random.nextInt(keys.length)];
            }
            Set<String> inter = new HashSet<>(model.getOrDefault(in[0], Set.of()));
            Set<String> union = new HashSet<>();
            Set<String> diff = new HashSet<>(model.getOrDefault(in[0], Set.of()));
            for (int i = 0; i < n; i++) {
                Set<String> s = model.getOrDefault(in[i], Set.of());
                inter.retainAll(s);
                union.addAll(s);
                if (i > 0) {
                    diff.removeAll(s);
                }
            }
            assertThat(jedis.sinter(in)).isEqualTo(inter);
            assertThat(jedis.sunion(in)).isEqualTo(union);
            assertThat(jedis.sdiff(in)).isEqualTo(diff);
            assertThat(jedis.sintercard(in)).isEqualTo(inter.size());
            String dst = keys[random.nextInt(keys.length)];
            Set<String> stored = switch (random.nextInt(3)) {
                case 0 -> {
                    assertThat(jedis.sinterstore(dst, in)).isEqualTo(inter.size());
                    yield inter;
                }
                case 1 -> {
                    assertThat(jedis.sunionstore(dst, in)).isEqualTo(union.size());
                    yield union;
                }
                default -> {
                    assertThat(jedis.sdiffstore(dst, in)).isEqualTo(diff.size());
                    yield diff;
                }
            };
            if (stored.isEmpty()) {
                model.remove(dst);
                assertThat(jedis.exists(dst)).isFalse();
            } else {
                model.put(dst, stored);
                assertThat(jedis.smembers(dst)).isEqualTo(stored);
                assertThat(jedis.scard(dst)).isEqualTo(stored.size());
            }
        }
    }

    /** RESP3 shapes: SMEMBERS, SINTER, SPOP with a count are sets; SRANDMEMBER with a count an array; a missing pop is null. */
    @Test
    void resp3ReplyShapes() throws Exception {
        jedis.sadd("s", "a");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            var out = socket.getOutputStream();
            var in = new java.io.DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
            assertThat(resp3(out, in, "HELLO", "3")).startsWith("%");
            assertThat(resp3(out, in, "SMEMBERS", "s")).isEqualTo("~1 $a");
            assertThat(resp3(out, in, "SMEMBERS", "missing")).isEqualTo("~0");
            assertThat(resp3(out, in, "SINTER", "s", "missing")).isEqualTo("~0");
            assertThat(resp3(out, in, "SUNION", "s")).isEqualTo("~1 $a");
            assertThat(resp3(out, in, "SRANDMEMBER", "s", "1")).isEqualTo("*1 $a");
            assertThat(resp3(out, in, "SRANDMEMBER", "missing", "1")).isEqualTo("*0");
            assertThat(resp3(out, in, "SRANDMEMBER", "missing")).isEqualTo("_");
            assertThat(resp3(out, in, "SPOP", "missing")).isEqualTo("_");
            assertThat(resp3(out, in, "SPOP", "missing", "1")).isEqualTo("~0");
            assertThat(resp3(out, in, "SPOP", "s", "1")).isEqualTo("~1 $a");
            assertThat(resp3(out, in, "SMISMEMBER", "s", "a")).isEqualTo("*1 :0");
        }
    }

    /** Sends a command and renders its reply: type byte and header, then each element after a space. */
    private static String resp3(java.io.OutputStream out, java.io.DataInputStream in, String... command) throws Exception {
        StringBuilder req = new StringBuilder("*" + command.length + "\r\n");
        for (String c : command) {
            req.append('$').append(c.length()).append("\r\n").append(c).append("\r\n");
        }
        out.write(req.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return readReply(in);
    }

    private static String readReply(java.io.DataInputStream in) throws Exception {
        char type = (char) in.readByte();
        String header = readLine(in);
        switch (type) {
            case '$' -> {
                byte[] body = new byte[Integer.parseInt(header) + 2];
                in.readFully(body);
                return "$" + new String(body, 0, body.length - 2, StandardCharsets.UTF_8);
            }
            case '*', '~', '%' -> {
                int n = Integer.parseInt(header) * (type == '%' ? 2 : 1);
                StringBuilder s = new StringBuilder().append(type).append(header);
                for (int i = 0; i < n; i++) {
                    s.append(' ').append(readReply(in));
                }
                return s.toString();
            }
            default -> {
                return type + header;
            }
        }
    }

    private static String readLine(java.io.DataInputStream in) throws Exception {
        StringBuilder s = new StringBuilder();
        for (int b = in.readByte(); b != '\r'; b = in.readByte()) {
            s.append((char) b);
        }
        in.readByte();
        return s.toString();
    }

    private static void assertError(String message, String... command) {
        String[] args = Arrays.copyOfRange(command, 1, command.length);
        assertThatThrownBy(() -> jedis.sendCommand(Protocol.Command.valueOf(command[0]), args))
                .isInstanceOf(JedisDataException.class).hasMessage(message);
    }

    @Test
    void oneSaddOfMoreMembersThanOneTransactionCanInternAddsThemAllAtOnce() {
        // Redis's lazyfree unit starts with SADD of 100,000 members; 150,000 here, all new.
        String[] members = new String[150_000];
        for (int i = 0; i < members.length; i++) {
            members[i] = Integer.toString(i);
        }
        jedis.set("string", "x");
        assertThatThrownBy(() -> jedis.sadd("string", members)).hasMessageStartingWith("WRONGTYPE");
        assertThat(jedis.sadd("big", members)).isEqualTo(150_000);
        assertThat(jedis.scard("big")).isEqualTo(150_000);
        assertThat(jedis.sismember("big", "149999")).isTrue();
        assertThat(jedis.sadd("big", members)).isZero(); // all there: counts nothing, as Redis
    }
}
