package io.strata.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random single-threaded operation sequences against a model of read-your-writes: a
 * {@link TreeMap} of committed data and a copy that the open transaction's writes go to
 * directly. Every read of the engine — get, getKey with any selector, getRange forward and
 * reverse with limits, serializable or snapshot — must equal the same read of the model.
 *
 * <p>Each run picks a read-your-writes mode for all its transactions: the default,
 * {@code snapshot_ryw_disable} (snapshot reads see only committed data) or
 * {@code read_your_writes_disable} (every read does).
 *
 * <p>Keys come from a five-key alphabet (with {@code b\x00}, the key right after {@code b})
 * and values from a four-value pool, so sets, clears, ranges and atomic operations keep
 * landing on each other, and COMPARE_AND_CLEAR often matches.
 */
class RywModelPropertyTest {
    static final String[] KEYS = {"a", "b", "b\u0000", "c", "d"};
    /** Selector anchors: the keys, plus the two ends of the normal key space and a key between them. */
    static final String[] ANCHORS = {"", "a", "b", "b\u0000", "bb", "c", "d", "e", "\u00ff"};
    static final byte[][] VALUES = {{1}, {2}, {1, 0}, {(byte) 0xff, 1}};
    static final MutationType[] ATOMICS = {MutationType.ADD, MutationType.BIT_OR, MutationType.MAX,
            MutationType.APPEND_IF_FITS, MutationType.COMPARE_AND_CLEAR};
    static final String MAX_KEY = "\u00ff";

    sealed interface Op permits Set, Clear, ClearRange, Atomic, Get, GetKey, GetRange, Commit, Reset {}

    record Set(String key, byte[] value) implements Op {
        @Override
        public String toString() {
            return "Set(" + show(key) + ", " + hex(value) + ")";
        }
    }

    record Clear(String key) implements Op {
        @Override
        public String toString() {
            return "Clear(" + show(key) + ")";
        }
    }

    record ClearRange(String begin, String end) implements Op {
        @Override
        public String toString() {
            return "ClearRange(" + show(begin) + ", " + show(end) + ")";
        }
    }

    record Atomic(MutationType type, String key, byte[] param) implements Op {
        @Override
        public String toString() {
            return type + "(" + show(key) + ", " + hex(param) + ")";
        }
    }

    record Get(String key, boolean snapshot) implements Op {
        @Override
        public String toString() {
            return "Get(" + show(key) + (snapshot ? ", snapshot)" : ")");
        }
    }

    record Sel(String key, boolean orEqual, int offset) {
        KeySelector selector() {
            return new KeySelector(bytes(key), orEqual, offset);
        }

        @Override
        public String toString() {
            return "(" + show(key) + (orEqual ? ", <=, " : ", <, ") + offset + ")";
        }
    }

    record GetKey(Sel sel, boolean snapshot) implements Op {
        @Override
        public String toString() {
            return "GetKey" + sel + (snapshot ? " snapshot" : "");
        }
    }

    record GetRange(Sel begin, Sel end, int limit, boolean reverse, boolean snapshot) implements Op {
        @Override
        public String toString() {
            return "GetRange[" + begin + ", " + end + ") limit " + limit + (reverse ? " reverse" : "") + (snapshot ? " snapshot" : "");
        }
    }

    /** How the run's transactions treat their own writes. */
    enum Mode { DEFAULT, SNAPSHOT_RYW_DISABLED, RYW_DISABLED }

    record Commit() implements Op {}

    record Reset() implements Op {}

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String str(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    static String show(String key) {
        return "'" + key.replace("\u0000", "\\x00").replace("\u00ff", "\\xff") + "'";
    }

    static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }

    // ------------------------------------------------------------------ generators

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<String> key = Arbitraries.of(KEYS);
        Arbitrary<byte[]> value = Arbitraries.of(VALUES);
        Arbitrary<Boolean> snapshot = Arbitraries.of(false, false, true);
        Arbitrary<Sel> sel = Combinators.combine(Arbitraries.of(ANCHORS), Arbitraries.of(true, false), Arbitraries.integers().between(-2, 3))
                .as(Sel::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Combinators.combine(key, value).as(Set::new)),
                net.jqwik.api.Tuple.of(2, key.map(Clear::new)),
                net.jqwik.api.Tuple.of(2, Combinators.combine(Arbitraries.of(ANCHORS), Arbitraries.of(ANCHORS)).as(ClearRange::new)),
                net.jqwik.api.Tuple.of(4, Combinators.combine(Arbitraries.of(ATOMICS), key, value).as(Atomic::new)),
                net.jqwik.api.Tuple.of(4, Combinators.combine(key, snapshot).as(Get::new)),
                net.jqwik.api.Tuple.of(4, Combinators.combine(sel, snapshot).as(GetKey::new)),
                net.jqwik.api.Tuple.of(5, Combinators.combine(sel, sel, Arbitraries.of(0, 0, 1, 2, 3), Arbitraries.of(true, false), snapshot)
                        .as(GetRange::new)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Commit())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Reset())));
        return op.list().ofMinSize(1).ofMaxSize(40);
    }

    // ------------------------------------------------------------------ the model

    /** FoundationDB's atomic operations on the model's values, written independently of the engine's. */
    static byte[] applyAtomic(MutationType type, byte[] base, byte[] param) {
        switch (type) {
            case ADD: {
                byte[] out = new byte[param.length];
                int carry = 0;
                for (int i = 0; i < param.length; i++) {
                    int a = base != null && i < base.length ? base[i] & 0xff : 0;
                    int sum = a + (param[i] & 0xff) + carry;
                    out[i] = (byte) sum;
                    carry = sum >> 8;
                }
                return out;
            }
            case BIT_OR: {
                byte[] out = new byte[param.length];
                for (int i = 0; i < param.length; i++) {
                    int a = base != null && i < base.length ? base[i] & 0xff : 0;
                    out[i] = (byte) (a | (param[i] & 0xff));
                }
                return out;
            }
            case MAX: {
                if (base == null) {
                    return param;
                }
                byte[] fitted = Arrays.copyOf(base, param.length);
                for (int i = param.length - 1; i >= 0; i--) {
                    int a = fitted[i] & 0xff;
                    int p = param[i] & 0xff;
                    if (a != p) {
                        return a > p ? fitted : param;
                    }
                }
                return fitted;
            }
            case APPEND_IF_FITS: {
                byte[] a = base == null ? new byte[0] : base;
                if (a.length + param.length > 100_000) {
                    return a;
                }
                byte[] out = Arrays.copyOf(a, a.length + param.length);
                System.arraycopy(param, 0, out, a.length, param.length);
                return out;
            }
            case COMPARE_AND_CLEAR:
                return base != null && Arrays.equals(base, param) ? null : base;
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    static String resolve(TreeMap<String, byte[]> view, Sel sel) {
        List<String> keys = new ArrayList<>(view.keySet());
        int count = (sel.orEqual() ? view.headMap(sel.key(), true) : view.headMap(sel.key(), false)).size();
        int index = count - 1 + sel.offset();
        if (index < 0) {
            return "";
        }
        if (index >= keys.size()) {
            return MAX_KEY;
        }
        return keys.get(index);
    }

    static List<String> range(TreeMap<String, byte[]> view, GetRange op) {
        String b = resolve(view, op.begin());
        String e = resolve(view, op.end());
        List<String> rows = new ArrayList<>();
        if (b.compareTo(e) < 0) {
            for (Map.Entry<String, byte[]> kv : view.subMap(b, true, e, false).entrySet()) {
                rows.add(kv.getKey() + "=" + hex(kv.getValue()));
            }
        }
        if (op.reverse()) {
            java.util.Collections.reverse(rows);
        }
        return op.limit() > 0 && rows.size() > op.limit() ? rows.subList(0, op.limit()) : rows;
    }

    // ------------------------------------------------------------------ the property

    static Transaction begin(Database db, Mode mode) {
        Transaction tr = db.createTransaction();
        if (mode == Mode.SNAPSHOT_RYW_DISABLED) {
            tr.options().setSnapshotRywDisable();
        } else if (mode == Mode.RYW_DISABLED) {
            tr.options().setReadYourWritesDisable();
        }
        return tr;
    }

    @Property(tries = 200)
    void engineReadsMatchTheModel(@ForAll("operations") List<Op> ops, @ForAll Mode mode) {
        TreeMap<String, byte[]> committed = new TreeMap<>();
        TreeMap<String, byte[]> view = new TreeMap<>();
        try (Database db = Strata.inMemory()) {
            Transaction tr = begin(db, mode);
            try {
                int step = 0;
                for (Op op : ops) {
                    String where = "step " + step++ + ": " + op;
                    ReadTransaction reader;
                    boolean snapshotRead = op instanceof Get g && g.snapshot() || op instanceof GetKey k && k.snapshot()
                            || op instanceof GetRange r && r.snapshot();
                    // What this read must see: own writes, or only what was committed before the transaction.
                    TreeMap<String, byte[]> seen = mode == Mode.RYW_DISABLED || mode == Mode.SNAPSHOT_RYW_DISABLED && snapshotRead
                            ? committed : view;
                    if (op instanceof Set s) {
                        tr.set(bytes(s.key()), s.value());
                        view.put(s.key(), s.value());
                    } else if (op instanceof Clear c) {
                        tr.clear(bytes(c.key()));
                        view.remove(c.key());
                    } else if (op instanceof ClearRange c) {
                        if (c.begin().compareTo(c.end()) <= 0) {
                            tr.clear(bytes(c.begin()), bytes(c.end()));
                            view.subMap(c.begin(), c.end()).clear();
                        }
                    } else if (op instanceof Atomic a) {
                        tr.mutate(a.type(), bytes(a.key()), a.param());
                        byte[] next = applyAtomic(a.type(), view.get(a.key()), a.param());
                        if (next == null) {
                            view.remove(a.key());
                        } else {
                            view.put(a.key(), next);
                        }
                    } else if (op instanceof Get g) {
                        reader = g.snapshot() ? tr.snapshot() : tr;
                        byte[] actual = reader.get(bytes(g.key())).join();
                        assertThat(hex(actual)).as(where).isEqualTo(hex(seen.get(g.key())));
                    } else if (op instanceof GetKey g) {
                        reader = g.snapshot() ? tr.snapshot() : tr;
                        String actual = str(reader.getKey(g.sel().selector()).join());
                        assertThat(show(actual)).as(where).isEqualTo(show(resolve(seen, g.sel())));
                    } else if (op instanceof GetRange g) {
                        reader = g.snapshot() ? tr.snapshot() : tr;
                        List<KeyValue> rows = reader.getRange(g.begin().selector(), g.end().selector(), g.limit(), g.reverse())
                                .asList().join();
                        List<String> actual = new ArrayList<>();
                        for (KeyValue kv : rows) {
                            actual.add(str(kv.getKey()) + "=" + hex(kv.getValue()));
                        }
                        assertThat(actual).as(where).isEqualTo(range(seen, g));
                    } else if (op instanceof Commit) {
                        tr.commit().join();
                        tr.close();
                        tr = begin(db, mode);
                        committed = new TreeMap<>(view);
                    } else if (op instanceof Reset) {
                        tr.close();
                        tr = begin(db, mode);
                        view = new TreeMap<>(committed);
                    }
                }
            } finally {
                tr.close();
            }
        }
    }
}
