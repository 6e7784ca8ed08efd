package io.strata.engine.commit;

import io.strata.engine.store.VersionedStore;
import io.strata.engine.version.VersionClock;
import io.strata.engine.watch.WatchRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who runs a commit's batch ({@link CommitPipeline}, "Who runs a batch"): the committer itself
 * when nobody else is running one and it may wait (in memory always; with a log only inside
 * {@link CommitPipeline#callerWaits}), else the sequencer thread — and in either case commits
 * sent one after another get increasing versions.
 */
class CommitLeadershipTest {
    private static final String SEQUENCER = "leadership-test-sequencer";

    private static CommitRequest set(String key) {
        ConflictRanges writes = new ConflictRanges();
        writes.addKey(key.getBytes(StandardCharsets.UTF_8));
        return new CommitRequest(-1, new ConflictRanges(), writes,
                List.of(new Mutation(Mutation.SET_VALUE, key.getBytes(StandardCharsets.UTF_8), new byte[] {1})));
    }

    /** A log that records which thread appended each batch. */
    private static final class ThreadRecordingLog implements BatchLog {
        final List<String> appenders = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void append(long version, List<Mutation> effects) {
            appenders.add(Thread.currentThread().getName());
        }

        @Override
        public void close() {
        }
    }

    private static CommitPipeline pipeline(BatchLog log) {
        return new CommitPipeline(new VersionedStore(), new VersionClock(System::nanoTime, 1_000), new WatchRegistry(),
                Runnable::run, log, SEQUENCER);
    }

    @Test
    void inMemoryAnUncontendedCommitIsCommittedBeforeSubmitReturns() {
        try (CommitPipeline pipeline = pipeline(null)) {
            long before = pipeline.visibleVersion();
            CommitRequest r = set("a");
            pipeline.submit(r);
            assertThat(r.result()).isDone();
            assertThat(r.result().join().version()).isGreaterThan(before);
            assertThat(pipeline.visibleVersion()).isEqualTo(r.result().join().version());
        }
    }

    @Test
    void withALogACommitNobodyWaitsForGoesToTheSequencerSoThatPipelinedCommitsShareFsyncs() throws Exception {
        ThreadRecordingLog log = new ThreadRecordingLog();
        try (CommitPipeline pipeline = pipeline(log)) {
            CommitRequest r = set("a");
            pipeline.submit(r);
            r.result().get(10, TimeUnit.SECONDS);
            assertThat(log.appenders).containsExactly(SEQUENCER);
        }
    }

    @Test
    void withALogACallerThatWaitsRunsItsOwnBatchFsyncIncluded() {
        ThreadRecordingLog log = new ThreadRecordingLog();
        try (CommitPipeline pipeline = pipeline(log)) {
            CommitRequest r = set("a");
            CommitPipeline.callerWaits(() -> {
                pipeline.submit(r);
                return null;
            });
            assertThat(r.result()).isDone();
            assertThat(log.appenders).containsExactly(Thread.currentThread().getName());
        }
    }

    @Test
    void aCommitThatFindsABatchRunningIsQueuedAndTheLeaderRunsQueuedRequestsBeforeItsOwn() throws Exception {
        try (CommitPipeline pipeline = pipeline(null)) {
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            pipeline.execute(() -> {
                running.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            CommitRequest queued = set("first");
            pipeline.submit(queued); // the sequencer holds the batch: this one waits in the queue
            assertThat(queued.result()).isNotDone();
            release.countDown();
            CommitRequest next = set("second");
            pipeline.submit(next);
            CommitResult a = queued.result().get(10, TimeUnit.SECONDS);
            CommitResult b = next.result().get(10, TimeUnit.SECONDS);
            assertThat(b.version() > a.version() || (b.version() == a.version() && b.batchOrder() > a.batchOrder()))
                    .as("sent first, committed first: %s then %s", a, b).isTrue();
        }
    }

    @Test
    void manyThreadsCommittingAtOnceAllCommitAndEveryBatchHasItsOwnVersion() throws Exception {
        ThreadRecordingLog log = new ThreadRecordingLog();
        try (CommitPipeline pipeline = pipeline(log)) {
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<List<Long>>> versions = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    versions.add(threads.submit(() -> {
                        List<Long> mine = new ArrayList<>();
                        for (int i = 0; i < 500; i++) {
                            CommitRequest r = set("k" + thread + "/" + i);
                            if (i % 2 == 0) {
                                CommitPipeline.callerWaits(() -> {
                                    pipeline.submit(r);
                                    return null;
                                });
                            } else {
                                pipeline.submit(r);
                            }
                            mine.add(r.result().get(10, TimeUnit.SECONDS).version());
                        }
                        return mine;
                    }));
                }
                for (Future<List<Long>> f : versions) {
                    List<Long> mine = f.get(60, TimeUnit.SECONDS);
                    assertThat(mine).as("one thread's commits, one after another").isSorted().doesNotHaveDuplicates();
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(log.appenders).contains(SEQUENCER);
            assertThat(log.appenders.size()).isLessThanOrEqualTo(8 * 500);
        }
    }
}
