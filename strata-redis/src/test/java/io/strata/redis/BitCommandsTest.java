package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.args.BitCountOption;
import redis.clients.jedis.args.BitOP;
import redis.clients.jedis.params.BitPosParams;

/** SETBIT, GETBIT, BITCOUNT, BITPOS and BITOP over TCP; expected values are Redis 7.0's. */
class BitCommandsTest {
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

    @Test
    void setbitGrowsTheStringAndAnswersTheOldBit() {
        assertThat(jedis.setbit("b", 7, true)).isFalse();
        assertThat(jedis.get("b")).isEqualTo("\u0001");
        assertThat(jedis.setbit("b", 7, false)).isTrue();
        assertThat(jedis.setbit("b", 17, true)).isFalse();
        assertThat(jedis.strlen("b")).isEqualTo(3);
        assertThat(jedis.getbit("b", 17)).isTrue();
        assertThat(jedis.getbit("b", 16)).isFalse();
        assertThat(jedis.getbit("b", 1_000_000)).isFalse();
        assertThat(jedis.getbit("missing", 3)).isFalse();
    }

    @Test
    void setbitKeepsTheExpiry() {
        jedis.setex("b", 100, "a");
        jedis.setbit("b", 100, true);
        assertThat(jedis.ttl("b")).isEqualTo(100);
    }

    @Test
    void setbitThatChangesNothingDoesNotDisturbWatch() {
        jedis.set("b", "a"); // 0110 0001
        jedis.watch("b");
        try (Jedis other = server.jedis()) {
            other.setbit("b", 1, true);
        }
        Transaction t = jedis.multi();
        t.set("x", "1");
        assertThat(t.exec()).isNotNull();
    }

    @Test
    void bitArgumentsAreCheckedAsRedisChecksThem() {
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SETBIT".getBytes(), "b", "-1", "1"))
                .hasMessage("ERR bit offset is not an integer or out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SETBIT".getBytes(), "b", "4294967296", "1"))
                .hasMessage("ERR bit offset is not an integer or out of range");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "SETBIT".getBytes(), "b", "0", "2"))
                .hasMessage("ERR bit is not an integer or out of range");
    }

    @Test
    void bitcountByteAndBitRanges() {
        jedis.set("s", "foobar");
        assertThat(jedis.bitcount("s")).isEqualTo(26);
        assertThat(jedis.bitcount("s", 0, 0)).isEqualTo(4);
        assertThat(jedis.bitcount("s", 1, 1)).isEqualTo(6);
        assertThat(jedis.bitcount("s", 1, 1, BitCountOption.BYTE)).isEqualTo(6);
        assertThat(jedis.bitcount("s", 5, 30, BitCountOption.BIT)).isEqualTo(17);
        assertThat(jedis.bitcount("s", -2, -1)).isEqualTo(7);
        assertThat(jedis.bitcount("s", -1, -2)).isEqualTo(0);
        assertThat(jedis.bitcount("s", 100, 200)).isEqualTo(0);
        assertThat(jedis.bitcount("missing", 0, 1)).isEqualTo(0);
        assertThatThrownBy(() -> jedis.sendCommand(() -> "BITCOUNT".getBytes(), "s", "0"))
                .hasMessage("ERR syntax error");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "BITCOUNT".getBytes(), "s", "0", "1", "WORD"))
                .hasMessage("ERR syntax error");
    }

    @Test
    void bitposFindsSetAndClearBits() {
        jedis.set("s".getBytes(), new byte[] {(byte) 0xff, (byte) 0xf0, 0x00});
        assertThat(jedis.bitpos("s", true)).isEqualTo(0);
        assertThat(jedis.bitpos("s", false)).isEqualTo(12);
        assertThat(jedis.bitpos("s", true, new BitPosParams(2))).isEqualTo(-1);
        assertThat(jedis.bitpos("s", false, new BitPosParams(2))).isEqualTo(16);
        jedis.set("ones".getBytes(), new byte[] {(byte) 0xff, (byte) 0xff});
        // Without an end the string counts as padded with zeros; with one it does not.
        assertThat(jedis.bitpos("ones", false)).isEqualTo(16);
        assertThat(jedis.bitpos("ones", false, new BitPosParams(0, -1))).isEqualTo(-1);
        assertThat(jedis.bitpos("s", true, new BitPosParams(7, 15).modifier(BitCountOption.BIT))).isEqualTo(7);
        assertThat(jedis.bitpos("s", false, new BitPosParams(7, 15).modifier(BitCountOption.BIT))).isEqualTo(12);
        assertThat(jedis.bitpos("missing", true)).isEqualTo(-1);
        assertThat(jedis.bitpos("missing", false)).isEqualTo(0);
        assertThatThrownBy(() -> jedis.sendCommand(() -> "BITPOS".getBytes(), "s", "2"))
                .hasMessage("ERR The bit argument must be 1 or 0.");
    }

    @Test
    void bitopCombinesPaddingShorterValuesWithZeros() {
        jedis.set("a".getBytes(), new byte[] {(byte) 0xf0, 0x0f});
        jedis.set("b".getBytes(), new byte[] {(byte) 0x3c});
        assertThat(jedis.bitop(BitOP.AND, "d", "a", "b")).isEqualTo(2);
        assertThat(jedis.get("d".getBytes())).containsExactly(0x30, 0x00);
        jedis.bitop(BitOP.OR, "d", "a", "b");
        assertThat(jedis.get("d".getBytes())).containsExactly(0xfc, 0x0f);
        jedis.bitop(BitOP.XOR, "d", "a", "b", "missing");
        assertThat(jedis.get("d".getBytes())).containsExactly(0xcc, 0x0f);
        jedis.bitop(BitOP.NOT, "d", "a");
        assertThat(jedis.get("d".getBytes())).containsExactly(0x0f, 0xf0);
        // An empty result deletes the destination.
        assertThat(jedis.bitop(BitOP.AND, "d", "missing", "other")).isEqualTo(0);
        assertThat(jedis.exists("d")).isFalse();
        assertThatThrownBy(() -> jedis.sendCommand(() -> "BITOP".getBytes(), "NOT", "d", "a", "b"))
                .hasMessage("ERR BITOP NOT must be called with a single source key.");
        assertThatThrownBy(() -> jedis.sendCommand(() -> "BITOP".getBytes(), "NAND", "d", "a"))
                .hasMessage("ERR syntax error");
    }

    @Test
    void bitopRemovesTheDestinationsExpiry() {
        jedis.set("a", "x");
        jedis.setex("d", 100, "old");
        jedis.bitop(BitOP.OR, "d", "a");
        assertThat(jedis.ttl("d")).isEqualTo(-1);
        assertThat(jedis.get("d")).isEqualTo("x");
    }

    @Test
    void anErrorInsideMultiLeavesNoPartialWrite() {
        jedis.set("s", "x");
        Transaction t = jedis.multi();
        t.setbit("s", 0, true);
        t.sendCommand(() -> "SETBIT".getBytes(), "s", "1", "5");
        List<Object> replies = t.exec();
        assertThat(replies.get(0)).isEqualTo(false);
        assertThat(replies.get(1)).isInstanceOf(redis.clients.jedis.exceptions.JedisDataException.class);
        assertThat(jedis.getbit("s", 0)).isTrue();
        assertThat(jedis.getbit("s", 1)).isTrue();
    }
}
