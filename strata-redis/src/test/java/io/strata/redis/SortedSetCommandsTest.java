package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.Tuple;

/** Sorted sets over TCP with Jedis: ranks, score and lex ranges, pops, algebra, against a model. */
class SortedSetCommandsTest extends ServerTestSupport {

    /**
     * One ZADD of twenty thousand new members (Redis's geo fuzz test sends GEOADDs this size):
     * the ranked set's level counts are added to once per member in one transaction, and used
     * to be re-read through every earlier addition, so the command never finished. The timeout
     * only keeps a regression from hanging the build; the command takes about a second.
     */
    @Test
    @Timeout(120)
    void oneZaddOfTwentyThousandMembers() {
        Map<String, Double> members = new java.util.HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            members.put("m" + i, (double) (i * 7919 % 20_000));
        }
        assertThat(jedis.zadd("big", members)).isEqualTo(20_000L);
        assertThat(jedis.zcard("big")).isEqualTo(20_000L);
        assertThat(jedis.zrank("big", "m1")).isEqualTo(7919L);
        assertThat(jedis.zrange("big", 0, 2)).containsExactly("m0", "m17679", "m15358");
    }

    @Test
    void addScoreRankAndRemove() {
        assertThat(jedis.zadd("z", Map.of("a", 1.0, "b", 2.0, "c", 3.0))).isEqualTo(3);
        assertThat(jedis.zadd("z", 2.5, "b")).isZero();
        assertThat(jedis.zscore("z", "b")).isEqualTo(2.5);
        assertThat(jedis.zrank("z", "c")).isEqualTo(2);
        assertThat(jedis.zrevrank("z", "c")).isEqualTo(0);
        assertThat(jedis.zcard("z")).isEqualTo(3);
        assertThat(jedis.zrem("z", "a", "nope")).isEqualTo(1);
        assertThat(jedis.zrange("z", 0, -1)).containsExactly("b", "c");
        assertThat(jedis.zrem("z", "b", "c")).isEqualTo(2);
        assertThat(jedis.exists("z")).isFalse();
    }

    @Test
    void zaddFlags() {
        jedis.zadd("z", 5, "m");
        assertThat(jedis.zadd("z", 4, "m", ZAddParams.zAddParams().gt().ch())).isZero();
        assertThat(jedis.zadd("z", 6, "m", ZAddParams.zAddParams().gt().ch())).isEqualTo(1);
        assertThat(jedis.zadd("z", 1, "n", ZAddParams.zAddParams().xx())).isZero();
        assertThat(jedis.zincrby("z", 1.5, "m")).isEqualTo(7.5);
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.ZADD, "z", "NX", "XX", "1", "m"))
                .hasMessage("ERR XX and NX options at the same time are not compatible");
        assertThat(jedis.zaddIncr("z", 1, "m", ZAddParams.zAddParams().nx())).isNull();
    }

    @Test
    void rangesAgainstAModel() {
        Random random = new Random(7);
        TreeMap<String, Double> model = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            String m = "m" + random.nextInt(200);
            double s = random.nextInt(50) - 25;
            model.put(m, s);
            jedis.zadd("z", s, m);
        }
        List<String> expected = model.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).toList();
        assertThat(jedis.zrange("z", 0, -1)).containsExactlyElementsOf(expected);
        assertThat(jedis.zrange("z", 10, 19)).containsExactlyElementsOf(expected.subList(10, 20));
        assertThat(jedis.zcount("z", "(0", "10")).isEqualTo(model.values().stream().filter(s -> s > 0 && s <= 10).count());
        for (int i = 0; i < expected.size(); i += 17) {
            assertThat(jedis.zrank("z", expected.get(i))).isEqualTo(i);
        }
        List<Tuple> withScores = jedis.zrangeByScoreWithScores("z", "-inf", "(-20");
        assertThat(withScores).allMatch(t -> t.getScore() < -20);
    }

    @Test
    void lexRangesOnOneScore() {
        for (String m : List.of("alpha", "bar", "cool", "down", "elephant", "foo", "great", "hill", "omega")) {
            jedis.zadd("z", 0, m);
        }
        assertThat(jedis.zrangeByLex("z", "-", "[cool")).containsExactly("alpha", "bar", "cool");
        assertThat(jedis.zlexcount("z", "[ele", "[h")).isEqualTo(3);
        assertThat(jedis.zrangeByLex("z", "(bar", "(down")).containsExactly("cool");
        assertThat(jedis.zrevrangeByLex("z", "+", "(great")).containsExactly("omega", "hill");
    }

    @Test
    void popsAndAlgebra() {
        jedis.zadd("a", Map.of("x", 1.0, "y", 2.0, "z", 3.0));
        jedis.zadd("b", Map.of("y", 10.0, "z", 20.0, "w", 30.0));
        assertThat(jedis.zinterstore("out", "a", "b")).isEqualTo(2);
        assertThat(jedis.zscore("out", "z")).isEqualTo(23.0);
        assertThat(jedis.zunionstore("out", "a", "b")).isEqualTo(4);
        assertThat(jedis.zdiff("a", "b")).containsExactly("x");
        assertThat(jedis.zintercard("a", "b")).isEqualTo(2);
        jedis.sadd("plain", "x", "v");
        assertThat(jedis.zunionstore("out", "a", "plain")).isEqualTo(4);
        assertThat(jedis.zscore("out", "x")).isEqualTo(2.0);
        assertThat(jedis.zscore("out", "v")).isEqualTo(1.0);
        Tuple min = jedis.zpopmin("a");
        assertThat(min.getElement()).isEqualTo("x");
        assertThat(jedis.zpopmax("a", 5)).extracting(Tuple::getElement).containsExactly("z", "y");
        assertThat(jedis.exists("a")).isFalse();
    }
}
