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
    void frequenciesAreCountedOnlyWhileAnLfuPolicyAsksForThem() {
        clock.accessed(SPACE, 0, key("k"), 1_000_000);
        assertThat(clock.frequency(SPACE, 0, key("k"), 1_000_000)).isEqualTo(AccessClock.LFU_INITIAL);
        clock.countFrequency(true, 0, 1);
        for (int i = 0; i < 10; i++) {
            clock.accessed(SPACE, 0, key("k"), 1_000_000);
        }
        // Factor 0: every access counts.
        assertThat(clock.frequency(SPACE, 0, key("k"), 1_000_000)).isEqualTo(AccessClock.LFU_INITIAL + 10);
        assertThat(clock.frequency(SPACE, 0, key("other"), 1_000_000)).isEqualTo(AccessClock.LFU_INITIAL);
    }

    @Test
    void theCounterGrowsLogarithmicallyAndDecaysOnePerPeriod() {
        clock.countFrequency(true, 10, 1);
        for (int i = 0; i < 10_000; i++) {
            clock.accessed(SPACE, 0, key("hot"), 1_000_000);
        }
        // redis.conf's table for lfu-log-factor 10: 18 after 1,000 hits, 142 after 100,000, 255 after 1,000,000.
        int hot = clock.frequency(SPACE, 0, key("hot"), 1_000_000);
        assertThat(hot).isBetween(35, 65);
        // One less per minute without an access (lfu-decay-time 1), never below 0.
        assertThat(clock.frequency(SPACE, 0, key("hot"), 1_000_000 + 3 * 60_000)).isEqualTo(hot - 3);
        assertThat(clock.frequency(SPACE, 0, key("hot"), 1_000_000 + 1_000 * 60_000L)).isZero();
        clock.frequencyIs(SPACE, 0, key("restored"), 1_000_000, 200);
        assertThat(clock.frequency(SPACE, 0, key("restored"), 1_000_000)).isEqualTo(200);
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
