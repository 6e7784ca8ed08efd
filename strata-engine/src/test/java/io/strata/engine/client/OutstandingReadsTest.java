package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link OutstandingReads} against RYW's {@code reading} (an {@code AndFuture} whose
 * {@code getFuture()} is a {@code quorum} of every read added): which failure a commit reports
 * and when it may go on.
 */
class OutstandingReadsTest {
    private final OutstandingReads reads = new OutstandingReads();
    private final List<Throwable> outcome = new ArrayList<>();

    private static FDBException error(int code) {
        return new FDBException("test", code);
    }

    private void commit() {
        if (reads.awaitAll(outcome::add)) {
            outcome.add(null);
        }
    }

    private void finish(long ticket, Throwable error, boolean counts) {
        Runnable next = reads.finish(ticket, error, counts);
        if (next != null) {
            next.run();
        }
    }

    @Test
    void withNothingInFlightTheCommitGoesOnAtOnce() {
        commit();
        assertThat(outcome).containsExactly((Throwable) null);
    }

    @Test
    void amongReadsAlreadyFailedTheFirstIssuedWins() {
        // quorum() walks its futures in the order they were added and fails with the first error it meets.
        long slow = reads.start();
        reads.failedAtOnce(error(1036));
        finish(slow, error(1007), true);
        assertThat(((FDBException) reads.failure()).getCode()).isEqualTo(1007);
    }

    @Test
    void onceTheCommitWaitsTheFirstFailureInTimeWins() {
        long first = reads.start();
        long second = reads.start();
        commit();
        assertThat(outcome).isEmpty();
        finish(second, error(1009), true);
        assertThat(outcome).hasSize(1);
        assertThat(((FDBException) outcome.get(0)).getCode()).isEqualTo(1009);
        finish(first, error(1007), true);
        assertThat(outcome).hasSize(1);
    }

    @Test
    void theCommitGoesOnWhenTheLastReadSucceeds() {
        long a = reads.start();
        long b = reads.start();
        commit();
        finish(a, null, true);
        assertThat(outcome).isEmpty();
        finish(b, null, true);
        assertThat(outcome).containsExactly((Throwable) null);
    }

    @Test
    void whatTheCommitWaitsForWithoutFailingByDelaysItOnly() {
        // A watch's read (RYW adds a promise the watch always keeps) and the read version.
        long watchRead = reads.start();
        commit();
        finish(watchRead, error(1007), false);
        assertThat(outcome).containsExactly((Throwable) null);
        assertThat(reads.failure()).isNull();
    }
}
