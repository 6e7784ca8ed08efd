package io.strata.redis.command;

import io.strata.redis.commands.CommandGroups;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LaneRoutingTest {
    private final CommandTable table = CommandGroups.all();

    @Test
    void aSingleKeyRequestTakesItsKeysLane() {
        int mask = lanesOf(0, 7, "set", "user:1", "v");

        assertThat(mask).isEqualTo(1 << LaneRouting.laneOfKey(bytes("user:1"), 0));
        assertThat(LaneRouting.single(mask)).isTrue();
    }

    @Test
    void theSameKeyInAnotherDatabaseMayTakeAnotherLane() {
        // The lane hashes the database too: keys of different databases never conflict.
        java.util.Set<Integer> lanes = new java.util.HashSet<>();
        for (int db = 0; db < 16; db++) {
            int mask = lanesOf(db, 7, "get", "k");
            assertThat(LaneRouting.single(mask)).isTrue();
            lanes.add(Integer.numberOfTrailingZeros(mask));
        }
        assertThat(lanes).hasSizeGreaterThan(1).allMatch(l -> l < CommandLanes.LANES);
    }

    @Test
    void everyKeyOfAMultiKeyRequestCounts() {
        String[] keys = keysInDistinctLanes(3);
        int mask = lanesOf(0, 7, "mset", keys[0], "a", keys[1], "b", keys[2], "c");

        assertThat(Integer.bitCount(mask)).isEqualTo(3);
        assertThat(LaneRouting.single(mask)).isFalse();
        for (String k : keys) {
            assertThat(mask & (1 << LaneRouting.laneOfKey(bytes(k), 0))).isNotZero();
        }
    }

    @Test
    void keysFoundByKeySpecsCountTooNotOnlyTheFirst() {
        // ZUNIONSTORE's keys are found through its numkeys argument (a movable-keys command).
        String[] keys = keysInDistinctLanes(3);
        int mask = lanesOf(0, 7, "zunionstore", keys[0], "2", keys[1], keys[2]);

        assertThat(Integer.bitCount(mask)).isEqualTo(3);
    }

    @Test
    void aKeylessRequestTakesItsConnectionsLane() {
        assertThat(lanesOf(0, 42, "dbsize")).isEqualTo(1 << LaneRouting.laneOfConnection(42));
        assertThat(lanesOf(3, 42, "flushdb")).isEqualTo(1 << LaneRouting.laneOfConnection(42));
    }

    private int lanesOf(int db, long connection, String... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = bytes(args[i]);
        }
        return LaneRouting.lanesOf(table.lookup(args[0]), raw, db, connection);
    }

    /** {@code n} key names whose lanes (in database 0) all differ. */
    private static String[] keysInDistinctLanes(int n) {
        String[] keys = new String[n];
        int used = 0;
        int found = 0;
        for (int i = 0; found < n; i++) {
            String k = "key:" + i;
            int lane = LaneRouting.laneOfKey(bytes(k), 0);
            if ((used & (1 << lane)) == 0) {
                used |= 1 << lane;
                keys[found++] = k;
            }
        }
        return keys;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
