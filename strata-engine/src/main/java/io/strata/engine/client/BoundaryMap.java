package io.strata.engine.client;

import com.apple.foundationdb.KeyValue;
import io.strata.engine.util.ByteKeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A union of key ranges shown as FoundationDB's special keys show one: the boundaries of a
 * coalesced map that is {@code "0"} everywhere except {@code "1"} on the ranges, each boundary a
 * key (under a prefix) whose value tells what holds from there on. FoundationDB builds such a
 * {@code CoalescedKeyRangeMap} for {@code \xff\xff/transaction/conflicting_keys/},
 * {@code read_conflict_range/} and {@code write_conflict_range/}
 * ({@code ConflictingKeysImpl}, {@code getReadConflictRangeIntersecting},
 * {@code getWriteConflictRangeIntersecting}); a read lists the boundaries that fall inside it.
 *
 * <p>Overlapping and touching ranges merge, as equal neighbours merge in a coalesced map, so
 * {@code [a, b)} and {@code [b, c)} show as {@code a: 1, c: 0}. The map's first range
 * (from {@code ""}) is never shown when it is {@code "0"}. Immutable.
 */
final class BoundaryMap {
    static final byte[] TRUE = "1".getBytes(StandardCharsets.US_ASCII);
    static final byte[] FALSE = "0".getBytes(StandardCharsets.US_ASCII);

    /** Merged ranges, ascending and disjoint, none touching the next: {@code begins[i], ends[i]}. */
    private final List<byte[]> begins;
    private final List<byte[]> ends;

    private BoundaryMap(List<byte[]> begins, List<byte[]> ends) {
        this.begins = begins;
        this.ends = ends;
    }

    /** The map with nothing set. */
    static BoundaryMap empty() {
        return new BoundaryMap(List.of(), List.of());
    }

    /** The union of {@code ranges}, each {@code {begin, end}}; empty and inverted ranges add nothing. */
    static BoundaryMap union(List<byte[][]> ranges) {
        List<byte[][]> sorted = new ArrayList<>();
        for (byte[][] r : ranges) {
            if (ByteKeys.compare(r[0], r[1]) < 0) {
                sorted.add(r);
            }
        }
        sorted.sort(Comparator.comparing((byte[][] r) -> r[0], ByteKeys.COMPARATOR));
        List<byte[]> begins = new ArrayList<>();
        List<byte[]> ends = new ArrayList<>();
        for (byte[][] r : sorted) {
            int last = ends.size() - 1;
            if (last >= 0 && ByteKeys.compare(r[0], ends.get(last)) <= 0) {
                ends.set(last, ByteKeys.max(ends.get(last), r[1]));
            } else {
                begins.add(r[0]);
                ends.add(r[1]);
            }
        }
        return new BoundaryMap(begins, ends);
    }

    boolean isEmpty() {
        return begins.isEmpty();
    }

    /** The merged ranges, each {@code {begin, end}}. */
    List<byte[][]> ranges() {
        List<byte[][]> out = new ArrayList<>(begins.size());
        for (int i = 0; i < begins.size(); i++) {
            out.add(new byte[][] {begins.get(i), ends.get(i)});
        }
        return out;
    }

    /**
     * The boundaries {@code prefix + b} with {@code from <= prefix + b < to}, ascending, each
     * valued {@code "1"} (a range begins) or {@code "0"} (it ends).
     */
    List<KeyValue> rows(byte[] prefix, byte[] from, byte[] to) {
        List<KeyValue> out = new ArrayList<>();
        for (int i = 0; i < begins.size(); i++) {
            add(out, ByteKeys.concat(prefix, begins.get(i)), TRUE, from, to);
            add(out, ByteKeys.concat(prefix, ends.get(i)), FALSE, from, to);
        }
        return out;
    }

    private static void add(List<KeyValue> out, byte[] key, byte[] value, byte[] from, byte[] to) {
        if (ByteKeys.compare(key, from) >= 0 && ByteKeys.compare(key, to) < 0) {
            out.add(new KeyValue(key, value));
        }
    }
}
