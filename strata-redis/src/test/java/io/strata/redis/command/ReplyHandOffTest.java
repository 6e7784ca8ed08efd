package io.strata.redis.command;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplyHandOffTest {
    /** An executor that counts hand-offs and runs each when asked. */
    private static final class CountingExecutor implements Executor {
        final List<Runnable> handedOff = new ArrayList<>();

        @Override
        public void execute(Runnable command) {
            handedOff.add(command);
        }

        void runAll() {
            handedOff.forEach(Runnable::run);
        }
    }

    @Test
    void outsideABatchEachTaskIsHandedOffAtOnce() {
        CountingExecutor loop = new CountingExecutor();
        ReplyHandOff.execute(loop, () -> { });
        ReplyHandOff.execute(loop, () -> { });
        assertThat(loop.handedOff).hasSize(2);
    }

    @Test
    void insideABatchTheTasksOfOneExecutorAreOneHandOffRunInOrder() {
        CountingExecutor loopA = new CountingExecutor();
        CountingExecutor loopB = new CountingExecutor();
        List<String> ran = new ArrayList<>();
        ReplyHandOff.collecting(() -> {
            ReplyHandOff.execute(loopA, () -> ran.add("a1"));
            ReplyHandOff.execute(loopB, () -> ran.add("b1"));
            ReplyHandOff.execute(loopA, () -> ran.add("a2"));
            ReplyHandOff.collecting(() -> ReplyHandOff.execute(loopA, () -> ran.add("a3"))); // nested: same hand-off
            assertThat(loopA.handedOff).isEmpty();
        });
        assertThat(loopA.handedOff).hasSize(1);
        assertThat(loopB.handedOff).hasSize(1);
        loopA.runAll();
        loopB.runAll();
        assertThat(ran).containsExactly("a1", "a2", "a3", "b1");
    }

    @Test
    void aFailingTaskDoesNotKeepTheOthersOfItsHandOffFromRunning() {
        CountingExecutor loop = new CountingExecutor();
        List<String> ran = new ArrayList<>();
        ReplyHandOff.collecting(() -> {
            ReplyHandOff.execute(loop, () -> {
                throw new IllegalStateException("first connection's task");
            });
            ReplyHandOff.execute(loop, () -> ran.add("second"));
        });
        assertThatThrownBy(loop::runAll).hasMessage("first connection's task");
        assertThat(ran).containsExactly("second");
    }

    @Test
    void afterABatchTasksAreHandedOffAtOnceAgain() {
        CountingExecutor loop = new CountingExecutor();
        ReplyHandOff.collecting(() -> ReplyHandOff.execute(loop, () -> { }));
        ReplyHandOff.execute(loop, () -> { });
        assertThat(loop.handedOff).hasSize(2);
    }
}
