package io.strata.engine.store;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * What every {@link DiskStore} must do, checked the same way for each: a subclass names the
 * implementation ({@link #newStore}) and, if it has one, its exact size accounting
 * ({@link #approximateBytesIsExact}).
 *
 * <h2>What is checked</h2>
 * <ul>
 *   <li>{@link #randomBatchesMatchASortedMapModel}: random batches of puts, deletes and range
 *       deletes, applied to the store and to a {@link TreeMap} in unsigned byte order, in the
 *       order given; after every batch each read of the store (get of every key that can
 *       exist and of some that never do, full cursors both ways, cursors, {@code anyKeyIn} and
 *       {@code approximateBytes} over random bounds, {@code appliedVersion}) must equal the
 *       model's. Cursors opened along the way, partly read, are finished some batches later
 *       and must return the state they opened on. Half the runs write every batch through
 *       one {@link DiskStore.Batch}, cleared in between.
 *   <li>{@link #batchesOverThousandsOfKeysMatchASortedMapModel}: the same over up to 4,096
 *       more keys, put in runs of up to 2,000 and range-deleted in spans, so that a tree grows
 *       a few levels, splits, merges and shrinks.
 *   <li>{@link #cursorsKeepTheStateTheyOpenedOnWhileLaterBatchesChangeIt}: the same, spelled
 *       out by hand.
 *   <li>{@link #readersSeeWholeBatchesAndUntornValuesWhileOneThreadWrites}: one writer, two
 *       readers; every batch keeps invariants that only an atomic write and a consistent
 *       cursor can show whole.
 *   <li>{@link #returnedArraysAreTheCallersToChange}: no array a read returns is the store's.
 * </ul>
 *
 * <h2>Keys and values</h2>
 * Keys are every string of length 0 to 3 over {@code 0x00, 'a', 0xff}: 40 keys, so writes land
 * on each other; the empty key; keys that are prefixes of one another ({@code a},
 * {@code a\x00}); a byte that sorts last only when bytes compare unsigned. Values are 0 to 300
 * bytes, and one in twenty 5,000 to 100,000, drawn from a seed so a counterexample shrinks to
 * short ones. The second property adds {@code 'a'} followed by two bytes below {@link #WIDE}.
 *
 * <h2>Hooks</h2>
 * {@link #dispose} for what a store leaves behind, {@link #approximateBytesIsExact} for a store
 * that counts its bytes, {@link #afterBatch} for the implementation's own checks.
 *
 * <h2>Where the contract is read strictly</h2>
 * A range {@code [lo, hi)} with {@code lo >= hi} holds nothing: its cursors are empty both
 * ways, {@code anyKeyIn} is false, and an exact {@code approximateBytes} is 0. A range delete
 * with {@code begin >= end} deletes nothing, and the batch around it still applies.
 */
public abstract class DiskStoreContract {
    /** A new, empty store at version 0. */
    protected abstract DiskStore newStore() throws IOException;

    /** Closes {@code store} and frees whatever {@link #newStore} made for it (a directory). */
    protected void dispose(DiskStore store) throws IOException {
        store.close();
    }

    /**
     * Whether {@link DiskStore#approximateBytes} is the exact sum of key and value lengths of
     * the keys present in the range; if not, it is only checked to be non-negative.
     */
    protected boolean approximateBytesIsExact() {
        return false;
    }

    /**
     * Checks of the implementation's own, after each batch of the property: {@code keys} and
     * {@code dataBytes} (their key and value lengths) are what the store should now hold.
     */
    protected void afterBatch(DiskStore store, int keys, long dataBytes) {
    }

    // ---------------------------------------------------------------- keys, values, operations

    private static final byte[] EMPTY = {};
    private static final byte[] ALPHABET = {0x00, 'a', (byte) 0xff};
    /** Every key the property writes, in unsigned order. */
    static final byte[][] KEYS = keys();
    /** Above every key written. */
    static final byte[] END = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    /** Keys never written, between and beyond the written ones. */
    private static final byte[][] NEVER_WRITTEN = {
        {0x00, 0x00, 0x00, 0x00}, {'a', 'a', 'a', 'a'}, {'a', 0x00, (byte) 0xff, 'a'}, {'b'}, END};
    /** What gets read after each batch: every key that can exist, and some that never do. */
    private static final byte[][] PROBES = concat(KEYS, NEVER_WRITTEN);
    /** Range bounds: the keys and the never-written ones. */
    private static final byte[][] BOUNDS = PROBES;
    /**
     * Keys of the second property, {@code 'a'} and a two-byte number below this: enough for
     * trees of a few levels, and three of them ({@code a\x00\x00}, {@code a\x00a},
     * {@code a\x00\xff}) are keys of the first.
     */
    static final int WIDE = 4_096;

    static byte[] wide(int i) {
        return new byte[] {'a', (byte) (i >>> 8), (byte) i};
    }

    private static byte[][] keys() {
        List<byte[]> out = new ArrayList<>();
        out.add(EMPTY);
        List<byte[]> last = List.of(EMPTY);
        for (int length = 1; length <= 3; length++) {
            List<byte[]> next = new ArrayList<>();
            for (byte[] prefix : last) {
                for (byte b : ALPHABET) {
                    byte[] k = Arrays.copyOf(prefix, length);
                    k[length - 1] = b;
                    next.add(k);
                }
            }
            out.addAll(next);
            last = next;
        }
        out.sort(Arrays::compareUnsigned);
        return out.toArray(byte[][]::new);
    }

    private static byte[][] concat(byte[][] a, byte[][] b) {
        byte[][] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A value by its length and the seed of its bytes, so that it prints short and shrinks. */
    record Value(int length, int seed) {
        byte[] bytes() {
            byte[] v = new byte[length];
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + length);
            for (int i = 0; i < v.length; i += 8) {
                long r = random.nextLong();
                for (int j = i; j < Math.min(v.length, i + 8); j++) {
                    v[j] = (byte) (r >>> (8 * (j - i)));
                }
            }
            return v;
        }

        @Override
        public String toString() {
            return "value(" + length + "b#" + seed + ")";
        }
    }

    sealed interface Op permits Put, PutMany, Delete, DeleteRange {}

    record Put(byte[] key, Value value) implements Op {
        @Override
        public String toString() {
            return "put(" + show(key) + ", " + value + ")";
        }
    }

    /** Puts {@code wide(from)} to {@code wide(from + count - 1)} (those below {@link #WIDE}), values of one length, seeds from the value's. */
    record PutMany(int from, int count, Value value) implements Op {
        int end() {
            return Math.min(WIDE, from + count);
        }

        Value valueOf(int i) {
            return new Value(value.length(), value.seed() + i);
        }

        @Override
        public String toString() {
            return "putMany(" + show(wide(from)) + " and " + (end() - from - 1) + " after, " + value + ")";
        }
    }

    record Delete(byte[] key) implements Op {
        @Override
        public String toString() {
            return "delete(" + show(key) + ")";
        }
    }

    /** {@code begin <= end} always. */
    record DeleteRange(byte[] begin, byte[] end) implements Op {
        @Override
        public String toString() {
            return "deleteRange(" + show(begin) + ", " + show(end) + ")";
        }
    }

    record Bounds(byte[] lo, byte[] hi, boolean reverse) {
        @Override
        public String toString() {
            return (reverse ? "reverse[" : "[") + show(lo) + ", " + show(hi) + ")";
        }
    }

    /** A cursor opened after a batch, read {@code readFirst} entries, finished {@code finishAfter} batches later. */
    record Held(Bounds bounds, int readFirst, int finishAfter) {
        @Override
        public String toString() {
            return "hold " + bounds + " read " + readFirst + " finish after " + finishAfter;
        }
    }

    /** A batch at {@code versionGap} after the last one, then reads over {@code reads}, then cursors held. */
    record Step(List<Op> ops, int versionGap, List<Bounds> reads, List<Held> held) {
        @Override
        public String toString() {
            return "\n  +" + versionGap + " " + ops + (reads.isEmpty() ? "" : " reads " + reads) + (held.isEmpty() ? "" : " " + held);
        }
    }

    /** An entry compared by content and printed short; what every read is turned into. */
    record Kv(byte[] key, byte[] value) {
        static Kv of(Map.Entry<byte[], byte[]> e) {
            return new Kv(e.getKey(), e.getValue());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Kv other && Arrays.equals(key, other.key) && Arrays.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return show(key) + "=" + showValue(value);
        }
    }

    static String show(byte[] key) {
        StringBuilder s = new StringBuilder("\"");
        for (byte b : key) {
            if (b >= 0x21 && b < 0x7f && b != '"' && b != '\\') {
                s.append((char) b);
            } else {
                s.append(String.format("\\x%02x", b & 0xff));
            }
        }
        return s.append('"').toString();
    }

    static String showValue(byte[] value) {
        if (value == null) {
            return "absent";
        }
        if (value.length <= 12) {
            return "0x" + HexFormat.of().formatHex(value);
        }
        CRC32 crc = new CRC32();
        crc.update(value);
        return "<" + value.length + " bytes, crc " + Long.toHexString(crc.getValue()) + ">";
    }

    // ---------------------------------------------------------------- generators

    private static Arbitrary<Value> values(int smallAtMost) {
        return Arbitraries.frequencyOf(
                Tuple.of(19, Arbitraries.integers().between(0, smallAtMost)),
                Tuple.of(1, Arbitraries.integers().between(5_000, 100_000)))
                .flatMap(length -> Arbitraries.integers().between(0, 1_000).map(seed -> new Value(length, seed)));
    }

    private static Arbitrary<Op> deleteRanges(Arbitrary<byte[]> bound) {
        return Combinators.combine(bound, bound).as((a, b) ->
                Arrays.compareUnsigned(a, b) <= 0 ? new DeleteRange(a, b) : new DeleteRange(b, a));
    }

    /** The first property's: the 40 keys, so that every write lands on others. */
    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<byte[]> key = Arbitraries.of(KEYS);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(6, Combinators.combine(key, values(300)).as(Put::new)),
                Tuple.of(2, key.map(Delete::new)),
                Tuple.of(1, deleteRanges(Arbitraries.of(BOUNDS))));
        return histories(op, Arbitraries.of(BOUNDS));
    }

    /**
     * The second property's: runs of up to 2,000 puts over {@link #WIDE} keys, single writes,
     * and range deletes cutting through them, so that trees grow several levels and shrink.
     */
    @Provide
    Arbitrary<List<Step>> wideHistories() {
        Arbitrary<byte[]> wideKey = Arbitraries.integers().between(0, WIDE - 1).map(DiskStoreContract::wide);
        Arbitrary<byte[]> key = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.of(KEYS)), Tuple.of(3, wideKey));
        Arbitrary<byte[]> bound = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.of(BOUNDS)), Tuple.of(3, wideKey));
        Arbitrary<Op> putMany = Combinators.combine(
                Arbitraries.integers().between(0, WIDE - 1),
                Arbitraries.integers().between(1, 2_000),
                Arbitraries.integers().between(64, 300), // short values would pack a run into few leaves
                Arbitraries.integers().between(0, 1_000)).as((from, count, length, seed) -> new PutMany(from, count, new Value(length, seed)));
        // Mostly spans of up to 300 keys: between any two bounds, a range delete takes a third of the keys.
        Arbitrary<Op> span = Combinators.combine(Arbitraries.integers().between(0, WIDE - 1), Arbitraries.integers().between(0, 300))
                .as((from, length) -> new DeleteRange(wide(from), wide(Math.min(WIDE, from + length))));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(2, putMany),
                Tuple.of(4, Combinators.combine(key, values(300)).as(Put::new)),
                Tuple.of(2, key.map(Delete::new)),
                Tuple.of(2, span),
                Tuple.of(1, deleteRanges(bound)));
        return histories(op, bound);
    }

    private static Arbitrary<List<Step>> histories(Arbitrary<Op> op, Arbitrary<byte[]> bound) {
        Arbitrary<Boolean> reverse = Arbitraries.of(false, true);
        Arbitrary<Bounds> bounds = Arbitraries.frequencyOf(
                Tuple.of(9, Combinators.combine(bound, bound, reverse).as(Bounds::new)),
                Tuple.of(1, Combinators.combine(bound, reverse).as((b, r) -> new Bounds(b, b, r))));
        Arbitrary<Held> held = Combinators.combine(bounds, Arbitraries.integers().between(0, 5), Arbitraries.integers().between(1, 3))
                .as(Held::new);
        Arbitrary<Step> step = Combinators.combine(
                op.list().ofMaxSize(12),
                Arbitraries.integers().between(1, 1_000),
                bounds.list().ofMaxSize(4),
                held.list().ofMaxSize(2)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(8);
    }

    // ---------------------------------------------------------------- the model

    /** The store as it should be: a sorted map in unsigned byte order. */
    static final class Model {
        final TreeMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);

        void apply(Op op) {
            if (op instanceof Put p) {
                map.put(p.key(), p.value().bytes());
            } else if (op instanceof PutMany m) {
                for (int i = m.from(); i < m.end(); i++) {
                    map.put(wide(i), m.valueOf(i).bytes());
                }
            } else if (op instanceof Delete d) {
                map.remove(d.key());
            } else if (op instanceof DeleteRange r && Arrays.compareUnsigned(r.begin(), r.end()) < 0) {
                map.subMap(r.begin(), r.end()).clear();
            }
        }

        /** The entries of {@code [lo, hi)}, in the direction asked; none when {@code lo >= hi}. */
        List<Kv> range(byte[] lo, byte[] hi, boolean reverse) {
            if (Arrays.compareUnsigned(lo, hi) >= 0) {
                return List.of();
            }
            NavigableMap<byte[], byte[]> sub = map.subMap(lo, true, hi, false);
            List<Kv> out = new ArrayList<>();
            for (Map.Entry<byte[], byte[]> e : (reverse ? sub.descendingMap() : sub).entrySet()) {
                out.add(new Kv(e.getKey(), e.getValue()));
            }
            return out;
        }

        long bytes(byte[] lo, byte[] hi) {
            long n = 0;
            for (Kv kv : range(lo, hi, false)) {
                n += kv.key().length + kv.value().length;
            }
            return n;
        }
    }

    /** Adds {@code ops} to {@code batch} in order, checks its size, and writes it at {@code version}. */
    static void write(DiskStore store, DiskStore.Batch batch, List<Op> ops, long version) throws IOException {
        int size = 0;
        for (Op op : ops) {
            if (op instanceof Put p) {
                batch.put(p.key(), p.value().bytes());
            } else if (op instanceof PutMany m) {
                for (int i = m.from(); i < m.end(); i++) {
                    batch.put(wide(i), m.valueOf(i).bytes());
                    size++;
                }
                size--;
            } else if (op instanceof Delete d) {
                batch.delete(d.key());
            } else if (op instanceof DeleteRange r) {
                batch.deleteRange(r.begin(), r.end());
            }
            size++;
        }
        assertThat(batch.size()).as("size() of a batch of %s", ops).isEqualTo(size);
        store.write(batch, version);
    }

    static void write(DiskStore store, List<Op> ops, long version) throws IOException {
        try (DiskStore.Batch batch = store.newBatch()) {
            write(store, batch, ops, version);
        }
    }

    static List<Kv> read(DiskStore.Cursor cursor, int atMost) {
        List<Kv> out = new ArrayList<>();
        while (out.size() < atMost && cursor.hasNext()) {
            out.add(Kv.of(cursor.next()));
        }
        return out;
    }

    static List<Kv> read(DiskStore store, byte[] lo, byte[] hi, boolean reverse) {
        try (DiskStore.Cursor c = store.cursor(lo, hi, reverse)) {
            List<Kv> out = read(c, Integer.MAX_VALUE);
            assertThat(c.hasNext()).as("hasNext() after the last entry").isFalse();
            return out;
        }
    }

    /**
     * Overwrites arrays a read returned, once compared: a store that handed out its own would
     * then answer the next read with the scribble.
     */
    static void scribble(List<Kv> read) {
        for (Kv kv : read) {
            Arrays.fill(kv.key(), (byte) 0x5a);
            Arrays.fill(kv.value(), (byte) 0xa5);
        }
    }

    // ---------------------------------------------------------------- the property

    /** A cursor held across batches and what it must still return. */
    private record Open(Held held, DiskStore.Cursor cursor, List<Kv> rest, int finishAtStep, long openedAt) {}

    @Property(tries = 150)
    public void randomBatchesMatchASortedMapModel(@ForAll("histories") List<Step> history, @ForAll boolean reuseOneBatch)
            throws Exception {
        check(history, reuseOneBatch);
    }

    /** The same over thousands of keys: trees of several levels, split, merged and cut by range deletes. */
    @Property(tries = 40)
    public void batchesOverThousandsOfKeysMatchASortedMapModel(@ForAll("wideHistories") List<Step> history, @ForAll boolean reuseOneBatch)
            throws Exception {
        check(history, reuseOneBatch);
    }

    private void check(List<Step> history, boolean reuseOneBatch) throws Exception {
        DiskStore store = newStore();
        List<Open> open = new ArrayList<>();
        DiskStore.Batch reused = reuseOneBatch ? store.newBatch() : null;
        try {
            assertThat(store.appliedVersion()).as("appliedVersion() of a new store").isZero();
            Model model = new Model();
            long version = 0;
            for (int s = 0; s < history.size(); s++) {
                Step step = history.get(s);
                version += step.versionGap();
                if (reused != null) {
                    reused.clear();
                    assertThat(reused.size()).as("size() after clear()").isZero();
                    write(store, reused, step.ops(), version);
                } else {
                    write(store, step.ops(), version);
                }
                step.ops().forEach(model::apply);
                String after = "after batch " + s + " (version " + version + ")";
                assertThat(store.appliedVersion()).as("appliedVersion() " + after).isEqualTo(version);
                for (int i = 0; i < open.size(); i++) {
                    Open o = open.get(i);
                    if (o.finishAtStep() == s) {
                        List<Kv> rest = read(o.cursor(), Integer.MAX_VALUE);
                        o.cursor().close();
                        assertThat(rest).as("the rest of %s opened at version %d, finished %s", o.held(), o.openedAt(), after)
                                .containsExactlyElementsOf(o.rest());
                        scribble(rest);
                        open.remove(i--);
                    }
                }
                checkEverything(store, model, step.reads(), after);
                afterBatch(store, model.map.size(), model.bytes(EMPTY, END));
                for (Held h : step.held()) {
                    Bounds b = h.bounds();
                    List<Kv> expected = model.range(b.lo(), b.hi(), b.reverse());
                    DiskStore.Cursor c = store.cursor(b.lo(), b.hi(), b.reverse());
                    open.add(new Open(h, c, expected.subList(Math.min(h.readFirst(), expected.size()), expected.size()),
                            s + h.finishAfter(), version));
                    List<Kv> first = read(c, h.readFirst());
                    assertThat(first).as("the first %d of %s, opened %s", h.readFirst(), b, after)
                            .containsExactlyElementsOf(expected.subList(0, Math.min(h.readFirst(), expected.size())));
                    scribble(first);
                }
            }
            for (Open o : open) {
                List<Kv> rest = read(o.cursor(), Integer.MAX_VALUE);
                assertThat(rest).as("the rest of %s opened at version %d, finished after the last batch", o.held(), o.openedAt())
                        .containsExactlyElementsOf(o.rest());
            }
        } finally {
            for (Open o : open) {
                o.cursor().close();
            }
            if (reused != null) {
                reused.close();
            }
            dispose(store);
        }
    }

    /** Every read of {@code store} against {@code model}; {@code reads} adds bounded cursors, anyKeyIn and sizes. */
    private void checkEverything(DiskStore store, Model model, List<Bounds> reads, String when) {
        TreeSet<byte[]> probes = new TreeSet<>(Arrays::compareUnsigned);
        probes.addAll(Arrays.asList(PROBES));
        probes.addAll(model.map.keySet());
        for (int i = 0; i < WIDE; i += 61) {
            probes.add(wide(i)); // absent, unless the second property put them
        }
        for (byte[] k : probes) {
            byte[] got = store.get(k);
            byte[] want = model.map.get(k);
            assertThat(showValue(got)).as("get(%s) %s", show(k), when).isEqualTo(showValue(want));
            assertThat(got).as("get(%s) %s", show(k), when).isEqualTo(want);
            if (got != null) {
                Arrays.fill(got, (byte) 0xa5);
            }
        }
        for (boolean reverse : new boolean[] {false, true}) {
            List<Kv> all = read(store, EMPTY, END, reverse);
            assertThat(all).as("every entry%s %s", reverse ? ", reverse," : "", when)
                    .containsExactlyElementsOf(model.range(EMPTY, END, reverse));
            scribble(all);
        }
        for (Bounds b : reads) {
            List<Kv> got = read(store, b.lo(), b.hi(), b.reverse());
            assertThat(got).as("cursor %s %s", b, when).containsExactlyElementsOf(model.range(b.lo(), b.hi(), b.reverse()));
            scribble(got);
            boolean any = !model.range(b.lo(), b.hi(), false).isEmpty();
            assertThat(store.anyKeyIn(b.lo(), b.hi())).as("anyKeyIn%s %s", b, when).isEqualTo(any);
            long bytes = store.approximateBytes(b.lo(), b.hi());
            if (approximateBytesIsExact()) {
                assertThat(bytes).as("approximateBytes%s %s", b, when).isEqualTo(model.bytes(b.lo(), b.hi()));
            } else {
                assertThat(bytes).as("approximateBytes%s %s", b, when).isNotNegative();
            }
        }
        if (approximateBytesIsExact()) {
            assertThat(store.approximateBytes(EMPTY, END)).as("approximateBytes of everything %s", when)
                    .isEqualTo(model.bytes(EMPTY, END));
        }
    }

    // ---------------------------------------------------------------- by hand

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Op put(String key, int length, int seed) {
        return new Put(b(key), new Value(length, seed));
    }

    @Test
    public void aNewStoreIsEmptyAtVersionZero() throws Exception {
        DiskStore store = newStore();
        try {
            assertThat(store.appliedVersion()).isZero();
            assertThat(store.get(EMPTY)).isNull();
            assertThat(read(store, EMPTY, END, false)).isEmpty();
            assertThat(read(store, EMPTY, END, true)).isEmpty();
            assertThat(store.anyKeyIn(EMPTY, END)).isFalse();
            assertThat(store.approximateBytes(EMPTY, END)).isNotNegative();
        } finally {
            dispose(store);
        }
    }

    /** Puts, deletes and range deletes of one batch on the same keys: the last one given wins. */
    @Test
    public void operationsOfABatchApplyInTheOrderGiven() throws Exception {
        DiskStore store = newStore();
        try {
            List<Op> ops = List.of(
                    put("a", 1, 1), new Delete(b("a")), put("a", 2, 2),
                    put("b", 1, 3), new DeleteRange(b("b"), b("c")),
                    new DeleteRange(b("c"), b("d")), put("c", 3, 4),
                    put("d", 1, 5), put("d", 4, 6),
                    put("e", 1, 7), new Delete(b("e")));
            write(store, ops, 7);
            Model model = new Model();
            ops.forEach(model::apply);
            assertThat(read(store, EMPTY, END, false)).containsExactlyElementsOf(model.range(EMPTY, END, false));
            assertThat(store.get(b("a"))).isEqualTo(new Value(2, 2).bytes());
            assertThat(store.get(b("b"))).isNull();
            assertThat(store.get(b("c"))).isEqualTo(new Value(3, 4).bytes());
            assertThat(store.get(b("d"))).isEqualTo(new Value(4, 6).bytes());
            assertThat(store.get(b("e"))).isNull();
            assertThat(store.appliedVersion()).isEqualTo(7);
        } finally {
            dispose(store);
        }
    }

    /** The empty key, an empty value, and a range delete whose ends are equal. */
    @Test
    public void theEmptyKeyAnEmptyValueAndAnEmptyRangeDelete() throws Exception {
        DiskStore store = newStore();
        try {
            write(store, List.of(new Put(EMPTY, new Value(0, 0)), put("a", 0, 0)), 1);
            assertThat(store.get(EMPTY)).isNotNull().isEmpty();
            assertThat(store.get(b("a"))).isNotNull().isEmpty();
            assertThat(store.anyKeyIn(EMPTY, new byte[] {0})).isTrue();
            assertThat(read(store, EMPTY, b("a"), true)).containsExactly(new Kv(EMPTY, EMPTY));
            write(store, List.of(new DeleteRange(b("a"), b("a")), new DeleteRange(EMPTY, EMPTY)), 2);
            assertThat(read(store, EMPTY, END, false)).containsExactly(new Kv(EMPTY, EMPTY), new Kv(b("a"), EMPTY));
            write(store, List.of(new DeleteRange(EMPTY, b("a"))), 3);
            assertThat(read(store, EMPTY, END, false)).containsExactly(new Kv(b("a"), EMPTY));
            assertThat(store.get(EMPTY)).isNull();
        } finally {
            dispose(store);
        }
    }

    /** {@code lo > hi} is an empty range, whatever lies between the two. */
    @Test
    public void boundsTheWrongWayRoundHoldNothing() throws Exception {
        DiskStore store = newStore();
        try {
            write(store, List.of(put("a", 5, 1), put("b", 5, 2), put("c", 5, 3)), 1);
            for (boolean reverse : new boolean[] {false, true}) {
                assertThat(read(store, b("c"), b("a"), reverse)).as("reverse: %s", reverse).isEmpty();
                assertThat(read(store, b("b"), b("b"), reverse)).as("reverse: %s", reverse).isEmpty();
            }
            assertThat(store.anyKeyIn(b("c"), b("a"))).isFalse();
            assertThat(store.anyKeyIn(b("b"), b("b"))).isFalse();
            assertThat(store.approximateBytes(b("c"), b("a"))).isNotNegative();
            if (approximateBytesIsExact()) {
                assertThat(store.approximateBytes(b("c"), b("a"))).isZero();
                assertThat(store.approximateBytes(b("a"), b("c"))).isEqualTo(12);
            }
        } finally {
            dispose(store);
        }
    }

    /** A range delete the wrong way round deletes nothing; the rest of its batch, and later batches, apply. */
    @Test
    public void aRangeDeleteTheWrongWayRoundDeletesNothing() throws Exception {
        DiskStore store = newStore();
        try {
            write(store, List.of(put("a", 5, 1), put("b", 5, 2), put("c", 5, 3)), 1);
            try (DiskStore.Batch batch = store.newBatch()) {
                batch.deleteRange(b("c"), b("a"));
                batch.put(b("d"), b("4"));
                store.write(batch, 2);
            }
            write(store, List.of(put("e", 5, 5)), 3);
            assertThat(read(store, EMPTY, END, false)).extracting(e -> new String(e.key(), java.nio.charset.StandardCharsets.US_ASCII))
                    .containsExactly("a", "b", "c", "d", "e");
            assertThat(store.appliedVersion()).isEqualTo(3);
        } finally {
            dispose(store);
        }
    }

    @Test
    public void aClearedBatchKeepsNothingOfWhatItHeld() throws Exception {
        DiskStore store = newStore();
        try (DiskStore.Batch batch = store.newBatch()) {
            batch.put(b("x"), b("1"));
            batch.deleteRange(EMPTY, END);
            batch.clear();
            assertThat(batch.size()).isZero();
            write(store, batch, List.of(put("y", 3, 1)), 1);
            batch.clear();
            batch.put(b("z"), b("2"));
            store.write(batch, 2);
            assertThat(read(store, EMPTY, END, false))
                    .containsExactly(new Kv(b("y"), new Value(3, 1).bytes()), new Kv(b("z"), b("2")));
            assertThat(store.appliedVersion()).isEqualTo(2);
        } finally {
            dispose(store);
        }
    }

    /**
     * Cursors, forward and reverse, some partly read, opened before batches that overwrite,
     * delete and range-delete their keys, then put them all back: each returns the state it
     * opened on, and new reads the newest.
     */
    @Test
    public void cursorsKeepTheStateTheyOpenedOnWhileLaterBatchesChangeIt() throws Exception {
        DiskStore store = newStore();
        List<DiskStore.Cursor> cursors = new ArrayList<>();
        try {
            Model model = new Model();
            List<Op> one = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                one.add(put("k" + i, 10 + i, 1));
            }
            one.add(put("k45", 6_000, 1));
            write(store, one, 1);
            one.forEach(model::apply);

            record Seen(DiskStore.Cursor cursor, List<Kv> expected, List<Kv> first, String what) {}
            List<Seen> seen = new ArrayList<>();
            Object[][] opens = {
                {EMPTY, END, false, 3}, {EMPTY, END, true, 2}, {b("k2"), b("k7"), false, 0}, {b("k3"), b("k8"), true, 1},
                {b("k4"), b("k5"), false, 1}, {b("z"), END, false, 0}};
            for (Object[] o : opens) {
                byte[] lo = (byte[]) o[0];
                byte[] hi = (byte[]) o[1];
                boolean reverse = (Boolean) o[2];
                DiskStore.Cursor c = store.cursor(lo, hi, reverse);
                cursors.add(c);
                seen.add(new Seen(c, model.range(lo, hi, reverse), read(c, (Integer) o[3]),
                        new Bounds(lo, hi, reverse) + " opened at version 1"));
            }

            List<Op> two = List.of(put("k5", 20, 2), new Delete(b("k8")), new DeleteRange(b("k1"), b("k4")),
                    put("k3", 30, 2), put("k45", 7, 2), put("z", 5, 2));
            write(store, two, 2);
            two.forEach(model::apply);
            DiskStore.Cursor late = store.cursor(EMPTY, END, true);
            cursors.add(late);
            seen.add(new Seen(late, model.range(EMPTY, END, true), read(late, 4), "reverse, opened at version 2"));

            List<Op> three = List.of(new DeleteRange(EMPTY, END), put("k9", 40, 3));
            write(store, three, 3);
            three.forEach(model::apply);
            List<Op> four = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                four.add(put("k" + i, 50 + i, 4));
            }
            write(store, four, 4);
            four.forEach(model::apply);

            for (Seen s : seen) {
                List<Kv> all = new ArrayList<>(s.first());
                all.addAll(read(s.cursor(), Integer.MAX_VALUE));
                assertThat(all).as(s.what()).containsExactlyElementsOf(s.expected());
            }
            assertThat(read(store, EMPTY, END, false)).containsExactlyElementsOf(model.range(EMPTY, END, false));
            assertThat(store.get(b("k45"))).isNull();
            assertThat(store.get(b("k5"))).isEqualTo(new Value(55, 4).bytes());
        } finally {
            cursors.forEach(DiskStore.Cursor::close);
            dispose(store);
        }
    }

    /**
     * Arrays from get and from cursors, keys and values, short and long, changed by the
     * caller (a cursor's in the middle of its walk): the store, and the rest of the walk, do
     * not change.
     */
    @Test
    public void returnedArraysAreTheCallersToChange() throws Exception {
        DiskStore store = newStore();
        try {
            Model model = new Model();
            List<Op> ops = List.of(put("a", 3, 1), put("b", 300, 2), put("c", 40_000, 3), put("d", 0, 4), put("e", 9, 5));
            write(store, ops, 1);
            ops.forEach(model::apply);
            for (byte[] k : new byte[][] {b("a"), b("b"), b("c"), b("d")}) {
                byte[] v = store.get(k);
                Arrays.fill(v, (byte) 0x5a);
                assertThat(store.get(k)).as("get(%s) after the last one's array was changed", show(k)).isEqualTo(model.map.get(k));
            }
            for (boolean reverse : new boolean[] {false, true}) {
                List<Kv> walked = new ArrayList<>();
                try (DiskStore.Cursor c = store.cursor(EMPTY, END, reverse)) {
                    while (c.hasNext()) {
                        Map.Entry<byte[], byte[]> e = c.next();
                        walked.add(new Kv(e.getKey().clone(), e.getValue().clone()));
                        Arrays.fill(e.getKey(), (byte) 0x5a);
                        Arrays.fill(e.getValue(), (byte) 0xa5);
                    }
                }
                assertThat(walked).as("a walk that changed each entry it got, reverse: %s", reverse)
                        .containsExactlyElementsOf(model.range(EMPTY, END, reverse));
                assertThat(read(store, EMPTY, END, false)).containsExactlyElementsOf(model.range(EMPTY, END, false));
            }
        } finally {
            dispose(store);
        }
    }

    // ---------------------------------------------------------------- one writer, two readers

    private static final int COUNTERS = 16;
    private static final long TOTAL = COUNTERS * 1_000L;
    private static final int GROUP = 8;
    /** Batches the writer writes at least... */
    private static final int BATCHES = 3_000;
    /** ...and then more until the readers have walked this many cursors while batches landed... */
    private static final int OVERLAPPED = 300;
    /** ...or this long has passed: a fast store writes 3,000 batches before the readers start. */
    private static final long WRITING_NANOS = 2_000_000_000L;
    private static final byte[] MARKER = b("m");

    private static byte[] counter(int i) {
        return new byte[] {'c', (byte) i};
    }

    private static byte[] member(int i) {
        return new byte[] {'g', (byte) i};
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    /** A group value: the version, then {@code extra} bytes each computed from it and its place. */
    private static byte[] groupValue(long version, int extra) {
        byte[] v = new byte[8 + extra];
        ByteBuffer.wrap(v).putLong(version);
        for (int j = 8; j < v.length; j++) {
            v[j] = (byte) (version * 31 + j);
        }
        return v;
    }

    /** The version a group value was written at; fails if any byte is not that write's. */
    private static long versionOfWholeGroupValue(byte[] v, String what) {
        if (v.length < 8) {
            fail(what + ": a group value of " + v.length + " bytes");
        }
        long version = ByteBuffer.wrap(v).getLong();
        for (int j = 8; j < v.length; j++) {
            if (v[j] != (byte) (version * 31 + j)) {
                fail(what + ": torn group value of version " + version + " at byte " + j + " of " + v.length);
            }
        }
        return version;
    }

    /**
     * One writer applies at least {@value #BATCHES} batches, and more until the readers have
     * walked {@value #OVERLAPPED} cursors under which a batch landed (or 2 s have passed), while
     * two readers read; the seed of the batches and reads is printed. Each batch moves
     * amounts among {@value #COUNTERS} counters (8-byte values summing to {@value #TOTAL}),
     * rewrites or removes all {@value #GROUP} members of a group at once (each value long and
     * made of its version), and writes a marker: its version and whether the group is there.
     * The group is sometimes range-deleted and put back, or put and range-deleted, in the same
     * batch, so the order within a batch shows too. A reader's cursor, partly read while
     * batches land, must see: every counter, summing to the total; the group whole at the
     * marker's version, or absent as the marker says; a marker at least as new as
     * {@code appliedVersion()} read just before opening ({@link DiskRange} relies on that) and
     * as any cursor it opened before. Gets never return a torn value.
     */
    @Test
    @Timeout(60)
    public void readersSeeWholeBatchesAndUntornValuesWhileOneThreadWrites() throws Exception {
        long seed = System.nanoTime();
        System.out.println(getClass().getSimpleName() + ".readersSeeWholeBatchesAndUntornValuesWhileOneThreadWrites seed " + seed);
        DiskStore store = newStore();
        ExecutorService readers = Executors.newFixedThreadPool(2);
        AtomicBoolean done = new AtomicBoolean();
        try {
            Model model = new Model();
            long[] counters = new long[COUNTERS];
            try (DiskStore.Batch batch = store.newBatch()) {
                for (int i = 0; i < COUNTERS; i++) {
                    counters[i] = TOTAL / COUNTERS;
                    batch.put(counter(i), longBytes(counters[i]));
                    model.map.put(counter(i), longBytes(counters[i]));
                }
                byte[] g = groupValue(1, 100);
                for (int i = 0; i < GROUP; i++) {
                    batch.put(member(i), g);
                    model.map.put(member(i), g);
                }
                batch.put(MARKER, marker(1, true));
                model.map.put(MARKER, marker(1, true));
                store.write(batch, 1);
            }
            AtomicLong cursors = new AtomicLong();
            AtomicLong overlapped = new AtomicLong();
            List<Future<?>> reading = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                SplittableRandom random = new SplittableRandom(seed + r + 1);
                reading.add(readers.submit(() -> read(store, random, done, cursors, overlapped)));
            }
            SplittableRandom random = new SplittableRandom(seed);
            long version = 1;
            long deadline = System.nanoTime() + WRITING_NANOS;
            try (DiskStore.Batch batch = store.newBatch()) {
                while (version <= BATCHES
                        || overlapped.get() < OVERLAPPED && System.nanoTime() < deadline && !reading.stream().anyMatch(Future::isDone)) {
                    version++;
                    batch.clear();
                    fillBatch(batch, model, counters, version, random);
                    store.write(batch, version);
                    if (version % 1_000 == 0) {
                        store.makeDurable();
                    }
                }
            } finally {
                done.set(true);
            }
            for (Future<?> f : reading) {
                f.get(30, TimeUnit.SECONDS);
            }
            System.out.println(getClass().getSimpleName() + ": " + (version - 1) + " batches, " + cursors + " cursors checked, "
                    + overlapped + " of them while batches landed");
            assertThat(overlapped.get()).as("cursors read while batches landed (of %d)", cursors.get()).isGreaterThanOrEqualTo(OVERLAPPED / 4);
            assertThat(read(store, EMPTY, END, false)).containsExactlyElementsOf(model.range(EMPTY, END, false));
            assertThat(store.appliedVersion()).isEqualTo(version);
        } finally {
            done.set(true);
            readers.shutdown();
            if (readers.awaitTermination(30, TimeUnit.SECONDS)) {
                dispose(store);
            }
        }
    }

    private static byte[] marker(long version, boolean groupThere) {
        return ByteBuffer.allocate(9).putLong(version).put((byte) (groupThere ? 1 : 0)).array();
    }

    /** One batch of the writer, applied to {@code model} as it is added. */
    private static void fillBatch(DiskStore.Batch batch, Model model, long[] counters, long version, SplittableRandom random) {
        for (int t = random.nextInt(1, 4); t > 0; t--) {
            int from = random.nextInt(COUNTERS);
            int to = random.nextInt(COUNTERS);
            long amount = random.nextInt(-500, 500);
            counters[from] -= amount;
            counters[to] += amount;
            if (random.nextInt(4) == 0) {
                batch.delete(counter(from));
                model.map.remove(counter(from));
            }
            batch.put(counter(from), longBytes(counters[from]));
            model.map.put(counter(from), longBytes(counters[from]));
            batch.put(counter(to), longBytes(counters[to]));
            model.map.put(counter(to), longBytes(counters[to]));
        }
        byte[] g = groupValue(version, random.nextInt(0, 1_000));
        int how = random.nextInt(5);
        boolean there = how < 3;
        if (how == 1) {
            batch.deleteRange(member(0), member(GROUP));
            model.map.subMap(member(0), member(GROUP)).clear();
        }
        if (how <= 3) {
            for (int i = 0; i < GROUP; i++) {
                batch.put(member(i), g);
                model.map.put(member(i), g);
            }
        }
        if (how == 3) {
            batch.deleteRange(member(0), member(GROUP));
            model.map.subMap(member(0), member(GROUP)).clear();
        } else if (how == 4) {
            for (int i = 0; i < GROUP; i++) {
                batch.delete(member(i));
                model.map.remove(member(i));
            }
        }
        batch.put(MARKER, marker(version, there));
        model.map.put(MARKER, marker(version, there));
    }

    /**
     * A reader: cursors and gets until the writer is done. Counts the cursors it checked, and
     * those during whose walk {@code appliedVersion()} moved: a batch landed under them.
     */
    private static void read(DiskStore store, SplittableRandom random, AtomicBoolean done, AtomicLong cursors, AtomicLong overlapped) {
        long newest = 0;
        while (!done.get()) {
            long applied = store.appliedVersion();
            boolean reverse = random.nextBoolean();
            long sum = 0;
            int counted = 0;
            List<byte[]> group = new ArrayList<>();
            byte[] marker = null;
            byte[] last = null;
            try (DiskStore.Cursor c = store.cursor(EMPTY, END, reverse)) {
                int n = 0;
                while (c.hasNext()) {
                    Map.Entry<byte[], byte[]> e = c.next();
                    if (++n % 3 == 0) {
                        Thread.yield(); // let batches land while the cursor is half read
                    }
                    byte[] k = e.getKey();
                    if (last != null) {
                        int cmp = Arrays.compareUnsigned(last, k);
                        assertThat(reverse ? cmp > 0 : cmp < 0).as("keys in order: %s then %s", show(last), show(k)).isTrue();
                    }
                    last = k;
                    switch (k[0]) {
                        case 'c' -> {
                            assertThat(e.getValue()).as("counter %s", show(k)).hasSize(8);
                            sum += ByteBuffer.wrap(e.getValue()).getLong();
                            counted++;
                        }
                        case 'g' -> group.add(e.getValue());
                        case 'm' -> marker = e.getValue();
                        default -> fail("a key nobody wrote: " + show(k));
                    }
                }
            }
            cursors.incrementAndGet();
            if (store.appliedVersion() != applied) {
                overlapped.incrementAndGet();
            }
            assertThat(marker).as("the marker").isNotNull().hasSize(9);
            long version = ByteBuffer.wrap(marker).getLong();
            boolean groupThere = marker[8] == 1;
            String what = "a cursor at version " + version + " (appliedVersion() before opening: " + applied + ")";
            assertThat(version).as(what + ": not older than appliedVersion() before it opened").isGreaterThanOrEqualTo(applied);
            assertThat(version).as(what + ": not older than this reader's last cursor").isGreaterThanOrEqualTo(newest);
            newest = version;
            assertThat(counted).as(what + ": counters").isEqualTo(COUNTERS);
            assertThat(sum).as(what + ": the counters' sum").isEqualTo(TOTAL);
            if (groupThere) {
                assertThat(group).as(what + ": the group's members").hasSize(GROUP);
                for (byte[] v : group) {
                    assertThat(versionOfWholeGroupValue(v, what)).as(what + ": a member's version").isEqualTo(version);
                }
            } else {
                assertThat(group).as(what + ": the group, deleted").isEmpty();
            }
            for (int i = 0; i < 8; i++) {
                long before = store.appliedVersion();
                byte[] m = store.get(MARKER);
                assertThat(ByteBuffer.wrap(m).getLong()).as("get(marker) after appliedVersion() was %d", before)
                        .isGreaterThanOrEqualTo(before);
                byte[] v = store.get(member(random.nextInt(GROUP)));
                if (v != null) {
                    versionOfWholeGroupValue(v, "get of a group member");
                }
                assertThat(store.get(counter(random.nextInt(COUNTERS)))).as("get of a counter").hasSize(8);
            }
        }
    }
}
