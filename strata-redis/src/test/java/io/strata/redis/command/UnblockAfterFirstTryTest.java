package io.strata.redis.command;

import io.strata.redis.protocol.Reply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** CLIENT UNBLOCK of a connection whose blocking command is still in its first try waits for that try. */
class UnblockAfterFirstTryTest {
    private final ClientSession session = new ClientSession(7, "127.0.0.1:1", "127.0.0.1:6379", 0, true);

    /** A wait that records the replies it was ended with. */
    private static final class RecordingWait implements ClientSession.BlockedWait {
        final List<Reply> endedWith = new ArrayList<>();

        @Override
        public boolean unblock(Reply reply) {
            endedWith.add(reply);
            return true;
        }
    }

    @Test
    void anUnblockDuringAFirstTryThatFindsNothingEndsTheWaitOnceItBlocks() {
        CompletableFuture<Void> firstTry = new CompletableFuture<>();
        session.firstTryRunning(firstTry);

        CompletableFuture<Boolean> unblocked = session.unblockAfterFirstTry(Reply.error("UNBLOCKED x"));
        assertThat(unblocked).isNotDone();

        RecordingWait wait = new RecordingWait();
        session.blockedOn(wait); // the try found nothing: blocked, then settled
        firstTry.complete(null);

        assertThat(unblocked).isCompletedWithValue(true);
        assertThat(wait.endedWith).hasSize(1);
    }

    @Test
    void anUnblockDuringAFirstTryThatIsServedAnswersNotBlocked() {
        CompletableFuture<Void> firstTry = new CompletableFuture<>();
        session.firstTryRunning(firstTry);

        CompletableFuture<Boolean> unblocked = session.unblockAfterFirstTry(null);
        firstTry.complete(null); // served: never blocked

        assertThat(unblocked).isCompletedWithValue(false);
    }

    @Test
    void withNoFirstTryRunningTheAnswerIsImmediate() {
        assertThat(session.unblockAfterFirstTry(null)).isCompletedWithValue(false);

        CompletableFuture<Void> settled = CompletableFuture.completedFuture(null);
        session.firstTryRunning(settled);
        RecordingWait wait = new RecordingWait();
        session.blockedOn(wait);
        assertThat(session.unblockAfterFirstTry(null)).isCompletedWithValue(true);
        assertThat(wait.endedWith).containsExactly((Reply) null);
    }
}
