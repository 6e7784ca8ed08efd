package io.strata.redis;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pops that take the first non-empty of their keys (BLPOP, BRPOP, LMPOP, BLMPOP, BZPOPMIN,
 * BZPOPMAX, ZMPOP, BZMPOP) with thousands of keys, as Redis takes any number: each key is tried
 * in turn, and a few thousand once ran the server's stack out (the reply was a
 * StackOverflowError).
 */
class ManyKeyPopsTest extends SharedServerTestSupport {
    private static final int KEYS = 10_000;

    private static List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < KEYS; i++) {
            keys.add(prefix + i);
        }
        return keys;
    }

    private static String[] command(String name, List<String> before, List<String> keys, List<String> after) {
        List<String> all = new ArrayList<>(before.size() + keys.size() + after.size() + 1);
        all.add(name);
        all.addAll(before);
        all.addAll(keys);
        all.addAll(after);
        return all.toArray(new String[0]);
    }

    private static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            out.add(o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o));
        }
        return out;
    }

    @Test
    void listPopsTakeTheOnlyNonEmptyKeyAtTheEnd() {
        List<String> keys = keys("many:l");
        String last = keys.get(KEYS - 1);
        jedis.rpush(last, "a", "b", "c", "d");

        assertThat(strings(Raw.call(jedis, command("BLPOP", List.of(), keys, List.of("1"))))).containsExactly(last, "a");
        assertThat(strings(Raw.call(jedis, command("BRPOP", List.of(), keys, List.of("1"))))).containsExactly(last, "d");
        Object lmpop = Raw.call(jedis, command("LMPOP", List.of(Integer.toString(KEYS)), keys, List.of("LEFT")));
        assertThat(strings(lmpop).get(0)).isEqualTo(last);
        Object blmpop = Raw.call(jedis, command("BLMPOP", List.of("1", Integer.toString(KEYS)), keys, List.of("RIGHT")));
        assertThat(strings(blmpop).get(0)).isEqualTo(last);
        assertThat(jedis.exists(last)).isFalse();
        // Nothing anywhere: LMPOP answers nil, BLPOP times out with nil.
        assertThat(Raw.call(jedis, command("LMPOP", List.of(Integer.toString(KEYS)), keys, List.of("LEFT")))).isNull();
        assertThat(Raw.call(jedis, command("BLPOP", List.of(), keys, List.of("0.05")))).isNull();
    }

    @Test
    void sortedSetPopsTakeTheOnlyNonEmptyKeyAtTheEnd() {
        List<String> keys = keys("many:z");
        String last = keys.get(KEYS - 1);
        jedis.zadd(last, 1, "one");
        jedis.zadd(last, 2, "two");
        jedis.zadd(last, 3, "three");

        assertThat(strings(Raw.call(jedis, command("BZPOPMIN", List.of(), keys, List.of("1"))))).containsExactly(last, "one", "1");
        assertThat(strings(Raw.call(jedis, command("BZPOPMAX", List.of(), keys, List.of("1"))))).containsExactly(last, "three", "3");
        Object zmpop = Raw.call(jedis, command("ZMPOP", List.of(Integer.toString(KEYS)), keys, List.of("MIN")));
        assertThat(strings(zmpop).get(0)).isEqualTo(last);
        assertThat(jedis.exists(last)).isFalse();
        assertThat(Raw.call(jedis, command("ZMPOP", List.of(Integer.toString(KEYS)), keys, List.of("MIN")))).isNull();
        assertThat(Raw.call(jedis, command("BZMPOP", List.of("0.05", Integer.toString(KEYS)), keys, List.of("MAX")))).isNull();
    }
}
