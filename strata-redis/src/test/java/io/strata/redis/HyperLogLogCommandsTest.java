package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.params.RestoreParams;

/**
 * PFADD, PFCOUNT, PFMERGE, PFDEBUG and PFSELFTEST over TCP. Replies, errors and the stored
 * bytes are what Redis 7.0.15 gives for the same commands.
 */
class HyperLogLogCommandsTest extends SharedServerTestSupport {
    private static final String NOT_AN_HLL = "WRONGTYPE Key is not a valid HyperLogLog string value.";
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    /** GET of {@code PFADD h a b c} in Redis 7.0.15: sparse, cache stale. */
    private static final String ABC = "48594c4c01000000000000000000008060f38050b1844bfb80425a";

    @Test
    void pfaddAnswersWhetherItCreatedTheKeyOrChangedARegister() {
        assertThat(jedis.pfadd("h")).as("no element: creates the key").isEqualTo(1);
        assertThat(hex(jedis.get("h".getBytes()))).isEqualTo("48594c4c01000000000000000000008" + "07fff");
        assertThat(jedis.pfadd("h")).isZero();
        assertThat(jedis.pfcount("h")).isZero();
        assertThat(jedis.pfadd("h", "a", "b", "c")).isEqualTo(1);
        assertThat(jedis.pfadd("h", "a", "b", "c")).isZero();
        assertThat(jedis.pfadd("h", "")).as("the empty string is an element").isEqualTo(1);

        jedis.pfadd("abc", "a", "b", "c");
        assertThat(hex(jedis.get("abc".getBytes()))).isEqualTo(ABC);
        assertThat(jedis.type("abc")).isEqualTo("string");
    }

    @Test
    void pfcountOfOneKeyCachesTheCardinalityInTheString() {
        jedis.pfadd("h", "a", "b", "c");
        assertThat(cacheByte()).isEqualTo("80");
        assertThat(jedis.pfcount("h")).isEqualTo(3);
        assertThat(hex(jedis.getrange("h".getBytes(), 8, 15))).isEqualTo("0300000000000000");
        assertThat(jedis.pfadd("h", "a")).isZero();
        assertThat(cacheByte()).as("no change, cache still valid").isEqualTo("00");
        jedis.pfadd("h", "1", "2", "3");
        assertThat(cacheByte()).isEqualTo("80");
        assertThat(jedis.pfcount("h")).isEqualTo(6);
        assertThat(jedis.pfcount("missing")).isZero();
    }

    @Test
    void pfcountOfSeveralKeysCountsTheUnionAndWritesNothing() {
        jedis.pfadd("h1", "a", "b", "c");
        jedis.pfadd("h2", "b", "c", "d");
        byte[] before = jedis.get("h1".getBytes());
        assertThat(jedis.pfcount("h1", "h2", "missing")).isEqualTo(4);
        assertThat(jedis.get("h1".getBytes())).as("stale cache left stale").isEqualTo(before);
        assertThat(jedis.exists("missing")).isFalse();
    }

    @Test
    void pfmergeWritesTheUnionIntoTheDestinationWhichCountsAsASource() {
        jedis.pfadd("h1", "a", "b", "c");
        jedis.pfadd("h2", "b", "c", "d");
        jedis.pfadd("h3", "c", "d", "e");
        assertThat(jedis.pfmerge("new", "h1", "h2", "h3")).isEqualTo("OK");
        assertThat(jedis.pfcount("new")).isEqualTo(5);

        jedis.pfadd("old", "x", "y");
        jedis.expire("old", 1000);
        assertThat(jedis.pfmerge("old", "h1", "missing")).isEqualTo("OK");
        assertThat(jedis.pfcount("old")).as("x y and a b c").isEqualTo(5);
        assertThat(jedis.ttl("old")).as("expiry kept").isPositive();

        assertThat(jedis.pfmerge("empty")).as("no source: an empty HLL").isEqualTo("OK");
        assertThat(hex(jedis.get("empty".getBytes()))).isEqualTo("48594c4c01000000000000000000008" + "07fff");
    }

    @Test
    void aMergeWithADenseSourceIsDense() {
        jedis.pfadd("d", "a");
        Raw.call(jedis, "PFDEBUG", "TODENSE", "d");
        jedis.pfadd("s", "b");
        jedis.pfmerge("m", "s", "d");
        assertThat(Raw.call(jedis, "PFDEBUG", "ENCODING", "m")).isEqualTo("dense");
        assertThat(jedis.strlen("m")).isEqualTo(12_304);
        assertThat(jedis.pfcount("m")).isEqualTo(2);
    }

    @Test
    void wrongTypesAndNonHllStringsAreRefused() {
        jedis.rpush("list", "a");
        jedis.set("str", "bar");
        jedis.set("num", "123");
        jedis.pfadd("h", "a");
        for (String[] c : new String[][] {{"PFADD", "list", "a"}, {"PFCOUNT", "list"}, {"PFCOUNT", "h", "list"},
                {"PFMERGE", "list", "h"}, {"PFMERGE", "h", "list"}, {"PFDEBUG", "GETREG", "list"}}) {
            assertThatThrownBy(() -> Raw.call(jedis, c)).as(String.join(" ", c)).hasMessage(WRONGTYPE);
        }
        for (String[] c : new String[][] {{"PFADD", "str", "a"}, {"PFCOUNT", "num"}, {"PFCOUNT", "h", "str"},
                {"PFMERGE", "h", "str"}, {"PFMERGE", "str", "h"}, {"PFDEBUG", "ENCODING", "str"}}) {
            assertThatThrownBy(() -> Raw.call(jedis, c)).as(String.join(" ", c)).hasMessage(NOT_AN_HLL);
        }
        assertThat(jedis.get("str")).isEqualTo("bar");
    }

    /** Redis's "Corrupted ... HyperLogLogs are detected" tests. */
    @Test
    void corruptedValuesAreDetected() {
        jedis.pfadd("h", "a", "b", "c");
        jedis.append("h", "hello");
        assertThatThrownBy(() -> jedis.pfcount("h")).hasMessage("INVALIDOBJ Corrupted HLL object detected");
        assertThatThrownBy(() -> jedis.pfcount("h", "h")).hasMessage("INVALIDOBJ Corrupted HLL object detected");
        assertThatThrownBy(() -> jedis.pfmerge("d", "h")).hasMessage("INVALIDOBJ Corrupted HLL object detected");
        assertThat(jedis.exists("d")).isFalse();

        // Opcodes that cover registers 0..9999 only: "c" raises register 8436, "b" and "a" lie
        // past the opcodes. Redis keeps, and answers INVALIDOBJ, what was raised before the damage.
        byte[] cut = HexFormat.of().parseHex("48594c4c010000000000000000000000670f");
        jedis.set("cut".getBytes(), cut);
        assertThatThrownBy(() -> jedis.pfadd("cut", "a")).hasMessage("INVALIDOBJ Corrupted HLL object detected");
        assertThat(jedis.get("cut".getBytes())).isEqualTo(cut);
        assertThatThrownBy(() -> jedis.pfadd("cut", "c", "b", "a")).hasMessage("INVALIDOBJ Corrupted HLL object detected");
        assertThat(hex(jedis.get("cut".getBytes()))).isEqualTo("48594c4c01000000000000000000008060f380461a");

        String[][] damages = {{"0", "0123"}, {"4", "x"}, {"4", "\u0000"}};
        for (String[] damage : damages) {
            jedis.del("h");
            jedis.pfadd("h", "a", "b", "c");
            jedis.setrange("h", Long.parseLong(damage[0]), damage[1]);
            assertThatThrownBy(() -> jedis.pfcount("h")).hasMessage(NOT_AN_HLL);
        }
    }

    @Test
    void pfdebugInspectsAndConverts() {
        assertThatThrownBy(() -> Raw.call(jedis, "PFDEBUG", "ENCODING", "missing")).hasMessage("ERR The specified key does not exist");
        jedis.pfadd("h", "a", "b", "c");
        assertThatThrownBy(() -> Raw.call(jedis, "PFDEBUG", "foo", "h")).hasMessage("ERR Unknown PFDEBUG subcommand 'foo'");
        assertThat(Raw.call(jedis, "PFDEBUG", "decode", "h")).isEqualTo("Z:8436 v:1,1 Z:4274 v:2,1 Z:3068 v:1,1 Z:603");
        assertThat(Raw.call(jedis, "PFDEBUG", "ENCODING", "h")).isEqualTo("sparse");
        @SuppressWarnings("unchecked")
        List<Long> registers = (List<Long>) Raw.call(jedis, "PFDEBUG", "GETREG", "h");
        assertThat(registers).hasSize(16_384);
        assertThat(registers.get(8436)).isEqualTo(1L);
        assertThat(registers.get(12711)).isEqualTo(2L);
        assertThat(Raw.call(jedis, "PFDEBUG", "ENCODING", "h")).as("GETREG made it dense").isEqualTo("dense");
        assertThat(Raw.call(jedis, "PFDEBUG", "TODENSE", "h")).isEqualTo(0L);
        assertThatThrownBy(() -> Raw.call(jedis, "PFDEBUG", "DECODE", "h")).hasMessage("ERR HLL encoding is not sparse");
        jedis.pfadd("s", "x");
        assertThat(Raw.call(jedis, "PFDEBUG", "TODENSE", "s")).isEqualTo(1L);
        assertThat(jedis.pfcount("h")).isEqualTo(3);
    }

    @Test
    void pfselftestPasses() {
        assertThat(Raw.call(jedis, "PFSELFTEST")).isEqualTo("OK");
    }

    @Test
    void anHllIsAStringForDumpRestoreAndCopies() {
        jedis.pfadd("h", "a", "b", "c");
        byte[] payload = jedis.dump("h");
        jedis.del("h");
        jedis.restore("h", 0, payload);
        assertThat(hex(jedis.get("h".getBytes()))).isEqualTo(ABC);
        assertThat(jedis.pfcount("h")).isEqualTo(3);

        // Redis 7.0.15's own DUMP of the same HLL.
        jedis.restore("from-redis".getBytes(), 0,
                HexFormat.of().parseHex("001b48594c4c01000000000000000000008060f38050b1844bfb80425a0a009f590c06b6497049"),
                RestoreParams.restoreParams());
        assertThat(jedis.pfcount("from-redis")).isEqualTo(3);

        jedis.set("copy".getBytes(), jedis.get("h".getBytes()));
        assertThat(jedis.pfadd("copy", "d")).isEqualTo(1);
        assertThat(jedis.pfcount("copy")).isEqualTo(4);
    }

    @Test
    void pfcommandsRunInMultiAndScripts() {
        Transaction t = jedis.multi();
        t.pfadd("h", "a", "b");
        t.pfcount("h");
        t.pfmerge("m", "h");
        t.pfcount("m", "h");
        assertThat(t.exec()).containsExactly(1L, 2L, "OK", 2L);
        assertThat(jedis.eval("redis.call('pfadd', KEYS[1], 'c'); return redis.call('pfcount', KEYS[1])", 1, "h")).isEqualTo(3L);
        // PFCOUNT may write its cache (may_replicate), which Redis refuses in read-only scripts.
        assertThatThrownBy(() -> Raw.call(jedis, "EVAL_RO", "return redis.call('pfcount', KEYS[1])", "1", "h"))
                .hasMessageStartingWith("ERR Write commands are not allowed from read-only scripts.");
    }

    /** As in Redis, refreshing the cache is a change WATCH sees; a PFADD that changes nothing is not. */
    @Test
    void watchSeesCacheRefreshesButNotNoOps() {
        jedis.pfadd("h", "x", "y");
        try (Jedis other = server.jedis()) {
            jedis.watch("h");
            other.pfcount("h");
            Transaction t = jedis.multi();
            t.set("other", "1");
            assertThat(t.exec()).isNull();

            for (Runnable quiet : List.<Runnable>of(() -> other.pfcount("h"), () -> other.pfadd("h", "x"),
                    () -> other.pfcount("h", "h"))) {
                jedis.watch("h");
                quiet.run();
                Transaction u = jedis.multi();
                u.set("other", "1");
                assertThat(u.exec()).containsExactly("OK");
            }
        }
    }

    @Test
    void commandMetadataIsRedis70s() {
        List<?> info = (List<?>) ((List<?>) Raw.call(jedis, "COMMAND", "INFO", "pfcount")).get(0);
        assertThat(info.subList(0, 7)).isEqualTo(List.of("pfcount", -2L, List.of("readonly"), 1L, -1L, 1L,
                List.of("@read", "@hyperloglog", "@slow")));
        List<?> keySpec = (List<?>) ((List<?>) info.get(8)).get(0);
        assertThat(keySpec.subList(keySpec.indexOf("flags"), keySpec.indexOf("flags") + 2)).isEqualTo(List.of("flags", List.of("RW", "access")));
        assertThat(Raw.call(jedis, "ACL", "CAT", "hyperloglog"))
                .asList().containsExactlyInAnyOrder("pfadd", "pfcount", "pfmerge", "pfdebug", "pfselftest");
        assertThat(Raw.call(jedis, "COMMAND", "GETKEYS", "PFMERGE", "d", "s1", "s2")).isEqualTo(List.of("d", "s1", "s2"));
    }

    /** The last byte of key h's cached cardinality, whose top bit marks it stale. */
    private static String cacheByte() {
        return hex(jedis.getrange("h".getBytes(), 15, 15));
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
