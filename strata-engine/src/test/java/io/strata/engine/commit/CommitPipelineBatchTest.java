package io.strata.engine.commit;

import com.apple.foundationdb.FDBException;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Requests that reach the sequencer together are resolved and applied as one batch: the
 * sequencer hashes all of the batch's set keys before resolving any request, so a request
 * refused in the middle must not shift the hashes of the requests after it.
 */
class CommitPipelineBatchTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static CommitRequest sets(long readVersion, ConflictRanges reads, String... keys) {
        List<Mutation> mutations = new ArrayList<>();
        ConflictRanges writes = new ConflictRanges();
        for (String k : keys) {
            mutations.add(new Mutation(Mutation.SET_VALUE, b(k), b("value of " + k)));
            writes.addKey(b(k));
        }
        return new CommitRequest(readVersion, reads, writes, mutations);
    }

    @Test
    void aRefusedRequestInsideABatchLeavesTheOthersKeysFindable() throws Exception {
        VersionedStore store = new VersionedStore();
        VersionClock clock = new VersionClock(System::nanoTime, 1_000);
        try (CommitPipeline pipeline = new CommitPipeline(store, clock, new WatchRegistry(), Runnable::run, "test-sequencer")) {
            long before = pipeline.visibleVersion();
            CommitRequest writeX = sets(-1, new ConflictRanges(), "x");
            pipeline.submit(writeX);
            assertThat(writeX.result().get(10, TimeUnit.SECONDS).version()).isGreaterThan(before);

            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch held = new CountDownLatch(1);
            pipeline.execute(() -> {
                held.countDown();
                try {
                    hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();

            // Queued while the sequencer is held, so they are taken as one batch.
            CommitRequest accepted1 = sets(-1, new ConflictRanges(), "a1", "a2", "a3");
            CommitRequest refused = sets(before, ConflictRanges.ofKey(b("x")), "r1", "r2");
            CommitRequest accepted2 = sets(-1, new ConflictRanges(), "b1", "b2");
            pipeline.submit(accepted1);
            pipeline.submit(refused);
            pipeline.submit(accepted2);
            hold.countDown();

            long v1 = accepted1.result().get(10, TimeUnit.SECONDS).version();
            long v2 = accepted2.result().get(10, TimeUnit.SECONDS).version();
            assertThat(v2).as("one batch, one version").isEqualTo(v1);
            assertThatThrownBy(() -> refused.result().join())
                    .hasCauseInstanceOf(FDBException.class)
                    .cause().extracting(e -> ((FDBException) e).getCode()).isEqualTo(1020);

            for (String k : new String[] {"a1", "a2", "a3", "b1", "b2"}) {
                assertThat(store.get(b(k), v1)).as(k).isEqualTo(b("value of " + k));
            }
            assertThat(store.get(b("r1"), v1)).isNull();
            assertThat(store.get(b("r2"), v1)).isNull();
        }
    }
}
