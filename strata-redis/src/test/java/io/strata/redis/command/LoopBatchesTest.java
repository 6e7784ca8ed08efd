package io.strata.redis.command;

import io.strata.redis.commands.CommandGroups;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LoopBatchesTest {
    private final CommandTable table = CommandGroups.all();

    @Test
    void unpipelinedWritesAndFastReadsRunOnTheLoop() {
        List<CommandLanes.Unit> queued = List.of(unit("set", "k", "v"), unit("incr", "n"), unit("lpush", "l", "a"),
                unit("sadd", "s", "m"), unit("hset", "h", "f", "v"), unit("zadd", "z", "1", "m"),
                unit("mset", "a", "1", "b", "2"), unit("sunionstore", "d", "s", "t"), unit("get", "k"));
        assertThat(LoopBatches.runsOnLoop("memory", queued)).isTrue();
    }

    @Test
    void aPipelineGoesToTheLanesThread() {
        CommandLanes.Unit pipeline = new CommandLanes.Unit(List.of(invocation("incr", "n"), invocation("incr", "n")));
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("set", "k", "v"), pipeline))).isFalse();
    }

    @Test
    void aRequestWhoseKeysSpanLanesGoesToALaneThread() {
        CommandLanes.Unit spanning = unit("mset", "a", "1", "b", "2");
        spanning.spansLanes = true;
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("set", "k", "v"), spanning))).isFalse();
    }

    @Test
    void aReadThatIsNotFastGoesToTheLanesThread() {
        for (String[] read : new String[][] {{"lrange", "l", "0", "-1"}, {"smembers", "s"}, {"sinter", "s", "t"}, {"keys", "*"},
                {"scan", "0"}, {"sort_ro", "l"}}) {
            assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("set", "k", "v"), unit(read)))).as(read[0]).isFalse();
        }
    }

    @Test
    void aLargeRequestGoesToTheLanesThread() {
        String atLimit = "v".repeat(LoopBatches.MAX_REQUEST_BYTES - "set".length() - "k".length());
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("set", "k", atLimit)))).isTrue();
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("set", "k", atLimit + "v")))).isFalse();
    }

    @Test
    void publishWaitsForTheEventLoopsSoItGoesToTheLanesThread() {
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("publish", "c", "m")))).isFalse();
        assertThat(LoopBatches.runsOnLoop("memory", List.of(unit("pubsub", "numpat")))).isFalse();
    }

    @Test
    void onlyOnTheEnginesMemoryStorageDoesAnythingRunOnTheLoop() {
        // ssd: reads may wait for the disk; unknown (a FoundationDB cluster): a network round trip.
        assertThat(LoopBatches.runsOnLoop("ssd", List.of(unit("set", "k", "v")))).isFalse();
        assertThat(LoopBatches.runsOnLoop(null, List.of(unit("set", "k", "v")))).isFalse();
    }

    @Test
    void anEmptyQueueHasNothingToRun() {
        assertThat(LoopBatches.runsOnLoop("memory", List.of())).isFalse();
    }

    private CommandLanes.Unit unit(String... args) {
        return new CommandLanes.Unit(List.of(invocation(args)));
    }

    private Invocation invocation(String... args) {
        List<byte[]> bytes = new ArrayList<>();
        for (String a : args) {
            bytes.add(a.getBytes(StandardCharsets.UTF_8));
        }
        return new Invocation(bytes.toArray(byte[][]::new), null, null, table.lookup(args[0]));
    }
}
