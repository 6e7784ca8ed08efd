package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.engine.fault.FaultPolicy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cache never serves a mapping that is not committed, and stays bounded. */
class InternerCacheTest {
    private static final Subspace S = new Subspace(Tuple.from("cache"));

    private static StringInterner counterInterner(int cache) {
        return new StringInterner(S, SingleCounterAllocator::new, cache);
    }

    /**
     * A transaction interns "a" as ID 1 and never commits; the counter then gives ID 1 to
     * "b". Had the aborted mapping reached the cache, ID 1 would read back as "a".
     */
    @Test
    void aTransactionThatInternsAndFailsDoesNotPoisonTheCache() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = counterInterner(64);
            try (Transaction tr = db.createTransaction()) {
                assertThat(in.intern(tr, "a").join()).isEqualTo(1);
                assertThat(in.find(tr, "a").join()).isEqualTo(OptionalLong.of(1)); // its own write, not cached
                assertThat(in.lookupString(tr, 1).join()).contains("a");
            } // closed without committing
            assertThat(in.cacheSize()).isZero();
            assertThat(in.intern(db, "b").join()).isEqualTo(1);
            assertThat(in.lookupString(db, 1).join()).contains("b");
            assertThat(in.find(db, "a").join()).isEmpty();
        }
    }

    /** A transaction body that interns and then throws: db.run fails and nothing is cached. */
    @Test
    void aFailingBodyAfterInterningCachesNothing() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = counterInterner(64);
            assertThatThrownBy(() -> db.run(tr -> {
                in.intern(tr, "x").join();
                throw new IllegalStateException("caller gives up");
            })).hasRootCauseInstanceOf(IllegalStateException.class);
            assertThat(in.cacheSize()).isZero();
            assertThat(in.find(db, "x").join()).isEmpty();
            assertThat(in.lookup(db, 1).join()).isEmpty();
        }
    }

    /** Under 1020 and 1021 (committed or not), every cached answer equals the database's. */
    @Test
    void cachedAnswersMatchTheDatabaseUnderCommitFaults() {
        long seed = Long.getLong("strata.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " seed=" + seed);
        FaultPolicy faults = FaultPolicy.seeded(seed).notCommitted(0.1).unknownResultCommitted(0.1)
                .unknownResultNotCommitted(0.1).build();
        try (Database db = Strata.builder().faults(faults).inMemory()) {
            StringInterner cached = counterInterner(1024);
            StringInterner plain = counterInterner(0);
            List<long[]> results = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                results.add(cached.internAllStrings(db, List.of("k" + i, "k" + (i / 2), "k" + (i * 7 % 60))).join());
            }
            assertThat(cached.cacheSize()).isPositive();
            for (int i = 0; i < 60; i++) {
                OptionalLong id = plain.find(db, "k" + i).join();
                assertThat(cached.find(db, "k" + i).join()).isEqualTo(id);
                if (id.isPresent()) {
                    assertThat(cached.lookupString(db, id.getAsLong()).join()).isEqualTo(Optional.of("k" + i));
                }
            }
            InternerChecks.assertBijection(db, S, null, null);
        }
    }

    @Test
    void staysBounded() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = counterInterner(32);
            for (int i = 0; i < 300; i++) {
                in.intern(db, "s" + i).join();
                in.lookup(db, i + 1).join();
            }
            assertThat(in.cacheSize()).isLessThanOrEqualTo(32);
            assertThat(in.lookupString(db, 1).join()).contains("s0"); // evicted, read again
        }
    }

    @Test
    void returnedBytesAreCopiesSoCallersCannotAlterTheCache() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = counterInterner(64);
            byte[] s = "mutable".getBytes(StandardCharsets.UTF_8);
            long id = in.intern(db, s).join();
            s[0] = 'X';
            in.lookup(db, id).join().orElseThrow()[1] = 'Y';
            assertThat(in.lookupString(db, id).join()).contains("mutable");
            assertThat(in.find(db, "mutable").join()).isEqualTo(OptionalLong.of(id));
        }
    }

    @Test
    void negativeCapacityIsRejected() {
        assertThatThrownBy(() -> counterInterner(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Evictions racing with puts of the same strings from many threads: every hit is still true. */
    @Test
    void concurrentPutsAndEvictionsOnlyEverHoldTrueMappings() throws Exception {
        InternerCache cache = new InternerCache(8);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 20_000; i++) {
                        int n = i % 50;
                        byte[] s = ("s" + n).getBytes(StandardCharsets.UTF_8);
                        cache.put(s, n);
                        Long id = cache.id(s);
                        if (id != null && id != n) {
                            throw new AssertionError("s" + n + " -> " + id);
                        }
                        byte[] back = cache.string(n);
                        if (back != null && !new String(back, StandardCharsets.UTF_8).equals("s" + n)) {
                            throw new AssertionError(n + " -> " + new String(back, StandardCharsets.UTF_8));
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(errors).isEmpty();
        assertThat(cache.size()).isLessThanOrEqualTo(8 + 4);
    }

}
