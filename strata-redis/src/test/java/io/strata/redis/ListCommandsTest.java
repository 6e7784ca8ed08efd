package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.ListDirection;
import redis.clients.jedis.args.ListPosition;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.params.LPosParams;
import redis.clients.jedis.util.KeyValue;
import redis.clients.jedis.util.SafeEncoder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedList;
import java.util.List;
import java.util.Random;

/** The non-blocking list commands over TCP, checked against Redis 7.0's replies and errors. */
class ListCommandsTest extends SharedServerTestSupport {

    private static Object raw(String command, String... args) {
        ProtocolCommand cmd = () -> SafeEncoder.encode(command);
        return jedis.sendCommand(cmd, args);
    }

    @Test
    void pushesRangesAndIndexes() {
        assertThat(jedis.lpush("l", "a", "b", "c")).isEqualTo(3);
        assertThat(jedis.rpush("l", "x", "y")).isEqualTo(5);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("c", "b", "a", "x", "y");
        assertThat(jedis.llen("l")).isEqualTo(5);
        assertThat(jedis.lindex("l", 0)).isEqualTo("c");
        assertThat(jedis.lindex("l", -1)).isEqualTo("y");
        assertThat(jedis.lindex("l", 5)).isNull();
        assertThat(jedis.lindex("l", -6)).isNull();
        assertThat(jedis.lrange("l", -2, 100)).containsExactly("x", "y");
        assertThat(jedis.lrange("l", -100, 1)).containsExactly("c", "b");
        assertThat(jedis.lrange("l", 3, 1)).isEmpty();
        assertThat(jedis.lrange("l", 5, 10)).isEmpty();
        assertThat(jedis.lrange("nokey", 0, -1)).isEmpty();
        assertThat(jedis.llen("nokey")).isZero();
        assertThat(jedis.lindex("nokey", 0)).isNull();
        assertThat(jedis.type("l")).isEqualTo("list");
    }

    @Test
    void pushxOnlyOnExistingLists() {
        assertThat(jedis.lpushx("l", "a")).isZero();
        assertThat(jedis.rpushx("l", "a")).isZero();
        assertThat(jedis.exists("l")).isFalse();
        jedis.rpush("l", "m");
        assertThat(jedis.lpushx("l", "a", "b")).isEqualTo(3);
        assertThat(jedis.rpushx("l", "z")).isEqualTo(4);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("b", "a", "m", "z");
    }

    @Test
    void popsWithAndWithoutCount() {
        jedis.rpush("l", "a", "b", "c", "d", "e");
        assertThat(jedis.lpop("l")).isEqualTo("a");
        assertThat(jedis.rpop("l")).isEqualTo("e");
        assertThat(jedis.lpop("l", 2)).containsExactly("b", "c");
        assertThat(jedis.rpop("l", 0)).isEmpty();
        assertThat(jedis.rpop("l", 10)).containsExactly("d");
        assertThat(jedis.exists("l")).isFalse();
        assertThat(jedis.lpop("l")).isNull();
        assertThat(jedis.lpop("l", 3)).isNull();
        assertThatThrownBy(() -> raw("LPOP", "l", "-1")).hasMessage("ERR value is out of range, must be positive");
        assertThatThrownBy(() -> raw("LPOP", "l", "x")).hasMessage("ERR value is out of range, must be positive");
        assertThatThrownBy(() -> raw("LPOP", "l", "1", "2")).hasMessage("ERR wrong number of arguments for 'lpop' command");
    }

    @Test
    void nullShapesFollowTheProtocol() throws Exception {
        try (RawConnection c = new RawConnection(server.port())) {
            assertThat(c.call("LPOP", "nokey")).isEqualTo("$-1");
            assertThat(c.call("LPOP", "nokey", "2")).isEqualTo("*-1");
            assertThat(c.call("LMPOP", "1", "nokey", "LEFT")).isEqualTo("*-1");
            assertThat(c.call("LPOS", "nokey", "a")).isEqualTo("$-1");
            assertThat(c.call("LPOS", "nokey", "a", "COUNT", "0")).isEqualTo("*0");
            c.resp3();
            assertThat(c.call("LPOP", "nokey")).isEqualTo("_");
            assertThat(c.call("LPOP", "nokey", "2")).isEqualTo("_");
            assertThat(c.call("LINDEX", "nokey", "0")).isEqualTo("_");
            assertThat(c.call("RPOPLPUSH", "nokey", "other")).isEqualTo("_");
        }
    }

    @Test
    void anEmptiedListIsDeleted() {
        jedis.rpush("l", "a", "b");
        jedis.ltrim("l", 5, 10);
        assertThat(jedis.exists("l")).isFalse();
        jedis.rpush("l", "a", "a");
        assertThat(jedis.lrem("l", 0, "a")).isEqualTo(2);
        assertThat(jedis.exists("l")).isFalse();
        jedis.rpush("l", "a");
        assertThat(jedis.lmove("l", "m", ListDirection.LEFT, ListDirection.RIGHT)).isEqualTo("a");
        assertThat(jedis.exists("l")).isFalse();
        assertThat(jedis.dbSize()).isEqualTo(1);
        assertThat(jedis.keys("*")).containsExactly("m");
    }

    @Test
    void lsetReplacesAndChecks() {
        assertThatThrownBy(() -> jedis.lset("l", 0, "x")).hasMessage("ERR no such key");
        jedis.rpush("l", "a", "b", "c");
        assertThat(jedis.lset("l", -1, "z")).isEqualTo("OK");
        assertThat(jedis.lset("l", 0, "y")).isEqualTo("OK");
        assertThatThrownBy(() -> jedis.lset("l", 3, "x")).hasMessage("ERR index out of range");
        assertThatThrownBy(() -> raw("LSET", "l", "one", "x")).hasMessage("ERR value is not an integer or out of range");
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("y", "b", "z");
    }

    @Test
    void linsertFindsThePivotFromTheHead() {
        assertThat(jedis.linsert("l", ListPosition.BEFORE, "a", "x")).isZero();
        jedis.rpush("l", "a", "b", "c", "b");
        assertThat(jedis.linsert("l", ListPosition.AFTER, "b", "1")).isEqualTo(5);
        assertThat(jedis.linsert("l", ListPosition.BEFORE, "a", "0")).isEqualTo(6);
        assertThat(jedis.linsert("l", ListPosition.AFTER, "b", "2")).isEqualTo(7);
        assertThat(jedis.linsert("l", ListPosition.BEFORE, "nope", "x")).isEqualTo(-1);
        assertThat(jedis.linsert("l", ListPosition.AFTER, "c", "end")).isEqualTo(8);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("0", "a", "b", "2", "1", "c", "end", "b");
        assertThatThrownBy(() -> raw("LINSERT", "l", "middle", "a", "x")).hasMessage("ERR syntax error");
    }

    @Test
    void lremCountsFromEitherEnd() {
        jedis.rpush("l", "x", "a", "x", "b", "x", "c", "x");
        assertThat(jedis.lrem("l", 2, "x")).isEqualTo(2);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("a", "b", "x", "c", "x");
        assertThat(jedis.lrem("l", -1, "x")).isEqualTo(1);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("a", "b", "x", "c");
        assertThat(jedis.lrem("l", 0, "nope")).isZero();
        assertThat(jedis.lrem("l", 0, "x")).isEqualTo(1);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("a", "b", "c");
        assertThat(jedis.lrem("nokey", 1, "a")).isZero();
    }

    @Test
    void ltrimKeepsARange() {
        jedis.rpush("l", "a", "b", "c", "d", "e");
        assertThat(jedis.ltrim("l", 1, -2)).isEqualTo("OK");
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("b", "c", "d");
        jedis.ltrim("l", -100, 1);
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("b", "c");
        assertThat(jedis.ltrim("nokey", 0, 1)).isEqualTo("OK");
        jedis.rpush("l", "x");
        jedis.lpush("l", "w");
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("w", "b", "c", "x");
    }

    @Test
    void lposWithRankCountAndMaxlen() {
        jedis.rpush("l", "a", "b", "c", "1", "2", "3", "c", "c");
        assertThat(jedis.lpos("l", "c")).isEqualTo(2);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams().rank(2))).isEqualTo(6);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams().rank(-1))).isEqualTo(7);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams(), 0)).containsExactly(2L, 6L, 7L);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams().rank(-1), 2)).containsExactly(7L, 6L);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams().maxlen(3), 0)).containsExactly(2L);
        assertThat(jedis.lpos("l", "c", LPosParams.lPosParams().rank(4))).isNull();
        assertThat(jedis.lpos("l", "z")).isNull();
        assertThatThrownBy(() -> raw("LPOS", "l", "c", "RANK", "0")).hasMessageStartingWith("ERR RANK can't be zero");
        assertThatThrownBy(() -> raw("LPOS", "l", "c", "COUNT", "-1")).hasMessage("ERR COUNT can't be negative");
        assertThatThrownBy(() -> raw("LPOS", "l", "c", "MAXLEN", "x")).hasMessage("ERR MAXLEN can't be negative");
        assertThatThrownBy(() -> raw("LPOS", "l", "c", "COUNT")).hasMessage("ERR syntax error");
    }

    @Test
    void lmoveBetweenAndWithinLists() {
        jedis.rpush("src", "a", "b", "c");
        jedis.rpush("dst", "x");
        assertThat(jedis.lmove("src", "dst", ListDirection.RIGHT, ListDirection.LEFT)).isEqualTo("c");
        assertThat(jedis.lmove("src", "dst", ListDirection.LEFT, ListDirection.RIGHT)).isEqualTo("a");
        assertThat(jedis.lrange("dst", 0, -1)).containsExactly("c", "x", "a");
        assertThat(jedis.rpoplpush("dst", "dst")).isEqualTo("a");
        assertThat(jedis.lrange("dst", 0, -1)).containsExactly("a", "c", "x");
        assertThat(jedis.lmove("dst", "dst", ListDirection.LEFT, ListDirection.RIGHT)).isEqualTo("a");
        assertThat(jedis.lrange("dst", 0, -1)).containsExactly("c", "x", "a");
        assertThat(jedis.rpoplpush("nokey", "dst")).isNull();
        jedis.set("str", "v");
        assertThatThrownBy(() -> jedis.rpoplpush("src", "str")).hasMessageStartingWith("WRONGTYPE");
        assertThat(jedis.lrange("src", 0, -1)).containsExactly("b");
        // An absent source answers nil before the destination's type is looked at.
        assertThat(jedis.rpoplpush("nokey", "str")).isNull();
        assertThatThrownBy(() -> raw("LMOVE", "src", "dst", "UP", "LEFT")).hasMessage("ERR syntax error");
    }

    @Test
    void lmpopTakesFromTheFirstNonEmptyList() {
        jedis.rpush("b", "1", "2", "3");
        KeyValue<String, List<String>> r = jedis.lmpop(ListDirection.LEFT, 2, "a", "b");
        assertThat(r.getKey()).isEqualTo("b");
        assertThat(r.getValue()).containsExactly("1", "2");
        r = jedis.lmpop(ListDirection.RIGHT, 5, "a", "b");
        assertThat(r.getValue()).containsExactly("3");
        assertThat(jedis.lmpop(ListDirection.LEFT, "a", "b")).isNull();
        assertThatThrownBy(() -> raw("LMPOP", "0", "a", "LEFT")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw("LMPOP", "x", "a", "LEFT")).hasMessage("ERR numkeys should be greater than 0");
        assertThatThrownBy(() -> raw("LMPOP", "3", "a", "LEFT")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> raw("LMPOP", "1", "a", "LEFT", "COUNT", "0")).hasMessage("ERR count should be greater than 0");
        assertThatThrownBy(() -> raw("LMPOP", "1", "a", "LEFT", "COUNT", "1", "COUNT", "1")).hasMessage("ERR syntax error");
        jedis.set("s", "v");
        jedis.rpush("c", "x");
        assertThatThrownBy(() -> jedis.lmpop(ListDirection.LEFT, "a", "s", "c")).hasMessageStartingWith("WRONGTYPE");
        assertThat(jedis.lmpop(ListDirection.LEFT, "c", "s").getValue()).containsExactly("x");
    }

    @Test
    void wrongTypeEverywhere() {
        jedis.set("s", "v");
        for (String[] cmd : new String[][] {{"LPUSH", "s", "a"}, {"RPUSHX", "s", "a"}, {"LPOP", "s"}, {"LLEN", "s"},
                {"LINDEX", "s", "0"}, {"LSET", "s", "0", "a"}, {"LRANGE", "s", "0", "1"}, {"LINSERT", "s", "BEFORE", "a", "b"},
                {"LREM", "s", "0", "a"}, {"LTRIM", "s", "0", "1"}, {"LPOS", "s", "a"}, {"LMOVE", "s", "d", "LEFT", "LEFT"}}) {
            assertThatThrownBy(() -> raw(cmd[0], Arrays.copyOfRange(cmd, 1, cmd.length)))
                    .as(cmd[0]).hasMessageStartingWith("WRONGTYPE Operation against a key holding the wrong kind of value");
        }
        assertThat(jedis.get("s")).isEqualTo("v");
    }

    @Test
    void elementsLargerThanOneValueRoundTrip() {
        byte[] big = pattern(250_001);
        byte[] exact = pattern(100_000);
        byte[] twice = pattern(200_000);
        byte[] key = "l".getBytes(StandardCharsets.UTF_8);
        jedis.rpush(key, big, "small".getBytes(StandardCharsets.UTF_8), exact, twice, new byte[0]);
        assertThat(jedis.lindex(key, 0)).isEqualTo(big);
        assertThat(jedis.lindex(key, 2)).isEqualTo(exact);
        List<byte[]> all = jedis.lrange(key, 0, -1);
        assertThat(all).hasSize(5);
        assertThat(all.get(1)).isEqualTo("small".getBytes(StandardCharsets.UTF_8));
        assertThat(all.get(2)).isEqualTo(exact);
        assertThat(all.get(3)).isEqualTo(twice);
        assertThat(all.get(4)).isEmpty();
        assertThat(jedis.lpos(key, exact)).isEqualTo(2);
        jedis.lset(key, 0, "x".getBytes(StandardCharsets.UTF_8));
        assertThat(jedis.lindex(key, 0)).isEqualTo("x".getBytes(StandardCharsets.UTF_8));
        jedis.linsert(key, ListPosition.AFTER, "x".getBytes(StandardCharsets.UTF_8), big);
        assertThat(jedis.rpop(key, 3)).satisfiesExactly(
                v -> assertThat(v).isEmpty(), v -> assertThat(v).isEqualTo(twice), v -> assertThat(v).isEqualTo(exact));
        assertThat(jedis.lpop(key, 2)).satisfiesExactly(
                v -> assertThat(v).isEqualTo("x".getBytes(StandardCharsets.UTF_8)), v -> assertThat(v).isEqualTo(big));
        assertThat(jedis.lrange(key, 0, -1)).containsExactly("small".getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    @Test
    void insideExecAnErrorLeavesTheOtherCommandsApplied() {
        jedis.rpush("l", "a");
        Transaction t = jedis.multi();
        t.rpush("l", "b");
        t.lset("l", 9, "x");
        t.lpop("l");
        List<Object> replies = t.exec();
        assertThat(replies.get(0)).isEqualTo(2L);
        assertThat(replies.get(1)).isInstanceOf(redis.clients.jedis.exceptions.JedisDataException.class);
        assertThat(replies.get(2)).isEqualTo("a");
        assertThat(jedis.lrange("l", 0, -1)).containsExactly("b");
    }

    /** Random edits in the middle and at the ends, checked against a plain Java list after each. */
    @Test
    void randomEditsMatchAModel() {
        Random random = new Random(42);
        LinkedList<String> model = new LinkedList<>();
        for (int step = 0; step < 250; step++) {
            String v = Integer.toString(random.nextInt(6));
            switch (random.nextInt(8)) {
                case 0 -> {
                    jedis.lpush("m", v);
                    model.addFirst(v);
                }
                case 1 -> {
                    jedis.rpush("m", v);
                    model.addLast(v);
                }
                case 2 -> assertThat(jedis.lpop("m")).isEqualTo(model.pollFirst());
                case 3 -> assertThat(jedis.rpop("m")).isEqualTo(model.pollLast());
                case 4 -> {
                    String pivot = Integer.toString(random.nextInt(6));
                    boolean after = random.nextBoolean();
                    long r = jedis.linsert("m", after ? ListPosition.AFTER : ListPosition.BEFORE, pivot, v);
                    int at = model.indexOf(pivot);
                    if (at >= 0) {
                        model.add(after ? at + 1 : at, v);
                        assertThat(r).isEqualTo(model.size());
                    } else {
                        assertThat(r).isEqualTo(model.isEmpty() ? 0 : -1);
                    }
                }
                case 5 -> {
                    int count = random.nextInt(5) - 2;
                    long removed = jedis.lrem("m", count, v);
                    assertThat(removed).isEqualTo(removeFromModel(model, count, v));
                }
                case 6 -> {
                    if (!model.isEmpty()) {
                        int i = random.nextInt(model.size());
                        jedis.lset("m", i, v);
                        model.set(i, v);
                    }
                }
                default -> {
                    int a = random.nextInt(12) - 3;
                    int b = random.nextInt(14) - 2;
                    jedis.ltrim("m", a, b);
                    trimModel(model, a, b);
                }
            }
            assertThat(jedis.lrange("m", 0, -1)).as("step %d", step).isEqualTo(model);
            assertThat(jedis.exists("m")).isEqualTo(!model.isEmpty());
        }
    }

    private static long removeFromModel(LinkedList<String> model, int count, String v) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < model.size(); i++) {
            if (model.get(i).equals(v)) {
                at.add(i);
            }
        }
        if (count < 0) {
            java.util.Collections.reverse(at);
        }
        List<Integer> chosen = count == 0 ? at : at.subList(0, Math.min(at.size(), Math.abs(count)));
        List<Integer> sorted = new ArrayList<>(chosen);
        sorted.sort(java.util.Comparator.reverseOrder());
        for (int i : sorted) {
            model.remove(i);
        }
        return chosen.size();
    }

    private static void trimModel(LinkedList<String> model, long start, long end) {
        long n = model.size();
        if (start < 0) {
            start += n;
        }
        if (end < 0) {
            end += n;
        }
        if (start < 0) {
            start = 0;
        }
        List<String> kept = start > end || start >= n ? List.of()
                : new ArrayList<>(model.subList((int) start, (int) Math.min(end, n - 1) + 1));
        model.clear();
        model.addAll(kept);
    }

    @Test
    void arityIsChecked() {
        assertThatThrownBy(() -> jedis.sendCommand(Protocol.Command.LPUSH, "k"))
                .hasMessage("ERR wrong number of arguments for 'lpush' command");
    }

    @Test
    void sortReadsAListAndStoreWritesOne() {
        jedis.rpush("l", "3", "1", "2");
        assertThat(jedis.sort("l")).containsExactly("1", "2", "3");
        jedis.sadd("d", "x");
        assertThat(jedis.sort("l", new redis.clients.jedis.params.SortingParams().desc(), "d")).isEqualTo(3);
        assertThat(jedis.type("d")).isEqualTo("list");
        assertThat(jedis.lrange("d", 0, -1)).containsExactly("3", "2", "1");
        assertThat(jedis.lpop("d")).isEqualTo("3");
        assertThat(jedis.rpush("d", "0")).isEqualTo(3);
        assertThat(jedis.lrange("d", 0, -1)).containsExactly("2", "1", "0");
    }
}
