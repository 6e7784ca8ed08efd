package io.strata.redis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands that write many keys in one transaction: each key's write leaves a versionstamped
 * change stamp, and the reads after it once checked every such stamp so far — a DEL of 20,000
 * keys ran past the 5 s transaction limit and was retried for ever, holding up its lane.
 */
class ManyKeyWritesTest extends SharedServerTestSupport {
    private static final int KEYS = 20_000;

    @Test
    @Timeout(120)
    void twentyThousandKeysOrMembersAreWrittenAndRemovedInOneCommandEach() {
        List<String> pairs = new ArrayList<>();
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "many:w" + i;
            pairs.add(keys[i]);
            pairs.add("v" + i);
        }
        assertThat(jedis.msetnx(pairs.toArray(new String[0]))).isEqualTo(1L);
        assertThat(jedis.exists(keys)).isEqualTo(KEYS);
        assertThat(jedis.del(keys)).isEqualTo(KEYS);
        assertThat(jedis.dbSize()).isZero();

        // ZREM of as many members, in random order, of one sorted set.
        Map<String, Double> scores = new HashMap<>();
        List<String> members = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            scores.put("m" + i, (double) (i % 997));
            members.add("m" + i);
        }
        jedis.zadd("many:z", scores);
        Collections.shuffle(members, new Random(7));
        assertThat(jedis.zrem("many:z", members.subList(0, KEYS - 1).toArray(new String[0]))).isEqualTo(KEYS - 1);
        assertThat(jedis.zrangeWithScores("many:z", 0, -1)).hasSize(1);
        assertThat(jedis.zrank("many:z", members.get(KEYS - 1))).isZero();
        // ZPOPMIN and ZREMRANGEBYSCORE of as many (they remove in one command too).
        jedis.zadd("many:z", scores);
        List<redis.clients.jedis.resps.Tuple> popped = jedis.zpopmin("many:z", KEYS);
        assertThat(popped).hasSize(KEYS);
        assertThat(popped.get(0).getScore()).isZero();
        assertThat(popped.get(KEYS - 1).getScore()).isEqualTo(996.0);
        jedis.zadd("many:z", scores);
        assertThat(jedis.zremrangeByScore("many:z", "-inf", "+inf")).isEqualTo(KEYS);
        assertThat(jedis.exists("many:z")).isFalse();
        // The lanes those keys fall in still answer.
        jedis.set("many:after", "1");
        assertThat(jedis.get("many:after")).isEqualTo("1");
    }
}
