package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Packing of versionstamps into IDs, the per-transaction index limit, and replacement of unfit stamps. */
class VersionstampIdsTest {
    private static final Subspace S = new Subspace(Tuple.from("vs"));

    @Test
    void packingRoundTripsAndRejectsWhatDoesNotFit() {
        VersionstampIdAllocator v = new VersionstampIdAllocator(6, 10);
        long id = v.pack(123_456_789L, 63, 1023);
        assertThat(v.version(id)).isEqualTo(123_456_789L);
        assertThat(v.order(id)).isEqualTo(63);
        assertThat(v.index(id)).isEqualTo(1023);
        assertThat(v.fits(1L << 48, 0, 0)).isFalse();
        assertThat(v.fits((1L << 48) - 1, 63, 1023)).isTrue();
        assertThat(v.fits(5, 64, 0)).isFalse();
        assertThat(v.fits(5, 0, 1024)).isFalse();
    }

    @Test
    void moreNewStringsThanIndexesIsRejectedBeforeWriting() {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.withVersionstamps(S, new VersionstampIdAllocator(6, 2), 0);
            assertThatThrownBy(() -> in.internAllStrings(db, List.of("a", "b", "c", "d", "e")).join())
                    .hasRootCauseInstanceOf(IllegalArgumentException.class).hasStackTraceContaining("at most 4");
            assertThat(db.readAsync(tr -> tr.getRange(S.range()).asList()).join()).isEmpty();
            long[] ids = in.internAllStrings(db, List.of("a", "b", "c", "d", "a")).join(); // 4 new: fits
            assertThat(ids[4]).isEqualTo(ids[0]);
            assertThat(java.util.Arrays.copyOf(ids, 4)).doesNotHaveDuplicates();
        }
    }

    /**
     * A stored mapping whose stamp does not fit (written here by hand: batch order 5 under a
     * layout with one order bit) has no ID: find says absent, and interning the string
     * replaces the mapping whole, its old reverse key included.
     */
    @Test
    void anUnfitMappingIsNoIdAndIsReplaced() {
        try (Database db = Strata.inMemory()) {
            VersionstampIdAllocator layout = new VersionstampIdAllocator(1, 10);
            StringInterner in = StringInterner.withVersionstamps(S, layout, 0);
            InternerLayout keys = new InternerLayout(S);
            byte[] s = "orphan".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] stamp = {0, 0, 0, 0, 0, 0, 0, 9, 0, 5, 0, 0}; // version 9, batch order 5, index 0
            byte[] oldReverse = keys.stampedReverse(9, 5, 0);
            db.run(tr -> {
                tr.set(keys.forward(s), stamp);
                tr.set(oldReverse, s);
                return null;
            });
            assertThat(in.find(db, "orphan").join()).isEmpty();
            long id = in.intern(db, s).join();
            assertThat(in.lookupString(db, id).join()).contains("orphan");
            assertThat(in.find(db, "orphan").join()).isEqualTo(OptionalLong.of(id));
            assertThat(db.readAsync(tr -> tr.get(oldReverse)).join()).isNull();
            InternerChecks.assertBijection(db, S, layout, java.util.Map.of(java.nio.ByteBuffer.wrap(s), id));
        }
    }

    /**
     * With one batch-order bit, a commit that is third or later in its batch gets an unfit
     * stamp, and the Database-level intern replaces it. Three concurrent clients make shared
     * batches (an unfit stamp at most a third of the time, so 16 attempts always suffice);
     * every ID a client is told must round-trip.
     */
    @Test
    void unfitStampsAreNeverIdsAndAreReplaced() throws Exception {
        try (Database db = Strata.inMemory()) {
            StringInterner in = StringInterner.withVersionstamps(S, new VersionstampIdAllocator(1, 10), 0);
            int threads = 3;
            List<Thread> workers = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int me = t;
                workers.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 40; i++) {
                            String s = "t" + me + "-" + i;
                            long id = in.intern(db, s).join();
                            assertThat(in.lookupString(db, id).join()).contains(s);
                            assertThat(in.find(db, s).join()).isEqualTo(OptionalLong.of(id));
                        }
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (Thread w : workers) {
                w.join();
            }
            assertThat(errors).isEmpty();
            InternerChecks.assertBijection(db, S, new VersionstampIdAllocator(1, 10), null);
        }
    }
}
