package io.strata.bench.sets;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import io.strata.bench.report.ChartLines;
import io.strata.bench.report.CsvLog;
import io.strata.bench.report.SvgLineChart;
import io.strata.layers.set.RoaringSet;
import io.strata.layers.set.SetAlgebra;
import io.strata.layers.set.SetOperation;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * {@code strata bench sets}: the {@link RoaringSet} layer's bulk load and its set algebra,
 * for each set size and {@link SetShape}.
 *
 * <h2>Workload</h2>
 * <ul>
 *   <li>{@code add-<shape>}: {@code N} members, in random order, added to an empty set in
 *       transactions of {@link #DEFAULT_BATCH} members ({@code RoaringSet.addAll(tr, long[])}:
 *       one read and one write per touched container), one transaction after the other.
 *       The time is the whole load; each repetition on a fresh in-memory engine.</li>
 *   <li>{@code and-, or-, andNot-, xor-<shape>}: two sets of {@code N} members each (drawn
 *       independently, so dense sets overlap by about a quarter), loaded first, untimed; then
 *       {@code SetAlgebra.compute} in a read-only transaction, from getting the read version
 *       to the finished {@code Roaring64Bitmap}. The four operations share one fresh engine
 *       per shape and size: they only read, so they cannot disturb each other. First one
 *       checked run and then untimed runs for up to the warm-up time (0.3 s by default) or 50
 *       runs (class loading and JIT: small sizes run first), then the repetitions.</li>
 * </ul>
 * Every result is checked against the same operation on in-memory {@code Roaring64Bitmap}s;
 * a mismatch stops the run. Reported: the <em>median</em> of the repetitions (the best
 * understates a shared machine, the mean is pulled by one GC pause).
 *
 * <h2>CSV ({@value #CSV_FILE})</h2>
 * Header {@value #CSV_HEADER}: operation ({@code and-dense} ...), members per set, median
 * milliseconds.
 *
 * <h2>Charts</h2>
 * {@value #ALGEBRA_SVG}: x = members (log), y = milliseconds, a line per operation, a panel
 * per shape. {@value #ADD_SVG}: x = members, y = members added per second, a line per shape.
 */
public final class SetsScenario {
    public static final String CSV_FILE = "sets.csv";
    public static final String CSV_HEADER = "operation,members,millis";
    public static final String ALGEBRA_SVG = "sets-algebra.svg";
    public static final String ADD_SVG = "sets-add.svg";
    /** Members per transaction of the load: about 10 ms of work, far inside 5 s and 10 MB even when sparse. */
    public static final int DEFAULT_BATCH = 10_000;
    /** The default warm-up of each operation: small sets are measured first, and would otherwise be timed with the JIT cold. */
    public static final Duration DEFAULT_WARMUP = Duration.ofMillis(300);
    /** At most this many warm-up runs: enough for the JIT, without spending the warm-up time on tiny sets. */
    private static final int WARMUP_RUNS = 50;
    private static final long SEED_A = 0x5e7_a11L;
    private static final long SEED_B = 0x5e7_b22L;
    private static final List<SetOperation> OPERATIONS =
            List.of(SetOperation.AND, SetOperation.OR, SetOperation.AND_NOT, SetOperation.XOR);

    private final List<Integer> sizes;
    private final List<SetShape> shapes;
    private final int repeat;
    private final int batch;
    private final Duration warmup;

    public SetsScenario(List<Integer> sizes, List<SetShape> shapes, int repeat, int batch, Duration warmup) {
        if (sizes.isEmpty() || shapes.isEmpty() || repeat < 1 || batch < 1 || warmup.isNegative()) {
            throw new IllegalArgumentException("need sizes, shapes, repeat >= 1, batch >= 1 and warmup >= 0");
        }
        this.warmup = warmup;
        this.sizes = List.copyOf(sizes);
        this.shapes = List.copyOf(shapes);
        this.repeat = repeat;
        this.batch = batch;
    }

    /** The name of {@code op} in the CSV: {@code and}, {@code or}, {@code andNot}, {@code xor}. */
    public static String name(SetOperation op) {
        return switch (op) {
            case AND -> "and";
            case OR -> "or";
            case AND_NOT -> "andNot";
            case XOR -> "xor";
        };
    }

    /** Runs every cell, handing each row to {@code onRow} and the CSV as it is measured; then the charts. */
    public List<SetsResult> run(Path outDir, Consumer<SetsResult> onRow) throws IOException {
        List<SetsResult> all;
        try (CsvLog<SetsResult> log = CsvLog.create(outDir, CSV_FILE, CSV_HEADER, SetsScenario::csvLine, onRow)) {
            for (SetShape shape : shapes) {
                for (int n : sizes) {
                    log.add(measureAdd(shape, n));
                    for (SetsResult r : measureAlgebra(shape, n)) {
                        log.add(r);
                    }
                }
            }
            all = log.results();
        }
        writeCharts(outDir, all);
        return all;
    }

    static String csvLine(SetsResult r) {
        return String.format(Locale.ROOT, "%s,%d,%.3f", r.operation(), r.members(), r.millis());
    }

    private SetsResult measureAdd(SetShape shape, int n) {
        long[] members = shape.members(n, SEED_A);
        double[] millis = new double[repeat];
        long loaded = 0;
        for (int i = 0; i < repeat; i++) {
            System.gc(); // the previous repetition's garbage is not this one's cost
            try (Database db = Strata.inMemory()) {
                RoaringSet set = new RoaringSet(new Subspace(Tuple.from("a")));
                long start = System.nanoTime();
                loaded = set.addAll(db, members, batch).join();
                millis[i] = (System.nanoTime() - start) / 1e6;
                check(loaded == n && set.cardinality(db).join() == n, "add-" + shape.label(), n);
            }
        }
        return new SetsResult("add-" + shape.label(), n, median(millis), loaded);
    }

    private List<SetsResult> measureAlgebra(SetShape shape, int n) {
        long[] a = shape.members(n, SEED_A);
        long[] b = shape.members(n, SEED_B);
        Roaring64Bitmap memA = Roaring64Bitmap.bitmapOf(a);
        Roaring64Bitmap memB = Roaring64Bitmap.bitmapOf(b);
        List<SetsResult> results = new ArrayList<>();
        System.gc();
        try (Database db = Strata.inMemory()) {
            RoaringSet setA = new RoaringSet(new Subspace(Tuple.from("a")));
            RoaringSet setB = new RoaringSet(new Subspace(Tuple.from("b")));
            setA.addAll(db, a, batch).join();
            setB.addAll(db, b, batch).join();
            List<RoaringSet> inputs = List.of(setA, setB);
            for (SetOperation op : OPERATIONS) {
                String name = name(op) + "-" + shape.label();
                Roaring64Bitmap expected = inMemory(op, memA, memB);
                check(SetAlgebra.compute(db, op, inputs).join().equals(expected), name, n);
                long warmUntil = System.nanoTime() + warmup.toNanos();
                for (int i = 0; i < WARMUP_RUNS && System.nanoTime() < warmUntil; i++) {
                    SetAlgebra.compute(db, op, inputs).join();
                }
                double[] millis = new double[repeat];
                for (int i = 0; i < repeat; i++) {
                    long start = System.nanoTime();
                    Roaring64Bitmap result = SetAlgebra.compute(db, op, inputs).join();
                    millis[i] = (System.nanoTime() - start) / 1e6;
                    check(result.getLongCardinality() == expected.getLongCardinality(), name, n);
                }
                results.add(new SetsResult(name, n, median(millis), expected.getLongCardinality()));
            }
        }
        return results;
    }

    private static Roaring64Bitmap inMemory(SetOperation op, Roaring64Bitmap a, Roaring64Bitmap b) {
        return switch (op) {
            case AND -> Roaring64Bitmap.and(a, b);
            case OR -> Roaring64Bitmap.or(a, b);
            case AND_NOT -> Roaring64Bitmap.andNot(a, b);
            case XOR -> Roaring64Bitmap.xor(a, b);
        };
    }

    private static void check(boolean ok, String operation, int n) {
        if (!ok) {
            throw new IllegalStateException(operation + " of " + n + " members gave a wrong result");
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** Writes the two charts of {@code results} to {@code outDir}. */
    public static void writeCharts(Path outDir, List<SetsResult> results) throws IOException {
        List<SvgLineChart.Panel> algebra = new ArrayList<>();
        List<SvgLineChart.Series> add = new ArrayList<>();
        for (String shape : SetShape.labels()) {
            List<SvgLineChart.Series> lines = new ArrayList<>();
            for (SetOperation op : OPERATIONS) {
                series(results, name(op) + "-" + shape, name(op), SetsResult::millis).ifPresent(lines::add);
            }
            if (!lines.isEmpty()) {
                algebra.add(new SvgLineChart.Panel(shape + " members", lines));
            }
            series(results, "add-" + shape, shape, r -> r.members() / (r.millis() / 1000)).ifPresent(add::add);
        }
        SvgLineChart.write(outDir.resolve(ALGEBRA_SVG), "Set algebra of two sets into a Roaring64Bitmap (median)",
                "members per set", "milliseconds", algebra);
        SvgLineChart.write(outDir.resolve(ADD_SVG), "Bulk add, " + DEFAULT_BATCH + " members per transaction (median)",
                "members loaded", "members added per second", List.of(new SvgLineChart.Panel("add", add)));
    }

    private static Optional<SvgLineChart.Series> series(List<SetsResult> results, String operation, String label,
                                                        ToDoubleFunction<SetsResult> metric) {
        List<SetsResult> line = results.stream().filter(r -> r.operation().equals(operation)).toList();
        return line.isEmpty() ? Optional.empty() : Optional.of(ChartLines.line(label, line, SetsResult::members, metric));
    }
}
