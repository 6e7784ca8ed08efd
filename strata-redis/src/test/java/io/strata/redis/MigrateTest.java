package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.net.ServerSocket;
import java.util.List;

/**
 * MIGRATE between two servers over TCP: keys move (or, with COPY, are copied) with their TTL
 * into the target's database, KEYS moves several, REPLACE overwrites, AUTH reaches a target
 * with a password, and Redis's replies for nothing to move, an unreachable target and a target
 * that refuses a key (which then stays).
 */
class MigrateTest {
    private static RunningServer source;
    private static RunningServer target;
    private static Jedis from;
    private static Jedis to;

    @BeforeAll
    static void start() throws Exception {
        source = RunningServer.start();
        target = RunningServer.start();
        from = source.jedis();
        to = target.jedis();
    }

    @AfterAll
    static void stop() {
        from.close();
        to.close();
        source.close();
        target.close();
    }

    @BeforeEach
    void empty() {
        from.flushAll();
        to.flushAll();
        to.configSet("requirepass", "");
    }

    private static Object migrate(String... rest) {
        String[] args = new String[rest.length + 3];
        args[0] = "MIGRATE";
        args[1] = "127.0.0.1";
        args[2] = Integer.toString(target.port());
        System.arraycopy(rest, 0, args, 3, rest.length);
        return Raw.call(from, args);
    }

    @Test
    void aKeyMovesWithItsTtlIntoTheTargetDatabase() {
        from.rpush("list", "a", "b");
        from.pexpire("list", 100_000);
        assertThat(migrate("list", "3", "5000")).isEqualTo("OK");
        assertThat(from.exists("list")).isFalse();
        to.select(3);
        assertThat(to.lrange("list", 0, -1)).containsExactly("a", "b");
        assertThat(to.pttl("list")).isBetween(1L, 100_000L);
        to.select(0);
    }

    @Test
    void copyKeepsTheKeysAndKeysMovesSeveral() {
        from.set("a", "1");
        from.hset("h", "f", "v");
        assertThat(migrate("", "0", "5000", "COPY", "KEYS", "a", "h", "missing")).isEqualTo("OK");
        assertThat(from.get("a")).isEqualTo("1");
        assertThat(to.get("a")).isEqualTo("1");
        assertThat(to.hget("h", "f")).isEqualTo("v");
        assertThatThrownBy(() -> migrate("a", "0", "5000", "KEYS", "b"))
                .hasMessage("ERR When using MIGRATE KEYS option, the key argument must be set to the empty string");
    }

    @Test
    void aTargetThatRefusesAKeyLeavesItHereUnlessReplace() {
        from.set("k", "new");
        to.set("k", "old");
        assertThatThrownBy(() -> migrate("k", "0", "5000"))
                .hasMessage("ERR Target instance replied with error: BUSYKEY Target key name already exists.");
        assertThat(from.get("k")).isEqualTo("new");
        assertThat(migrate("k", "0", "5000", "REPLACE")).isEqualTo("OK");
        assertThat(to.get("k")).isEqualTo("new");
        assertThat(from.exists("k")).isFalse();
    }

    @Test
    void authReachesATargetWithAPassword() {
        to.configSet("requirepass", "s3cret");
        to.auth("s3cret");
        from.set("k", "v");
        assertThatThrownBy(() -> migrate("k", "0", "5000")).hasMessageStartingWith("ERR Target instance replied with error: NOAUTH");
        assertThat(migrate("k", "0", "5000", "AUTH", "s3cret")).isEqualTo("OK");
        assertThat(to.get("k")).isEqualTo("v");
    }

    @Test
    void nothingToMoveAndAnUnreachableTargetAnswerAsRedis() throws Exception {
        assertThat(migrate("nothing", "0", "5000")).isEqualTo("NOKEY");
        from.set("k", "v");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThatThrownBy(() -> Raw.call(from, "MIGRATE", "127.0.0.1", Integer.toString(closed), "k", "0", "1000"))
                .hasMessage("IOERR error or timeout connecting to the client");
        assertThat(from.get("k")).isEqualTo("v");
        assertThat(Raw.list(Raw.call(from, "COMMAND", "INFO", "migrate")).toString()).contains("movablekeys");
        assertThat(Raw.call(from, "COMMAND", "GETKEYS", "MIGRATE", "h", "1", "", "0", "5", "KEYS", "x", "y")).isEqualTo(List.of("x", "y"));
    }
}
