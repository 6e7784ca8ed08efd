package io.strata.redis;

import static io.strata.redis.LargeTestValues.b;
import static io.strata.redis.LargeTestValues.numbered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.rdb.RdbEncoder;
import io.strata.redis.rdb.RdbValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * RESTORE of lists, sets and hashes that take more than one transaction's 10 MB to store: staged
 * into a fresh object before the command runs, then claimed by the command's own transaction
 * ({@code StagedCollections}), so the RESTORE is still all or nothing.
 */
class RestoreLargeCollectionsTest extends SharedServerTestSupport {
    @Test
    void aSetOf150000MembersIsRestoredWholeAndDumpsBackTheSameMembers() {
        List<byte[]> members = numbered("member-", 150_000);
        byte[] payload = RdbEncoder.encode(new RdbValue.SetValue(members));
        assertThat(jedis.restore(b("set"), 0, payload)).isEqualTo("OK");

        assertThat(jedis.scard("set")).isEqualTo(150_000);
        assertThat(jedis.sismember("set", "member-0")).isTrue();
        assertThat(jedis.sismember("set", "member-149999")).isTrue();
        assertThat(jedis.sismember("set", "member-150000")).isFalse();

        // Its own DUMP restores elsewhere (staged again) to the same members.
        assertThat(jedis.restore(b("copy"), 0, jedis.dump(b("set")))).isEqualTo("OK");
        assertThat(jedis.sintercard("set", "copy")).isEqualTo(150_000);
    }

    @Test
    void aListAndAHashTooLargeForOneTransactionKeepTheirOrderAndValues() {
        List<byte[]> elements = numbered("element-with-some-padding-", 120_000);
        assertThat(jedis.restore(b("list"), 0, RdbEncoder.encode(new RdbValue.ListValue(elements)))).isEqualTo("OK");
        assertThat(jedis.llen("list")).isEqualTo(120_000);
        assertThat(jedis.lindex("list", 0)).isEqualTo("element-with-some-padding-0");
        assertThat(jedis.lindex("list", 64_321)).isEqualTo("element-with-some-padding-64321");
        assertThat(jedis.lindex("list", -1)).isEqualTo("element-with-some-padding-119999");
        assertThat(jedis.rpop("list")).isEqualTo("element-with-some-padding-119999");

        List<byte[]> fields = numbered("field-", 60_000);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            values.add(b("v".repeat(100) + i));
        }
        assertThat(jedis.restore(b("hash"), 0, RdbEncoder.encode(new RdbValue.HashValue(fields, values)))).isEqualTo("OK");
        assertThat(jedis.hlen("hash")).isEqualTo(60_000);
        assertThat(jedis.hget("hash", "field-59999")).isEqualTo("v".repeat(100) + 59999);
        assertThat(jedis.objectEncoding("hash")).isEqualTo("hashtable");
    }

    @Test
    void busykeyReplaceAndTtlAreDecidedInTheCommandsTransactionAsForAnyRestore() {
        byte[] payload = RdbEncoder.encode(new RdbValue.SetValue(numbered("m", 120_000)));
        jedis.set("taken", "old");
        assertThatThrownBy(() -> jedis.restore(b("taken"), 0, payload))
                .isInstanceOf(JedisDataException.class).hasMessage("BUSYKEY Target key name already exists.");
        assertThat(jedis.get("taken")).isEqualTo("old");
        assertThat(jedis.dbSize()).isEqualTo(1);

        assertThat(jedis.sendCommand(redis.clients.jedis.Protocol.Command.RESTORE, b("taken"), b("60000"), payload,
                b("REPLACE"))).isEqualTo(b("OK"));
        assertThat(jedis.type("taken")).isEqualTo("set");
        assertThat(jedis.scard("taken")).isEqualTo(120_000);
        assertThat(jedis.pttl("taken")).isBetween(1L, 60_000L);
    }

    @Test
    void insideMultiTheStagedValueIsTakenByExec() {
        byte[] payload = RdbEncoder.encode(new RdbValue.ListValue(numbered("element-with-some-padding-", 120_000)));
        Transaction t = jedis.multi();
        t.set("before", "1");
        t.restore(b("list"), 0, payload);
        t.llen("list");
        List<Object> results = t.exec();
        assertThat(results.get(1)).isEqualTo("OK");
        assertThat(results.get(2)).isEqualTo(120_000L);
    }

    @Test
    void aRestoreThatLosesLeavesNoStagedObjectBehindAndTheServerKeepsServing() {
        byte[] payload = RdbEncoder.encode(new RdbValue.ListValue(numbered("element-with-some-padding-", 120_000)));
        jedis.set("taken", "old");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> jedis.restore(b("taken"), 0, payload)).hasMessageStartingWith("BUSYKEY");
        }
        assertThat(storedElements()).as("every staged element cleared again").isZero();
        assertThat(jedis.restore(b("free"), 0, payload)).isEqualTo("OK");
        assertThat(storedElements()).as("the count sees elements where they are").isEqualTo(120_000);
        assertThat(jedis.lrange("free", 0, 1)).containsExactly("element-with-some-padding-0", "element-with-some-padding-1");
        assertThat(jedis.dbSize()).isEqualTo(2);
    }

    /** Values anywhere in the server's database that are elements of the test's list. */
    private static long storedElements() {
        byte[] prefix = b("element-with-some-padding-");
        return server.database.run(tr -> tr.getRange(new byte[0], new byte[] {(byte) 0xff}).asList().join().stream()
                .filter(kv -> kv.getValue().length >= prefix.length
                        && java.util.Arrays.equals(kv.getValue(), 0, prefix.length, prefix, 0, prefix.length))
                .count());
    }
}
