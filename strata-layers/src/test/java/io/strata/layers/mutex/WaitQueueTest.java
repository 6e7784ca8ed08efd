package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static io.strata.layers.mutex.MutexTestSupport.LOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The queue's conflicts, named after the race they close. FoundationDB gives a versionstamped
 * key no write conflict range, so without the queue's tail conflict a release that read the
 * queue empty committed over an enqueue made meanwhile and stranded the waiter (found by
 * {@link MutexHistoryTest} under commit faults).
 */
class WaitQueueTest {
    private final Database db = Strata.inMemory();
    private final MutexState state = new MutexState(LOCK);

    @AfterEach
    void close() {
        db.close();
    }

    private void enqueue(String name) {
        db.run(tr -> {
            state.queue.enqueue(tr, name);
            return null;
        });
    }

    @Test
    void aReleaseThatReadTheQueueEmptyAbortsWhenAnEnqueueCommitsMeanwhile() {
        Transaction release = db.createTransaction();
        assertThat(state.queue.head(release)).isNull();
        state.grant(release, "", 1);
        enqueue("b");
        assertThatThrownBy(() -> release.commit().join()).isInstanceOf(CompletionException.class)
                .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
        release.close();
    }

    @Test
    void aHandOffToTheHeadDoesNotConflictWithAnEnqueueBehindIt() {
        enqueue("b");
        Transaction release = db.createTransaction();
        assertThat(state.handOn(release, 1)).isEqualTo("b");
        enqueue("c");
        release.commit().join();
        release.close();
        assertThat(db.read(state.queue::names)).containsExactly("c");
    }
}
