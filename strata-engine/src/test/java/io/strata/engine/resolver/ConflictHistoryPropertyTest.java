package io.strata.engine.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Compares {@link ConflictHistory} against a brute-force model: the list of every
 * (begin, end, version) write ever made. Keys come from a tiny alphabet so ranges collide, nest
 * and touch often.
 */
class ConflictHistoryPropertyTest {

    sealed interface Op permits Write, Read, Prune {}

    /** Write [begin, end) at the current version plus versionStep. */
    record Write(byte[] begin, byte[] end, int versionStep) implements Op {
        @Override
        public String toString() {
            return "Write[" + hex(begin) + ", " + hex(end) + ") +" + versionStep;
        }
    }

    /** Read [begin, end); readVersion picked from the allowed window by rvPick. */
    record Read(byte[] begin, byte[] end, int rvPick) implements Op {
        @Override
        public String toString() {
            return "Read[" + hex(begin) + ", " + hex(end) + ") pick " + rvPick;
        }
    }

    /** Prune before a version picked between the last oldest version and current + 1. */
    record Prune(int pick) implements Op {}

    static String hex(byte[] b) {
        return b.length == 0 ? "''" : HexFormat.of().formatHex(b);
    }

    /** The brute-force model. */
    static final class Model {
        final List<byte[]> begins = new ArrayList<>();
        final List<byte[]> ends = new ArrayList<>();
        final List<Long> versions = new ArrayList<>();

        void add(byte[] b, byte[] e, long v) {
            if (Arrays.compareUnsigned(b, e) < 0) {
                begins.add(b);
                ends.add(e);
                versions.add(v);
            }
        }

        boolean conflicts(byte[] b, byte[] e, long rv) {
            if (Arrays.compareUnsigned(b, e) >= 0) {
                return false;
            }
            for (int i = 0; i < versions.size(); i++) {
                if (versions.get(i) > rv
                        && Arrays.compareUnsigned(b, ends.get(i)) < 0
                        && Arrays.compareUnsigned(begins.get(i), e) < 0) {
                    return true;
                }
            }
            return false;
        }

        long writesAtOrAfter(long version) {
            return versions.stream().filter(v -> v >= version).count();
        }
    }

    static final byte[] ALPHABET = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xff};

    static Arbitrary<byte[]> keys() {
        return Arbitraries.of((byte) 0x00, (byte) 0x01, (byte) 0x7f, (byte) 0x80, (byte) 0xff)
                .list()
                .ofMaxSize(3)
                .map(list -> {
                    byte[] b = new byte[list.size()];
                    for (int i = 0; i < b.length; i++) {
                        b[i] = list.get(i);
                    }
                    return b;
                });
    }

    /** A range: mostly ordered pairs, sometimes a point [k, k\0), sometimes empty or inverted. */
    static Arbitrary<byte[][]> ranges() {
        Arbitrary<byte[][]> pairs = Combinators.combine(keys(), keys()).as((a, b) -> {
            if (Arrays.compareUnsigned(a, b) > 0) {
                return new byte[][] {b, a};
            }
            return new byte[][] {a, b};
        });
        Arbitrary<byte[][]> points = keys().map(a -> new byte[][] {a, Arrays.copyOf(a, a.length + 1)});
        Arbitrary<byte[][]> raw = Combinators.combine(keys(), keys()).as((a, b) -> new byte[][] {a, b});
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, pairs), net.jqwik.api.Tuple.of(4, points), net.jqwik.api.Tuple.of(1, raw));
    }

    static Arbitrary<Op> ops() {
        Arbitrary<Op> write = Combinators.combine(ranges(), Arbitraries.integers().between(0, 2))
                .as((r, step) -> new Write(r[0], r[1], step));
        Arbitrary<Op> read = Combinators.combine(ranges(), Arbitraries.integers().between(0, 1000))
                .as((r, pick) -> new Read(r[0], r[1], pick));
        Arbitrary<Op> prune = Arbitraries.integers().between(0, 1000).map(Prune::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, write), net.jqwik.api.Tuple.of(6, read), net.jqwik.api.Tuple.of(1, prune));
    }

    @Provide
    Arbitrary<List<Op>> opSequences() {
        return ops().list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 1000)
    void agreesWithBruteForceModel(@ForAll("opSequences") List<Op> ops) {
        run(ops);
    }

    /** Longer sequences, fewer tries: exercises bigger histories and repeated pruning. */
    @Property(tries = 100)
    void agreesWithBruteForceModelOnLongSequences(
            @ForAll("longOpSequences") List<Op> ops) {
        run(ops);
    }

    @Provide
    Arbitrary<List<Op>> longOpSequences() {
        return ops().list().ofMinSize(200).ofMaxSize(1500);
    }

    private static void run(List<Op> ops) {
        ConflictHistory history = new ConflictHistory();
        Model model = new Model();
        long version = 1;
        long oldest = 0; // largest oldestVersion passed to pruneBefore so far
        for (Op op : ops) {
            if (op instanceof Write w) {
                version += w.versionStep();
                byte[] b = w.begin().clone();
                byte[] e = w.end().clone();
                history.addWrite(b, e, version);
                model.add(w.begin(), w.end(), version);
                assertThat(b).isEqualTo(w.begin());
                assertThat(e).isEqualTo(w.end());
            } else if (op instanceof Read r) {
                // allowed read versions: oldest - 1 .. version + 1
                long lo = Math.max(oldest - 1, 0);
                long rv = lo + r.rvPick() % (version + 2 - lo);
                assertThat(history.conflicts(r.begin(), r.end(), rv))
                        .as("conflicts(%s, %s, %d) after %s", hex(r.begin()), hex(r.end()), rv, ops)
                        .isEqualTo(model.conflicts(r.begin(), r.end(), rv));
            } else if (op instanceof Prune p) {
                long candidate = oldest + p.pick() % (version + 2 - oldest);
                history.pruneBefore(candidate);
                oldest = Math.max(oldest, candidate);
                // Memory is bounded by the writes still in the window: painting w intervals
                // leaves at most 2w-1 visible pieces, plus one end boundary per connected region.
                assertThat((long) history.size()).isLessThanOrEqualTo(3 * model.writesAtOrAfter(oldest));
            }
        }
        // Exhaustive final check over every short key range and every allowed read version.
        List<byte[]> all = allKeys();
        long lo = Math.max(oldest - 1, 0);
        long[] readVersions = {lo, lo + 1, (lo + version) / 2, version - 2, version - 1, version, version + 1};
        for (byte[] b : all) {
            for (byte[] e : all) {
                for (long rv : readVersions) {
                    if (rv < lo) {
                        continue;
                    }
                    if (history.conflicts(b, e, rv) != model.conflicts(b, e, rv)) {
                        throw new AssertionError("final check: conflicts(" + hex(b) + ", " + hex(e) + ", "
                                + rv + ") disagrees with model after " + ops);
                    }
                }
            }
        }
    }

    /** All keys over the alphabet of length 0..2 (31 keys). */
    private static List<byte[]> allKeys() {
        List<byte[]> out = new ArrayList<>();
        out.add(new byte[0]);
        for (byte a : ALPHABET) {
            out.add(new byte[] {a});
            for (byte b : ALPHABET) {
                out.add(new byte[] {a, b});
            }
        }
        return out;
    }
}
