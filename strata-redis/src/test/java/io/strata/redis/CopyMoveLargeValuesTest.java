package io.strata.redis;

import static io.strata.redis.LargeTestValues.b;
import static io.strata.redis.LargeTestValues.numbered;
import static org.assertj.core.api.Assertions.assertThat;

import io.strata.redis.rdb.RdbEncoder;
import io.strata.redis.rdb.RdbValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * COPY and MOVE of collections too large for one transaction: copied before the command runs
 * and taken by its transaction only if the source is unchanged ({@code StagedCopies}).
 */
class CopyMoveLargeValuesTest extends SharedServerTestSupport {
    @Test
    void aLargeSetIsCopiedWithinAndAcrossDatabasesAndTheCopiesAreIndependent() {
        // (A set's object is its bitmap of interned ids: compact, so copied in the command itself.)
        jedis.restore(b("set"), 0, RdbEncoder.encode(new RdbValue.SetValue(numbered("member-", 150_000))));

        assertThat(jedis.copy("set", "copy", false)).isTrue();
        assertThat(jedis.scard("copy")).isEqualTo(150_000);
        jedis.sadd("copy", "extra");
        jedis.srem("set", "member-0");
        assertThat(jedis.scard("set")).isEqualTo(149_999);
        assertThat(jedis.scard("copy")).isEqualTo(150_001);

        assertThat(jedis.sendCommand(redis.clients.jedis.Protocol.Command.COPY, b("set"), b("set"), b("DB"), b("2")))
                .isEqualTo(1L);
        try (Jedis db2 = server.jedis()) {
            db2.select(2);
            assertThat(db2.scard("set")).isEqualTo(149_999);
            assertThat(db2.sismember("set", "member-149999")).isTrue();
        }
    }

    @Test
    void aLargeHashMovesWholeKeepingItsFieldsAndALargeListCopiesInOrder() {
        List<byte[]> fields = numbered("field-", 60_000);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            values.add(b("v".repeat(100) + i));
        }
        jedis.restore(b("hash"), 0, RdbEncoder.encode(new RdbValue.HashValue(fields, values)));
        assertThat(jedis.move("hash", 3)).isEqualTo(1);
        assertThat(jedis.exists("hash")).isFalse();
        try (Jedis db3 = server.jedis()) {
            db3.select(3);
            assertThat(db3.hlen("hash")).isEqualTo(60_000);
            assertThat(db3.hget("hash", "field-31337")).isEqualTo("v".repeat(100) + 31337);
        }

        jedis.restore(b("list"), 0, RdbEncoder.encode(new RdbValue.ListValue(numbered("element-with-some-padding-", 120_000))));
        assertThat(jedis.copy("list", "list2", false)).isTrue();
        assertThat(jedis.lindex("list2", 0)).isEqualTo("element-with-some-padding-0");
        assertThat(jedis.lindex("list2", -1)).isEqualTo("element-with-some-padding-119999");
        assertThat(jedis.llen("list2")).isEqualTo(120_000);
    }

    @Test
    void aSourceChangedAfterItWasStagedIsNeverCopiedStale() {
        jedis.restore(b("list"), 0, RdbEncoder.encode(new RdbValue.ListValue(numbered("element-with-some-padding-", 120_000))));
        // Staged when EXEC begins; the RPUSH before COPY in the same transaction changes the
        // source, so the staged copy is not used, and the value is too large to copy in it.
        redis.clients.jedis.Transaction t = jedis.multi();
        t.rpush("list", "added-in-exec");
        t.copy("list", "copy", false);
        List<Object> results = t.exec();
        assertThat(results.get(0)).isEqualTo(120_001L);
        assertThat(results.get(1)).isInstanceOf(redis.clients.jedis.exceptions.JedisDataException.class);
        assertThat(((Exception) results.get(1)).getMessage()).startsWith("ERR values that take more than 9000000 bytes");
        assertThat(jedis.exists("copy")).isFalse();
        assertThat(jedis.lindex("list", -1)).isEqualTo("added-in-exec");

        // Unchanged, the same COPY takes the staged copy.
        assertThat(jedis.copy("list", "copy", false)).isTrue();
        assertThat(jedis.lindex("copy", -1)).isEqualTo("added-in-exec");
    }
}
