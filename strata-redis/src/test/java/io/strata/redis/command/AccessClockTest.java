package io.strata.redis.command;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class AccessClockTest {
    private static final Object SPACE = new Object();
    private final AccessClock clock = new AccessClock(1_000_000);

    @Test
    void aKeyNotAccessedSinceTheStartIsIdleSinceTheStart() {
        assertThat(clock.idleSeconds(SPACE, 0, key("k"), 1_000_000)).isZero();
        assertThat(clock.idleSeconds(SPACE, 0, key("k"), 1_009_999)).isEqualTo(9);
    }

    @Test
    void anAccessRestartsTheCountInWholeSeconds() {
        clock.accessed(SPACE, 0, key("k"), 1_005_000);
        assertThat(clock.idleSeconds(SPACE, 0, key("k"), 1_005_999)).isZero();
        assertThat(clock.idleSeconds(SPACE, 0, key("k"), 1_012_000)).isEqualTo(7);
    }

    @Test
    void idleSinceReachesBackBeforeTheStart() {
        clock.idleSince(SPACE, 0, key("k"), 1_000_000, 86_400L * 365 * 10);
        assertThat(clock.idleSeconds(SPACE, 0, key("k"), 1_000_000)).isEqualTo(86_400L * 365 * 10);
        clock.idleSince(SPACE, 0, key("far"), 1_000_000, Long.MAX_VALUE);
        assertThat(clock.idleSeconds(SPACE, 0, key("far"), 1_000_000)).isEqualTo((1L << 30) - 1);
    }

    @Test
    void whatDoesNotTouchIsRedissNoTouchLookups() {
        CommandTable table = new CommandTable();
        io.strata.redis.commands.CommandGroups.registerAll(table);
        for (String name : new String[] {"type", "ttl", "pttl", "expiretime", "pexpiretime", "exists", "restore"}) {
            assertThat(AccessClock.touches(table.lookup(name))).as(name).isFalse();
        }
        assertThat(AccessClock.touches(table.lookupFullName("object|idletime"))).isFalse();
        assertThat(AccessClock.touches(table.lookupFullName("memory|usage"))).isFalse();
        for (String name : new String[] {"get", "set", "touch", "mget", "hgetall", "dump", "incr"}) {
            assertThat(AccessClock.touches(table.lookup(name))).as(name).isTrue();
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
