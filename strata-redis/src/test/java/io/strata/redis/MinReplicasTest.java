package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@code min-replicas-to-write} on a server without replicas refuses writes with NOREPLICAS, as
 * a Redis master without replicas does ({@code Replicas}), and reads go on.
 */
class MinReplicasTest extends SharedServerTestSupport {
    private static final String NOREPLICAS = "NOREPLICAS Not enough good replicas to write.";

    @AfterEach
    void reset() {
        jedis.configSet("min-replicas-to-write", "0");
        jedis.configSet("min-replicas-max-lag", "10");
    }

    @Test
    void writesAreRefusedAndReadsServedWhileReplicasAreRequired() {
        jedis.set("x", "some value");
        jedis.configSet("min-replicas-to-write", "1");

        assertThatThrownBy(() -> jedis.set("x", "new")).isInstanceOf(JedisDataException.class).hasMessage(NOREPLICAS);
        assertThatThrownBy(() -> jedis.del("x")).hasMessage(NOREPLICAS);
        assertThat(jedis.get("x")).isEqualTo("some value");

        // A lag of 0 turns the check off, as in Redis; so does a count of 0.
        jedis.configSet("min-replicas-max-lag", "0");
        assertThat(jedis.set("x", "lag off")).isEqualTo("OK");
        jedis.configSet("min-replicas-max-lag", "10");
        jedis.configSet("min-replicas-to-write", "0");
        assertThat(jedis.set("x", "count off")).isEqualTo("OK");
    }

    @Test
    void execOfATransactionThatWritesIsDiscardedSayingWhyAndOneThatOnlyReadsRuns() {
        jedis.set("x", "1");
        jedis.configSet("min-replicas-to-write", "1");

        Transaction reads = jedis.multi();
        reads.get("x");
        assertThat(reads.exec()).isEqualTo(List.of("1"));

        // A write is refused when it is queued (Redis checks before queueing), failing the EXEC.
        Transaction writes = jedis.multi();
        writes.incr("x");
        assertThatThrownBy(writes::exec).hasMessage("EXECABORT Transaction discarded because of previous errors.");

        // Queued before replicas were required: EXEC itself is refused and says why.
        // (Sent command by command: Jedis's Transaction would hold INCR back until EXEC.)
        jedis.configSet("min-replicas-to-write", "0");
        assertThat(jedis.sendCommand(Command.MULTI)).isEqualTo("OK".getBytes());
        assertThat(jedis.sendCommand(Command.INCR, "x")).isEqualTo("QUEUED".getBytes());
        try (redis.clients.jedis.Jedis other = server.jedis()) {
            other.configSet("min-replicas-to-write", "1");
        }
        assertThatThrownBy(() -> jedis.sendCommand(Command.EXEC))
                .hasMessage("EXECABORT Transaction discarded because of: " + NOREPLICAS);
        assertThat(jedis.get("x")).isEqualTo("1");
    }

    @Test
    void scriptsWithFlagsAreRefusedUnlessNoWritesAndFlaglessScriptsOnlyAtTheirWrites() {
        jedis.set("x", "some value");
        jedis.configSet("min-replicas-to-write", "1");

        assertThat(jedis.eval("#!lua flags=no-writes\nreturn redis.call('get','x')", 1, "x")).isEqualTo("some value");
        assertThat(jedis.eval("return redis.call('get','x')", 1, "x")).isEqualTo("some value");
        assertThatThrownBy(() -> jedis.eval("#!lua\nreturn redis.call('get','x')", 1, "x"))
                .hasMessageStartingWith("NOREPLICAS");
        assertThatThrownBy(() -> jedis.eval("return redis.call('set','x', 1)", 1, "x"))
                .hasMessageStartingWith("NOREPLICAS");
        assertThat(jedis.eval("return redis.pcall('set','x', 1)['err']", 1, "x")).isEqualTo(NOREPLICAS);
        assertThat(jedis.get("x")).isEqualTo("some value");
    }
}
