package io.strata.engine.client;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.commit.CommitPipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionException;

import static io.strata.engine.client.Fdb.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store past its memory limit refuses commits that write with {@code storage_quota_exceeded}
 * (1225, not retried by {@code onError}), still commits clears (with up to 1 KiB of other
 * writes each) and still answers reads; once the cleared versions leave the 5-second window,
 * writes commit again.
 */
class MemoryLimitTest {
    /** The memory engine's limit; the disk engine's (a retryable refusal) is in {@code DiskStorageTest}. */
    @org.junit.jupiter.api.BeforeEach
    void memoryEngineOnly() {
        org.junit.jupiter.api.Assumptions.assumeFalse("ssd".equals(System.getProperty(io.strata.Strata.TEST_STORAGE_PROPERTY)));
    }

    private static final int VALUE = 10_000;
    private static final long LIMIT = 1 << 20;

    /** Writes 10 KB values under fresh keys until a commit is refused; the keys written. */
    private static int fillUntilRefused(Database db) {
        for (int i = 0; i < 1_000; i++) {
            int n = i;
            try {
                db.run(tr -> {
                    tr.set(b("k" + n), new byte[VALUE]);
                    return null;
                });
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOfSatisfying(FDBException.class, f -> {
                    assertThat(f.getCode()).isEqualTo(1225);
                    assertThat(f.getMessage()).contains("past its memory limit of 1.0 MiB");
                });
                return n;
            }
        }
        throw new AssertionError("a 1 MiB store took 10 MB");
    }

    @Test
    void writesPastTheLimitFailAndClearsStillCommit() {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        try (Database db = Strata.builder().nanoTime(clock).memoryLimit(LIMIT).inMemory()) {
            int written = fillUntilRefused(db);
            // About the limit's worth of values got in, no more than one commit past it.
            assertThat((long) written * VALUE).isBetween(LIMIT * 8 / 10, LIMIT + VALUE);
            byte[] first = db.read(tr -> tr.get(b("k0")).join());
            assertThat(first).hasSize(VALUE);
            // A transaction that clears commits, with a little bookkeeping; one that writes more does not.
            db.run(tr -> {
                tr.clear(b("k1"));
                tr.set(b("deleted"), new byte[1000]);
                return null;
            });
            assertThatThrownBy(() -> db.run(tr -> {
                tr.clear(b("k0"));
                tr.set(b("x"), new byte[2000]);
                return null;
            })).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1225));
            db.run(tr -> {
                tr.clear(b("k"), b("l"));
                return null;
            });
            byte[] cleared = db.read(tr -> tr.get(b("k0")).join());
            assertThat(cleared).isNull();
            // The cleared values still count while the window may read them.
            assertThatThrownBy(() -> db.run(tr -> {
                tr.set(b("x"), b("y"));
                return null;
            })).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
            clock.advance(Duration.ofSeconds(6));
            db.run(tr -> {
                tr.clear(b("nothing"));
                return null;
            });
            db.run(tr -> {
                tr.set(b("x"), b("y"));
                return null;
            });
            byte[] x = db.read(tr -> tr.get(b("x")).join());
            assertThat(x).isEqualTo(b("y"));
        }
    }

    @Test
    void aClearCountsUntilTheSettledVersionPassesIt() throws Exception {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        try (Database db = Strata.builder().nanoTime(clock).inMemory()) {
            CommitPipeline pipeline = ((EngineDatabase) db).engine().pipeline();
            db.run(tr -> {
                tr.set(b("big"), new byte[VALUE]);
                return null;
            });
            Transaction clear = db.createTransaction();
            clear.clear(b("big"));
            clear.commit().join();
            long cleared = clear.getCommittedVersion();
            clear.close();
            long holding = pipeline.storeBytes();
            assertThat(holding).isGreaterThan(VALUE);
            assertThat(pipeline.settledVersion()).isLessThan(cleared);
            // Once the window has passed the clear (and the catch-up has packed what left it), the bytes are gone.
            clock.advance(Duration.ofSeconds(6));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (pipeline.settledVersion() < cleared && System.nanoTime() < deadline) {
                db.run(tr -> {
                    tr.set(b("tick"), b("t"));
                    return null;
                });
                Thread.sleep(5);
            }
            assertThat(pipeline.settledVersion()).isGreaterThanOrEqualTo(cleared);
            // The value is gone; what is left is the tick key and the packed store's own leaf.
            assertThat(pipeline.storeBytes()).isLessThan(holding - VALUE + 1024);
        }
    }

    @Test
    void theRefusalIsNotRetried() {
        try (Database db = Strata.builder().memoryLimit(LIMIT).inMemory()) {
            fillUntilRefused(db);
            Transaction tr = db.createTransaction();
            tr.set(b("again"), b("v"));
            Throwable refused = tr.commit().handle((ok, e) -> e).join();
            assertThat(refused).isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1225));
            Throwable retried = tr.onError(refused).handle((ok, e) -> e).join();
            assertThat(retried).isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1225));
        }
    }

    @Test
    void aReopenedDatabaseCountsWhatItRecovered(@TempDir Path dir) {
        try (Database db = Strata.builder().memoryLimit(LIMIT).open(dir)) {
            fillUntilRefused(db);
        }
        // Packed, the recovered data takes less than it did across the window's structures.
        try (Database db = Strata.builder().memoryLimit(LIMIT * 9 / 10).open(dir)) {
            assertThatThrownBy(() -> db.run(tr -> {
                tr.set(b("more"), new byte[VALUE]);
                return null;
            })).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(FDBException.class, e -> assertThat(e.getCode()).isEqualTo(1225));
        }
        try (Database db = Strata.builder().memoryLimit(0).open(dir)) {
            db.run(tr -> {
                tr.set(b("more"), new byte[VALUE]);
                return null;
            });
        }
    }

    @Test
    void theDefaultIsAShareOfTheHeap() {
        try (Database db = Strata.inMemory()) {
            CommitPipeline pipeline = ((EngineDatabase) db).engine().pipeline();
            assertThat(pipeline.memoryLimit())
                    .isEqualTo((long) (Runtime.getRuntime().maxMemory() * CommitPipeline.DEFAULT_MEMORY_FRACTION));
        }
    }
}
