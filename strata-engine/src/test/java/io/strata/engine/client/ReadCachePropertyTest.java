package io.strata.engine.client;

import static io.strata.engine.client.RywModelPropertyTest.ANCHORS;
import static io.strata.engine.client.RywModelPropertyTest.ATOMICS;
import static io.strata.engine.client.RywModelPropertyTest.KEYS;
import static io.strata.engine.client.RywModelPropertyTest.MAX_KEY;
import static io.strata.engine.client.RywModelPropertyTest.VALUES;
import static io.strata.engine.client.RywModelPropertyTest.applyAtomic;
import static io.strata.engine.client.RywModelPropertyTest.bytes;
import static io.strata.engine.client.RywModelPropertyTest.hex;
import static io.strata.engine.client.RywModelPropertyTest.show;
import static io.strata.engine.client.RywModelPropertyTest.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.client.RywModelPropertyTest.Mode;
import io.strata.engine.client.RywModelPropertyTest.Sel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The read cache against a model: random reads and writes in one transaction, with the clock
 * moved past the 5 s window now and then, and other transactions committing meanwhile. Every
 * read must give the model's answer (the database at the read version under the transaction's
 * own writes) when it succeeds, and after the window it must succeed exactly when the model
 * says the transaction already knows the answer, failing with {@code transaction_too_old}
 * (1007) otherwise.
 *
 * <p><b>What the model knows.</b> Every key the operations can name — the keys, the anchors,
 * the key right after each — is one of finitely many boundaries, so the key space falls into
 * elementary intervals between consecutive boundaries, and everything a read can look at is
 * a union of them. The model keeps, per elementary interval, whether the cache knows it and
 * whether own writes do (cleared, or a single key with a known value). A read looks at a
 * stretch — the key of a {@code get}, from a selector's key to the key it resolved to, from a
 * range's begin to its end or, when its limit stopped it, to its last row — and is answered
 * without the store when every interval of the stretch is known to the cache or, for reads
 * that see own writes, to them. A read of the store teaches the cache its stretch, except
 * inside a range it cleared in bulk (more than one key), which RYW never reads from storage.
 */
class ReadCachePropertyTest {
    private static final int TOO_OLD = 1007;

    /** Every key an operation, a row or a read's stretch can begin or end at, in order. */
    private static final String[] BOUNDS = boundaries();

    private static String[] boundaries() {
        TreeSet<String> all = new TreeSet<>();
        all.add("");
        all.add(MAX_KEY);
        for (String k : KEYS) {
            all.add(k);
            all.add(k + "\u0000");
        }
        for (String a : ANCHORS) {
            all.add(a);
            if (!a.equals(MAX_KEY)) {
                all.add(a + "\u0000");
            }
        }
        return all.toArray(new String[0]);
    }

    private static int bound(String key) {
        int i = Arrays.binarySearch(BOUNDS, key);
        if (i < 0) {
            throw new IllegalStateException("not a boundary: " + show(key));
        }
        return i;
    }

    sealed interface Op permits Write, Read, Expire, CommitElsewhere, Again {}

    sealed interface Write extends Op permits Set, Clear, ClearRange, Atomic {}

    record Set(String key, byte[] value) implements Write {
        @Override
        public String toString() {
            return "Set(" + show(key) + ", " + hex(value) + ")";
        }
    }

    record Clear(String key) implements Write {
        @Override
        public String toString() {
            return "Clear(" + show(key) + ")";
        }
    }

    record ClearRange(String begin, String end) implements Write {
        @Override
        public String toString() {
            return "ClearRange(" + show(begin) + ", " + show(end) + ")";
        }
    }

    record Atomic(MutationType type, String key, byte[] param) implements Write {
        @Override
        public String toString() {
            return type + "(" + show(key) + ", " + hex(param) + ")";
        }
    }

    sealed interface Read extends Op permits Get, GetKey, GetRange {
        boolean snapshot();
    }

    record Get(String key, boolean snapshot) implements Read {
        @Override
        public String toString() {
            return "Get(" + show(key) + (snapshot ? ", snapshot)" : ")");
        }
    }

    record GetKey(Sel sel, boolean snapshot) implements Read {
        @Override
        public String toString() {
            return "GetKey" + sel + (snapshot ? " snapshot" : "");
        }
    }

    record GetRange(Sel begin, Sel end, int limit, boolean reverse, boolean snapshot) implements Read {
        @Override
        public String toString() {
            return "GetRange[" + begin + ", " + end + ") limit " + limit + (reverse ? " reverse" : "") + (snapshot ? " snapshot" : "");
        }
    }

    /** The clock moves past the window: from now on a read of the store fails with 1007. */
    record Expire() implements Op {}

    /** The {@code n}-th read so far (modulo their number) once more: re-reading is what the cache is for. */
    record Again(int n) implements Op {}

    /** Another transaction changes a key; the transaction under test must not see it. */
    record CommitElsewhere(String key, byte[] value) implements Op {
        @Override
        public String toString() {
            return "CommitElsewhere(" + show(key) + ", " + hex(value) + ")";
        }
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<String> key = Arbitraries.of(KEYS);
        Arbitrary<byte[]> value = Arbitraries.of(VALUES);
        Arbitrary<Boolean> snapshot = Arbitraries.of(false, false, true);
        // Anchors between the keys and on them, so that selectors step over what reads learned.
        Arbitrary<String> anchor = Arbitraries.oneOf(Arbitraries.of(ANCHORS), Arbitraries.of(KEYS));
        Arbitrary<Sel> sel = Combinators.combine(anchor, Arbitraries.of(true, false), Arbitraries.integers().between(-2, 3))
                .as(Sel::new);
        Arbitrary<Sel> plain = anchor.map(a -> new Sel(a, false, 1));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(3, Combinators.combine(key, value).as(Set::new)),
                Tuple.of(1, key.map(Clear::new)),
                Tuple.of(2, Combinators.combine(Arbitraries.of(ANCHORS), Arbitraries.of(ANCHORS)).as(ClearRange::new)),
                Tuple.of(2, Combinators.combine(Arbitraries.of(ATOMICS), key, value).as(Atomic::new)),
                Tuple.of(5, Combinators.combine(key, snapshot).as(Get::new)),
                Tuple.of(4, Combinators.combine(sel, snapshot).as(GetKey::new)),
                Tuple.of(4, Combinators.combine(plain, plain, Arbitraries.of(0, 0, 1, 2, 3), Arbitraries.of(true, false), snapshot)
                        .as(GetRange::new)),
                Tuple.of(2, Combinators.combine(sel, sel, Arbitraries.of(0, 1, 2), Arbitraries.of(true, false), snapshot)
                        .as(GetRange::new)),
                Tuple.of(2, Arbitraries.just(new Expire())),
                Tuple.of(5, Arbitraries.integers().between(0, 40).map(Again::new)),
                Tuple.of(1, Combinators.combine(key, value).as(CommitElsewhere::new)));
        return op.list().ofMinSize(1).ofMaxSize(40);
    }

    /** One run's model: the snapshot, own writes, and what the cache and the writes know. */
    private static final class Model {
        final Mode mode;
        /** The database at the transaction's read version. */
        final TreeMap<String, byte[]> snapshot;
        /** The snapshot under own writes. */
        final TreeMap<String, byte[]> view;
        /** Per elementary interval {@code [BOUNDS[i], BOUNDS[i+1])}: known to the cache; cleared by own writes. */
        final boolean[] cached = new boolean[BOUNDS.length - 1];
        final boolean[] cleared = new boolean[BOUNDS.length - 1];
        /** Own writes per key: true when its value is known without the database, false when it depends on it. */
        final Map<String, Boolean> written = new TreeMap<>();

        Model(Mode mode, TreeMap<String, byte[]> committed) {
            this.mode = mode;
            this.snapshot = new TreeMap<>(committed);
            this.view = new TreeMap<>(committed);
        }

        void apply(Write w) {
            if (w instanceof Set s) {
                view.put(s.key(), s.value());
                written.put(s.key(), true);
            } else if (w instanceof Clear c) {
                view.remove(c.key());
                written.put(c.key(), true);
            } else if (w instanceof ClearRange c) {
                if (c.begin().compareTo(c.end()) < 0) {
                    view.subMap(c.begin(), c.end()).clear();
                    written.keySet().removeIf(k -> k.compareTo(c.begin()) >= 0 && k.compareTo(c.end()) < 0);
                    for (int i = bound(c.begin()); i < bound(c.end()); i++) {
                        cleared[i] = true;
                    }
                }
            } else if (w instanceof Atomic a) {
                byte[] next = applyAtomic(a.type(), view.get(a.key()), a.param());
                if (next == null) {
                    view.remove(a.key());
                } else {
                    view.put(a.key(), next);
                }
                boolean known = written.getOrDefault(a.key(), false) || cleared[bound(a.key())];
                written.put(a.key(), known);
            }
        }

        /** Whether a read sees own writes. */
        boolean seesWrites(boolean snapshotRead) {
            return mode == Mode.DEFAULT || mode == Mode.SNAPSHOT_RYW_DISABLED && !snapshotRead;
        }

        TreeMap<String, byte[]> seen(boolean snapshotRead) {
            return seesWrites(snapshotRead) ? view : snapshot;
        }

        /** Whether own writes answer the elementary interval {@code i} without the database. */
        boolean writesKnow(int i) {
            if (cleared[i]) {
                return true;
            }
            String k = BOUNDS[i];
            return BOUNDS[i + 1].equals(k + "\u0000") && written.getOrDefault(k, false);
        }

        boolean known(List<int[]> stretches, boolean withWrites) {
            if (stretches.isEmpty()) {
                return true; // looks at nothing (an empty range): answered without a read
            }
            if (mode == Mode.RYW_DISABLED) {
                return false; // no cache: every read goes to the store
            }
            for (int[] s : stretches) {
                for (int i = s[0]; i < s[1]; i++) {
                    if (!cached[i] && !(withWrites && writesKnow(i))) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** A read of the store teaches the cache its stretches, but not a bulk-cleared range it sees cleared. */
        void learn(List<int[]> stretches, boolean withWrites) {
            if (mode == Mode.RYW_DISABLED) {
                return;
            }
            for (int[] s : stretches) {
                for (int i = s[0]; i < s[1]; i++) {
                    if (!(withWrites && inBulkClear(i))) {
                        cached[i] = true;
                    }
                }
            }
        }

        private boolean inBulkClear(int i) {
            if (!cleared[i]) {
                return false;
            }
            int first = i;
            while (first > 0 && cleared[first - 1]) {
                first--;
            }
            int end = i + 1;
            while (end < cleared.length && cleared[end]) {
                end++;
            }
            return !BOUNDS[end].equals(BOUNDS[first] + "\u0000");
        }
    }

    // ------------------------------------------------------------------ what a read looks at

    private static int[] stretch(String begin, String end) {
        return new int[] {bound(begin), bound(end)};
    }

    private static String after(String key) {
        return key + "\u0000";
    }

    /** A selector resolved as the engine resolves it, with the stretch it walks over. */
    private record Resolved(String key, int[] stretch) {}

    private static Resolved resolve(TreeMap<String, byte[]> view, String key, boolean orEqual, int offset) {
        if (offset >= 1) {
            String from = orEqual ? after(key) : key;
            if (from.compareTo(MAX_KEY) >= 0) {
                return new Resolved(MAX_KEY, stretch(MAX_KEY, MAX_KEY));
            }
            int n = 0;
            for (String k : view.subMap(from, true, MAX_KEY, false).keySet()) {
                if (++n == offset) {
                    return new Resolved(k, stretch(from, after(k)));
                }
            }
            return new Resolved(MAX_KEY, stretch(from, MAX_KEY));
        }
        String upTo = orEqual ? after(key) : key;
        if (upTo.compareTo(MAX_KEY) > 0) {
            upTo = MAX_KEY;
        }
        int n = 0;
        for (String k : view.headMap(upTo, false).descendingKeySet()) {
            if (++n == 1 - offset) {
                return new Resolved(k, stretch(k, upTo));
            }
        }
        return new Resolved("", stretch("", upTo));
    }

    /** A range end: {@code firstGreaterOrEqual} stands for its key; anything else is resolved (after dropping orEqual). */
    private static Resolved rangeEnd(TreeMap<String, byte[]> view, Sel sel) {
        String key = sel.orEqual() ? after(sel.key()) : sel.key();
        if (sel.offset() == 1) {
            return new Resolved(key.compareTo(MAX_KEY) > 0 ? MAX_KEY : key, null);
        }
        return resolve(view, key, false, sel.offset());
    }

    /** The rows a range read returns, as {@code key=hex}, and the stretches it looks at. */
    private static List<String> range(TreeMap<String, byte[]> view, GetRange g, List<int[]> stretches) {
        List<String> rows = new ArrayList<>();
        String bk = g.begin().orEqual() ? after(g.begin().key()) : g.begin().key();
        String ek = g.end().orEqual() ? after(g.end().key()) : g.end().key();
        if (g.begin().offset() >= g.end().offset() && bk.compareTo(ek) >= 0) {
            return rows; // refused as empty before reading anything
        }
        Resolved b = rangeEnd(view, g.begin());
        Resolved e = rangeEnd(view, g.end());
        for (Resolved r : List.of(b, e)) {
            if (r.stretch() != null) {
                stretches.add(r.stretch());
            }
        }
        if (b.key().compareTo(e.key()) >= 0) {
            return rows;
        }
        List<String> keys = new ArrayList<>(view.subMap(b.key(), true, e.key(), false).keySet());
        if (g.reverse()) {
            Collections.reverse(keys);
        }
        boolean limited = g.limit() > 0 && keys.size() >= g.limit();
        if (limited) {
            keys = keys.subList(0, g.limit());
            String last = keys.get(keys.size() - 1);
            stretches.add(g.reverse() ? stretch(last, e.key()) : stretch(b.key(), after(last)));
        } else {
            stretches.add(stretch(b.key(), e.key()));
        }
        for (String k : keys) {
            rows.add(k + "=" + hex(view.get(k)));
        }
        return rows;
    }

    // ------------------------------------------------------------------ the property

    @Property(tries = 500)
    void readsAfterTheWindowSucceedExactlyWhenTheirAnswerIsKnown(@ForAll("operations") List<Op> ops, @ForAll Mode mode) {
        Fdb.FakeClock clock = new Fdb.FakeClock();
        try (Database db = Strata.builder().nanoTime(clock).inMemory()) {
            TreeMap<String, byte[]> committed = new TreeMap<>();
            db.run(tr -> {
                for (int i = 0; i < KEYS.length; i += 2) {
                    tr.set(bytes(KEYS[i]), VALUES[i % VALUES.length]);
                    committed.put(KEYS[i], VALUES[i % VALUES.length]);
                }
                return null;
            });
            try (Transaction tr = RywModelPropertyTest.begin(db, mode)) {
                tr.getReadVersion().join();
                Model model = new Model(mode, committed);
                boolean expired = false;
                List<Read> reads = new ArrayList<>();
                int step = 0;
                for (Op op : ops) {
                    if (op instanceof Again a) {
                        if (reads.isEmpty()) {
                            continue;
                        }
                        op = reads.get(a.n() % reads.size());
                    }
                    String where = "step " + step++ + ": " + op + (expired ? " (after the window)" : "");
                    if (op instanceof Write w) {
                        write(tr, w);
                        model.apply(w);
                    } else if (op instanceof Expire) {
                        clock.advance(Duration.ofSeconds(6));
                        expired = true;
                    } else if (op instanceof CommitElsewhere c) {
                        db.run(other -> {
                            other.set(bytes(c.key()), c.value());
                            return null;
                        });
                    } else if (op instanceof Read r) {
                        reads.add(r);
                        boolean withWrites = model.seesWrites(r.snapshot());
                        TreeMap<String, byte[]> seen = model.seen(r.snapshot());
                        List<int[]> stretches = new ArrayList<>();
                        Object expected = expect(r, seen, withWrites, model, stretches);
                        boolean known = model.known(stretches, withWrites);
                        ReadTransaction reader = r.snapshot() ? tr.snapshot() : tr;
                        Supplier<Object> read = () -> actual(reader, r);
                        if (expired && !known) {
                            assertThat(errorOf(read)).as(where + ": not known, so read from the store").isEqualTo(TOO_OLD);
                        } else {
                            assertThat(read.get()).as(where).isEqualTo(expected);
                            if (!known) {
                                model.learn(stretches, withWrites);
                            }
                        }
                    }
                }
            }
        }
    }

    private static void write(Transaction tr, Write w) {
        if (w instanceof Set s) {
            tr.set(bytes(s.key()), s.value());
        } else if (w instanceof Clear c) {
            tr.clear(bytes(c.key()));
        } else if (w instanceof ClearRange c) {
            if (c.begin().compareTo(c.end()) < 0) {
                tr.clear(bytes(c.begin()), bytes(c.end()));
            }
        } else if (w instanceof Atomic a) {
            tr.mutate(a.type(), bytes(a.key()), a.param());
        }
    }

    /** The model's answer to {@code r}, adding the stretches it looks at. */
    private static Object expect(Read r, TreeMap<String, byte[]> seen, boolean withWrites, Model model, List<int[]> stretches) {
        if (r instanceof Get g) {
            // Own writes that know the key answer it; otherwise it looks at the key.
            int i = bound(g.key());
            if (!(withWrites && model.writesKnow(i))) {
                stretches.add(new int[] {i, i + 1});
            }
            return hex(seen.get(g.key()));
        }
        if (r instanceof GetKey g) {
            Resolved res = resolve(seen, g.sel().key(), g.sel().orEqual(), g.sel().offset());
            stretches.add(res.stretch());
            return show(res.key());
        }
        return range(seen, (GetRange) r, stretches);
    }

    private static Object actual(ReadTransaction reader, Read r) {
        if (r instanceof Get g) {
            return hex(reader.get(bytes(g.key())).join());
        }
        if (r instanceof GetKey g) {
            return show(str(reader.getKey(g.sel().selector()).join()));
        }
        GetRange g = (GetRange) r;
        List<String> out = new ArrayList<>();
        for (KeyValue kv : reader.getRange(g.begin().selector(), g.end().selector(), g.limit(), g.reverse()).asList().join()) {
            out.add(str(kv.getKey()) + "=" + hex(kv.getValue()));
        }
        return out;
    }

    private static int errorOf(Supplier<Object> read) {
        Throwable t = catchThrowable(read::get);
        if (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        assertThat(t).as("expected the read to fail").isInstanceOf(FDBException.class);
        return ((FDBException) t).getCode();
    }
}
