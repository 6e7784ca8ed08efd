package io.strata.engine.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which read conflict ranges the sequencer reports for a request that asked
 * ({@link CommitRequest#reportConflictingKeys()}), as FoundationDB's resolver reports them
 * ({@code ConflictBatch} in {@code fdbserver/SkipList.cpp}): every range that meets a write of an
 * earlier batch ({@code checkReadConflictRanges} checks each); failing that, only the first range
 * that meets a write accepted earlier in the same batch ({@code checkIntraBatchConflicts} stops
 * at the first, and skips transactions already conflicting).
 */
class ConflictReportTest {
    private VersionedStore store;
    private CommitPipeline pipeline;

    @BeforeEach
    void start() {
        store = new VersionedStore();
        pipeline = new CommitPipeline(store, new VersionClock(System::nanoTime, 1_000), new WatchRegistry(), Runnable::run,
                "report-test-sequencer");
    }

    @AfterEach
    void stop() {
        pipeline.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static CommitRequest writes(long readVersion, ConflictRanges reads, String... keys) {
        List<Mutation> mutations = new ArrayList<>();
        ConflictRanges writes = new ConflictRanges();
        for (String k : keys) {
            mutations.add(new Mutation(Mutation.SET_VALUE, b(k), b("v")));
            writes.addKey(b(k));
        }
        return new CommitRequest(readVersion, reads, writes, mutations);
    }

    /** Read conflict ranges {@code [k, k\0)} for each key, in order. */
    private static ConflictRanges reads(String... keys) {
        ConflictRanges r = new ConflictRanges();
        for (String k : keys) {
            r.addKey(b(k));
        }
        return r;
    }

    private static int[] reported(CommitRequest req) throws Exception {
        try {
            req.result().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return req.conflictingReadRanges();
        }
        throw new AssertionError("expected the request to fail");
    }

    /** Holds the sequencer so that the requests submitted until the returned latch opens form one batch. */
    private CountDownLatch holdSequencer() throws InterruptedException {
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
        return hold;
    }

    @Test
    void everyRangeMeetingAnEarlierBatchIsReported() throws Exception {
        long rv = pipeline.visibleVersion();
        CommitRequest w = writes(-1, new ConflictRanges(), "b", "d");
        pipeline.submit(w);
        w.result().get(10, TimeUnit.SECONDS);
        CommitRequest r = writes(rv, reads("a", "b", "c", "d"), "x").reportConflictingKeys();
        pipeline.submit(r);
        assertThat(reported(r)).containsExactly(1, 3);
    }

    @Test
    void withinABatchOnlyTheFirstConflictingRangeIsReported() throws Exception {
        long rv = pipeline.visibleVersion();
        CountDownLatch hold = holdSequencer();
        CommitRequest w = writes(-1, new ConflictRanges(), "b", "d");
        CommitRequest r = writes(rv, reads("a", "b", "c", "d"), "x").reportConflictingKeys();
        pipeline.submit(w);
        pipeline.submit(r);
        hold.countDown();
        assertThat(reported(r)).containsExactly(1);
    }

    @Test
    void historyConflictsHideConflictsWithinTheBatch() throws Exception {
        long rv = pipeline.visibleVersion();
        CommitRequest earlier = writes(-1, new ConflictRanges(), "d");
        pipeline.submit(earlier);
        earlier.result().get(10, TimeUnit.SECONDS);
        CountDownLatch hold = holdSequencer();
        CommitRequest w = writes(-1, new ConflictRanges(), "b");
        CommitRequest r = writes(rv, reads("a", "b", "c", "d"), "x").reportConflictingKeys();
        pipeline.submit(w);
        pipeline.submit(r);
        hold.countDown();
        assertThat(reported(r)).containsExactly(3);
    }

    @Test
    void requestsThatDoNotAskReportNothing() throws Exception {
        long rv = pipeline.visibleVersion();
        CommitRequest w = writes(-1, new ConflictRanges(), "b");
        pipeline.submit(w);
        w.result().get(10, TimeUnit.SECONDS);
        CommitRequest r = writes(rv, reads("b"), "x");
        pipeline.submit(r);
        assertThat(reported(r)).isNull();
    }

    @Test
    void countersCountCommitsConflictsAndMutations() throws Exception {
        CommitCounters c = pipeline.counters();
        long rv = pipeline.visibleVersion();
        CommitRequest w = writes(-1, new ConflictRanges(), "b", "cc");
        pipeline.submit(w);
        w.result().get(10, TimeUnit.SECONDS);
        CommitRequest r = writes(rv, reads("b"), "x");
        pipeline.submit(r);
        reported(r);
        assertThat(c.committed()).isEqualTo(1);
        assertThat(c.conflicted()).isEqualTo(1);
        assertThat(c.mutations()).isEqualTo(2);
        assertThat(c.mutationBytes()).isEqualTo(("b" + "v" + "cc" + "v").length());
    }
}
