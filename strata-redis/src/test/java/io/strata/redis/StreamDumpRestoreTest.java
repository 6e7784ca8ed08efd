package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * DUMP and RESTORE of streams: payloads Redis 7.0.15 wrote (RDB type 19) and Redis 6.2 wrote
 * (type 15, from Redis's own stream-cgroups unit) restore with their entries, groups, PELs,
 * consumers and counters; a stream DUMPed here restores here to the same XINFO STREAM FULL;
 * damaged stream payloads are refused.
 */
class StreamDumpRestoreTest extends SharedServerTestSupport {
    /**
     * Redis 7.0.15: XADD v 1-1 f a; XADD v 2-2 f b x y; XADD v 3-3 f c; XDEL v 3-3;
     * XGROUP CREATE v g 0; XREADGROUP GROUP g c1 COUNT 1 STREAMS v &gt; ; DUMP v.
     */
    private static final String REDIS_70 = "130110000000000000000100000000000000013e3e000000180002010101010181660200010201000100018161"
            + "020401000101010101020181660281620281780281790208010301020102018163020401ff0203030101030303010167010181ffffffffffff"
            + "ffff0100000000000000010000000000000001c4e2d617a20100000101026331c4e2d617a201000001000000000000000100000000000000010a"
            + "00f1835624846ffc82";

    /** Redis's stream-cgroups unit: a v5 DUMP (type 15, RDB version 9) of a stream with two groups. */
    private static final String REDIS_5 = "0f011000000000000000010000000000000000c3404a40571657000000230002010401010184646174610500010301002001038161020420"
            + "0a0001400a0062600a0002400a0063600a4022018164200a4039200a0065600a0005400a0066200a00ff0206000202673105000400000000"
            + "0000000100000000000000003ef783437a01000001000000000000000200000000000000003ef783437a0100000100000000000000040000"
            + "0000000000003ef783437a01000001000000000000000500000000000000003ef783437a0100000101036331313ef783437a010000040000"
            + "0000000000010000000000000000000000000000000200000000000000000000000000000004000000000000000000000000000000050000"
            + "0000000000000267320000000009003d52ef6867521dfa";

    private static Object restore(String key, byte[] payload) {
        try {
            Object reply = jedis.sendCommand(() -> SafeEncoder.encode("RESTORE"), SafeEncoder.encode(key),
                    SafeEncoder.encode("0"), payload);
            return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply;
        } catch (JedisDataException e) {
            return e.getMessage();
        }
    }

    private static List<Object> xinfoFull(String key) {
        return Raw.list(Raw.call(jedis, "XINFO", "STREAM", key, "FULL"));
    }

    private static Object field(List<Object> map, String name) {
        return map.get(map.indexOf(name) + 1);
    }

    @Test
    void aRedis70PayloadRestoresWithItsGroups() {
        assertThat(restore("v", HexFormat.of().parseHex(REDIS_70))).isEqualTo("OK");
        List<Object> info = xinfoFull("v");
        assertThat(field(info, "length")).isEqualTo(2L);
        assertThat(field(info, "last-generated-id")).isEqualTo("3-3");
        assertThat(field(info, "max-deleted-entry-id")).isEqualTo("3-3");
        assertThat(field(info, "entries-added")).isEqualTo(3L);
        assertThat(Raw.call(jedis, "XRANGE", "v", "-", "+")).isEqualTo(List.of(
                List.of("1-1", List.of("f", "a")), List.of("2-2", List.of("f", "b", "x", "y"))));
        assertThat(Raw.call(jedis, "XPENDING", "v", "g")).isEqualTo(List.of(1L, "1-1", "1-1", List.of(List.of("c1", "1"))));
        List<Object> group = Raw.list(Raw.list(field(info, "groups")).get(0));
        assertThat(field(group, "last-delivered-id")).isEqualTo("1-1");
        assertThat(field(group, "entries-read")).isNull();
        // The next entry appended goes on from the restored last ID.
        assertThat(Raw.call(jedis, "XADD", "v", "*", "k", "v").toString()).isNotEqualTo("3-3");
    }

    @Test
    void aPayloadOlderThan70GetsItsCountersAsRedisLoadsIt() {
        assertThat(restore("x", HexFormat.of().parseHex(REDIS_5))).isEqualTo("OK");
        List<Object> info = xinfoFull("x");
        assertThat(field(info, "max-deleted-entry-id")).isEqualTo("0-0");
        assertThat(field(info, "entries-added")).isEqualTo(2L);
        List<Object> groups = Raw.list(field(info, "groups"));
        assertThat(field(Raw.list(groups.get(0)), "entries-read")).isEqualTo(1L);
        assertThat(field(Raw.list(groups.get(0)), "lag")).isEqualTo(1L);
        assertThat(field(Raw.list(groups.get(1)), "entries-read")).isEqualTo(0L);
        assertThat(field(Raw.list(groups.get(1)), "lag")).isEqualTo(2L);
    }

    @Test
    void aStreamDumpedHereRestoresToTheSameState() {
        Raw.call(jedis, "CONFIG", "SET", "stream-node-max-entries", "3");
        try {
            for (int i = 1; i <= 8; i++) {
                Raw.call(jedis, "XADD", "s", i + "-0", "f", "v" + i, "g", "w");
            }
            Raw.call(jedis, "XADD", "s", "9-0", "other", "x");
            Raw.call(jedis, "XDEL", "s", "2-0");
            Raw.call(jedis, "XGROUP", "CREATE", "s", "g1", "0");
            Raw.call(jedis, "XGROUP", "CREATE", "s", "g2", "$");
            Raw.call(jedis, "XREADGROUP", "GROUP", "g1", "alice", "COUNT", "3", "STREAMS", "s", ">");
            Raw.call(jedis, "XREADGROUP", "GROUP", "g1", "bob", "COUNT", "1", "STREAMS", "s", ">");
            Raw.call(jedis, "XACK", "s", "g1", "3-0");
            Raw.call(jedis, "XGROUP", "CREATECONSUMER", "s", "g2", "carol");
            assertThat(restore("copy", jedis.dump("s"))).isEqualTo("OK");
            assertThat(xinfoFull("copy")).isEqualTo(xinfoFull("s"));
            // Nodes carry over: ~ trimming removes the same whole nodes from both.
            assertThat(Raw.call(jedis, "XTRIM", "s", "MAXLEN", "~", "4")).isEqualTo(Raw.call(jedis, "XTRIM", "copy", "MAXLEN", "~", "4"));
            assertThat(Raw.call(jedis, "XRANGE", "copy", "-", "+")).isEqualTo(Raw.call(jedis, "XRANGE", "s", "-", "+"));
        } finally {
            Raw.call(jedis, "CONFIG", "SET", "stream-node-max-entries", "100");
        }
    }

    @Test
    void damagedStreamPayloadsAreRefused() {
        assertThat((String) restore("k", DumpRestoreTest.seal(HexFormat.of().parseHex("0f00")))).startsWith("ERR Bad data format");
        // The Redis 7.0 payload with its length changed from 2 to 3.
        String wrongLength = REDIS_70.replace("ff0203030101", "ff0303030101");
        assertThat((String) restore("k", DumpRestoreTest.seal(HexFormat.of().parseHex(
                wrongLength.substring(0, wrongLength.length() - 20))))).isEqualTo("ERR Bad data format");
        assertThat(jedis.exists("k")).isFalse();
    }
}
