package io.strata.redis.command;

import io.strata.redis.commands.CommandGroups;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FastReadsTest {
    private final CommandTable table = CommandGroups.all();

    @Test
    void redisFastReadsAreAnsweredHereInMemoryAndOnACluster() {
        for (String name : new String[] {"get", "mget", "exists", "ttl", "hget", "hmget", "sismember", "zscore", "llen", "strlen"}) {
            assertThat(FastReads.answersHere("memory", table.lookup(name))).as(name).isTrue();
            assertThat(FastReads.answersHere(null, table.lookup(name))).as(name).isTrue();
        }
    }

    @Test
    void writesAndLongReadsGoToALane() {
        for (String name : new String[] {"set", "incr", "lpush", "getdel", "getex", "lrange", "smembers", "sinter", "keys", "scan", "sort_ro"}) {
            assertThat(FastReads.answersHere("memory", table.lookup(name))).as(name).isFalse();
        }
    }

    @Test
    void onTheDiskEngineEveryReadGoesToALane() {
        // Its reads may wait for the disk: never on the event loop.
        assertThat(FastReads.answersHere("ssd", table.lookup("get"))).isFalse();
        assertThat(FastReads.answersHere("ssd", table.lookup("hget"))).isFalse();
    }
}
