package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/** String commands over TCP with Jedis. */
class StringCommandsTest extends ServerTestSupport {

    @Test
    void setGetAndOptions() {
        assertThat(jedis.get("k")).isNull();
        assertThat(jedis.set("k", "v")).isEqualTo("OK");
        assertThat(jedis.get("k")).isEqualTo("v");
        assertThat(jedis.set("k", "w", SetParams.setParams().nx())).isNull();
        assertThat(jedis.set("k", "w", SetParams.setParams().xx())).isEqualTo("OK");
        assertThat(jedis.setGet("k", "x")).isEqualTo("w");
        assertThat(jedis.set("other", "v", SetParams.setParams().xx())).isNull();
        assertThat(jedis.exists("other")).isFalse();
    }

    @Test
    void binaryKeysAndValues() {
        byte[] key = {0, (byte) 0xff, '\r', '\n'};
        byte[] value = {(byte) 0x80, 0, 1};
        jedis.set(key, value);
        assertThat(jedis.get(key)).isEqualTo(value);
    }

    @Test
    void expiryFollowsTheServerClock() {
        // DBSIZE counts an expired key until it is removed: keep the expiry cycle from removing it.
        server.server.expiryCycle().setActive(false);
        jedis.set("k", "v", SetParams.setParams().ex(10));
        assertThat(jedis.ttl("k")).isEqualTo(10);
        server.advanceMillis(9_999);
        assertThat(jedis.get("k")).isEqualTo("v");
        server.advanceMillis(1);
        assertThat(jedis.get("k")).isNull();
        assertThat(jedis.ttl("k")).isEqualTo(-2);
        assertThat(jedis.dbSize()).isEqualTo(1);
        jedis.set("k", "again");
        assertThat(jedis.ttl("k")).isEqualTo(-1);
        assertThat(jedis.dbSize()).isEqualTo(1);
    }

    @Test
    void countersAndTheirErrors() {
        assertThat(jedis.incr("n")).isEqualTo(1);
        assertThat(jedis.incrBy("n", 41)).isEqualTo(42);
        assertThat(jedis.decrBy("n", 2)).isEqualTo(40);
        jedis.set("big", Long.toString(Long.MAX_VALUE));
        assertThatThrownBy(() -> jedis.incr("big")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR increment or decrement would overflow");
        jedis.set("s", "abc");
        assertThatThrownBy(() -> jedis.incr("s")).hasMessage("ERR value is not an integer or out of range");
        jedis.set("f", "10.5");
        assertThat(jedis.incrByFloat("f", 0.1)).isEqualTo(10.6);
        assertThat(jedis.get("f")).isEqualTo("10.6");
    }

    @Test
    void rangesAndAppend() {
        assertThat(jedis.append("s", "Hello")).isEqualTo(5);
        assertThat(jedis.append("s", " World")).isEqualTo(11);
        assertThat(jedis.getrange("s", 0, 4)).isEqualTo("Hello");
        assertThat(jedis.getrange("s", -5, -1)).isEqualTo("World");
        assertThat(jedis.getrange("s", 5, 3)).isEmpty();
        assertThat(jedis.setrange("pad", 3, "x")).isEqualTo(4);
        assertThat(jedis.get("pad".getBytes())).containsExactly(0, 0, 0, 'x');
        assertThat(jedis.strlen("s")).isEqualTo(11);
    }

    @Test
    void valuesLargerThanOneFoundationDbValueAreChunked() {
        byte[] big = new byte[3_000_000];
        new java.util.Random(1).nextBytes(big);
        assertThat(jedis.set("big".getBytes(), big)).isEqualTo("OK");
        assertThat(jedis.get("big".getBytes())).isEqualTo(big);
        assertThat(jedis.strlen("big")).isEqualTo(big.length);
        assertThat(jedis.getrange("big".getBytes(), 1_000_000, 1_000_009)).isEqualTo(java.util.Arrays.copyOfRange(big, 1_000_000, 1_000_010));
        assertThat(jedis.append("big".getBytes(), new byte[] {1, 2})).isEqualTo(big.length + 2);
        jedis.set("big", "small again");
        assertThat(jedis.get("big")).isEqualTo("small again");
    }

    @Test
    void setrangeRefusesHugeOffsetsWithoutBuildingTheValue() {
        for (long offset : new long[] {Long.MAX_VALUE, Integer.MAX_VALUE, 536_870_912L}) {
            assertThatThrownBy(() -> jedis.setrange("k", offset, "A"))
                    .hasMessage("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
        }
        assertThat(jedis.exists("k")).isFalse();
        assertThat(jedis.setrange("k", 100_000_000L, "A")).isEqualTo(100_000_001L);
    }

    @Test
    void msetAndMget() {
        assertThat(jedis.mset("a", "1", "b", "2")).isEqualTo("OK");
        assertThat(jedis.mget("a", "nope", "b")).isEqualTo(java.util.Arrays.asList("1", null, "2"));
        assertThat(jedis.msetnx("b", "3", "c", "4")).isZero();
        assertThat(jedis.exists("c")).isFalse();
    }

    @Test
    void wrongTypeAndArity() {
        assertThatThrownBy(() -> jedis.sendCommand(redis.clients.jedis.Protocol.Command.GET))
                .hasMessage("ERR wrong number of arguments for 'get' command");
        assertThat(jedis.keys("*")).isEmpty();
        assertThat(List.of(jedis.ping())).containsExactly("PONG");
    }
}
