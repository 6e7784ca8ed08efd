package com.apple.foundationdb;

import com.apple.foundationdb.async.AsyncUtil;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** fdb-java's {@code FDB} contract, kept by Strata's own class. */
class FDBTest {
    @AfterEach
    void forget() {
        FreshApi.reset();
    }

    @Test
    void theApiVersionIsSelectedOnceWithFdbJavasRules() {
        FreshApi.reset();
        assertThat(FDB.isAPIVersionSelected()).isFalse();
        assertThatThrownBy(FDB::instance).isInstanceOfSatisfying(FDBException.class, e -> {
            assertThat(e.getCode()).isEqualTo(2200);
            assertThat(e.getMessage()).isEqualTo("API version is not set");
        });
        assertThatThrownBy(() -> FDB.selectAPIVersion(509)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API version not supported (minimum 510)");
        assertThatThrownBy(() -> FDB.selectAPIVersion(731)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("API version not supported (maximum 730)");
        assertThat(FDB.isAPIVersionSelected()).isFalse();

        FDB fdb = FDB.selectAPIVersion(710);
        assertThat(FDB.isAPIVersionSelected()).isTrue();
        assertThat(fdb.getAPIVersion()).isEqualTo(710);
        assertThat(FDB.instance()).isSameAs(fdb);
        assertThat(FDB.selectAPIVersion(710)).isSameAs(fdb);
        assertThatThrownBy(() -> FDB.selectAPIVersion(730)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("FoundationDB API already started at different version");
    }

    @Test
    void errorPredicatesNeedTheApiVersion() {
        FreshApi.reset();
        assertThatThrownBy(() -> new FDBException("x", 1020).isRetryable()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void errorPredicatesAnswerAsFoundationDb() {
        FreshApi.select(730);
        // code, retryable, maybe committed, retryable and not committed
        int[][] table = {
                {1007, 1, 0, 1}, {1009, 1, 0, 1}, {1020, 1, 0, 1}, {1021, 1, 1, 0}, {1039, 1, 1, 0},
                {1037, 1, 0, 1}, {1038, 1, 0, 1}, {1042, 1, 0, 1}, {1051, 1, 0, 1}, {1078, 1, 0, 1},
                {1213, 1, 0, 1}, {1223, 1, 0, 1},
                // errors the engine raises that no retry loop retries
                {1025, 0, 0, 0}, {1031, 0, 0, 0}, {1036, 0, 0, 0}, {1101, 0, 0, 0}, {1510, 0, 0, 0},
                {2000, 0, 0, 0}, {2004, 0, 0, 0}, {2005, 0, 0, 0}, {2006, 0, 0, 0}, {2007, 0, 0, 0},
                {2010, 0, 0, 0}, {2011, 0, 0, 0}, {2012, 0, 0, 0}, {2017, 0, 0, 0}, {2018, 0, 0, 0},
                {2020, 0, 0, 0}, {2021, 0, 0, 0}, {2023, 0, 0, 0}, {2101, 0, 0, 0}, {2102, 0, 0, 0},
                {2103, 0, 0, 0}, {2108, 0, 0, 0}, {2136, 0, 0, 0}, {0, 0, 0, 0}, {4000, 0, 0, 0}};
        for (int[] row : table) {
            FDBException e = new FDBException("e", row[0]);
            assertThat(new boolean[] {e.isRetryable(), e.isMaybeCommitted(), e.isRetryableNotCommitted()})
                    .as("predicates of %d", row[0])
                    .containsExactly(row[1] == 1, row[2] == 1, row[3] == 1);
        }
        assertThat(FDB.evalErrorPredicate(49999, 1020)).isFalse();
    }

    @Test
    void fdbJavasHelpersThatReachTheFdbClassWork() throws Exception {
        FreshApi.select(730);
        byte[] packed = Tuple.from("k", Versionstamp.incomplete(3)).packWithVersionstamp();
        // At API 520 and later the versionstamp's position is a four-byte little-endian suffix
        // (2, 'k', 0, then the versionstamp's type code 0x33 at 3: it starts at 4).
        assertThat(java.util.Arrays.copyOfRange(packed, packed.length - 4, packed.length)).containsExactly(4, 0, 0, 0);
        assertThat(AsyncUtil.applySafely(x -> CompletableFuture.completedFuture(x + 1), 41).get()).isEqualTo(42);
        AtomicReference<String> thread = new AtomicReference<>();
        AsyncUtil.whenAll(java.util.List.of(CompletableFuture.runAsync(() -> { }))).thenRunAsync(
                () -> thread.set(Thread.currentThread().getName()), FDB.DEFAULT_EXECUTOR).get(5, TimeUnit.SECONDS);
        assertThat(thread.get()).startsWith("fdb-java-");
    }

    @Test
    void theNetworkStartsOnceOccupiesOneTaskAndNeverRestarts() throws Exception {
        FDB fdb = FreshApi.select(730);
        ExecutorService network = Executors.newSingleThreadExecutor();
        try {
            fdb.startNetwork(network);
            fdb.startNetwork(network); // a second start does nothing
            CountDownLatch ran = new CountDownLatch(1);
            network.execute(ran::countDown);
            assertThat(ran.await(200, TimeUnit.MILLISECONDS)).as("the network holds its executor's only thread").isFalse();
            fdb.stopNetwork();
            assertThat(ran.await(5, TimeUnit.SECONDS)).as("stopping the network frees the thread").isTrue();
            assertThatThrownBy(() -> fdb.startNetwork(network)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("Network has been stopped and cannot be restarted");
            assertThatThrownBy(fdb::open).isInstanceOf(IllegalStateException.class);
            fdb.stopNetwork(); // stopping again does nothing
        } finally {
            network.shutdownNow();
        }
    }

    @Test
    void stoppingTheNetworkClosesTheDatabasesItOpened() {
        FDB fdb = FreshApi.select(730);
        System.setProperty("strata.database", "strata:memory:stop-test");
        try {
            Database db = fdb.open();
            db.run(tr -> {
                tr.set(new byte[] {1}, new byte[] {2});
                return null;
            });
            fdb.stopNetwork();
            assertThatThrownBy(db::createTransaction).isInstanceOf(IllegalStateException.class);
        } finally {
            System.clearProperty("strata.database");
        }
    }

    @Test
    void directBufferSettingsAreKept() {
        FDB fdb = FreshApi.select(730);
        assertThat(fdb.isDirectBufferQueriesEnabled()).isFalse();
        fdb.enableDirectBufferQuery(true);
        assertThat(fdb.isDirectBufferQueriesEnabled()).isTrue();
        fdb.resizeDirectBufferPool(4, 1 << 17);
        fdb.setUnclosedWarning(false);
        assertThat(fdb.warnOnUnclosed).isFalse();
        fdb.disableShutdownHook();
    }
}
