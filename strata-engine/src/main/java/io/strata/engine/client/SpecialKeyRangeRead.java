package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One range read in the special key space, inside a boundary (its module, or the whole space
 * when relaxed), as FoundationDB's {@code getRangeAggregationActor} does it:
 * <ol>
 *   <li>each selector (already without {@code orEqual}) is normalised to a
 *       {@code firstGreaterOrEqual} by stepping over the rows of the registered ranges, away
 *       from its key in the direction of its offset ({@code normalizeKeySelectorActor},
 *       {@code moveKeySelectorOverRangeActor}); one that runs out of rows before the boundary's
 *       end is clamped to it;</li>
 *   <li>an inverted result, or one that starts at the boundary's end or ends at its begin, is
 *       empty;</li>
 *   <li>the registered ranges between the two keys are read in order (backwards for a reverse
 *       read) until the row limit, which sets {@code more} when reached.</li>
 * </ol>
 * Each registered range is read once per read, whole, and filtered: FoundationDB caches an
 * asynchronous range's whole answer for the same reason, so that resolving the selectors and
 * reading the rows agree.
 *
 * <p>Asynchronous where a range is (status, a read that waits for the transaction's reads);
 * the steps run on whichever thread completes them. Not shared between threads at once.
 */
final class SpecialKeyRangeRead {
    static final ReadView.Rows EMPTY = new ReadView.Rows(List.of(), false, false, false);

    private final TransactionSpecialKeys tx;
    private final byte[] boundaryBegin;
    private final byte[] boundaryEnd;
    private final Map<SpecialKeyImpl, CompletableFuture<List<KeyValue>>> rowsRead = new HashMap<>();

    SpecialKeyRangeRead(TransactionSpecialKeys tx, byte[] boundaryBegin, byte[] boundaryEnd) {
        this.tx = tx;
        this.boundaryBegin = boundaryBegin;
        this.boundaryEnd = boundaryEnd;
    }

    /** A selector being normalised: its key and offset, and the offset it ended with before clamping. */
    private static final class Sel {
        byte[] key;
        int offset;
        int actualOffset;

        Sel(KeySelector s) {
            key = s.getKey();
            offset = s.getOffset();
        }
    }

    CompletableFuture<ReadView.Rows> read(KeySelector begin, KeySelector end, int limit, boolean reverse) {
        Sel b = new Sel(begin);
        Sel e = new Sel(end);
        return normalize(b).thenCompose(v -> normalize(e)).thenCompose(v -> {
            if (b.actualOffset >= e.actualOffset && ByteKeys.compare(b.key, e.key) >= 0) {
                return CompletableFuture.completedFuture(EMPTY);
            }
            if (ByteKeys.compare(b.key, boundaryEnd) == 0 || ByteKeys.compare(e.key, boundaryBegin) == 0) {
                return CompletableFuture.completedFuture(EMPTY);
            }
            return collect(b.key, e.key, limit, reverse);
        });
    }

    // ---------------------------------------------------------------- selectors

    private CompletableFuture<Void> normalize(Sel s) {
        int segment = s.offset < 1 ? SpecialKeySpace.segmentContainingKeyBefore(s.key) : SpecialKeySpace.segmentContaining(s.key);
        return walk(s, segment).thenRun(() -> {
            s.actualOffset = s.offset;
            if (s.offset != 1) {
                s.key = s.offset < 1 ? boundaryBegin : boundaryEnd;
                s.offset = 1;
            }
        });
    }

    /** The loop of {@code normalizeKeySelectorActor}, from {@code segment} outwards while the selector still moves. */
    private CompletableFuture<Void> walk(Sel s, int segment) {
        while ((s.offset < 1 && ByteKeys.compare(SpecialKeySpace.segmentBegin(segment), boundaryBegin) >= 0)
                || (s.offset > 1 && ByteKeys.compare(SpecialKeySpace.segmentBegin(segment), boundaryEnd) < 0)) {
            SpecialKeyImpl impl = SpecialKeySpace.segmentImpl(segment);
            if (impl != null) {
                CompletableFuture<List<KeyValue>> rows = rowsOf(impl);
                if (!rows.isDone() || rows.isCompletedExceptionally()) {
                    int at = segment;
                    return rows.thenCompose(r -> {
                        moveOver(impl, s, r);
                        int next = step(s, at);
                        return next < 0 ? CompletableFuture.completedFuture(null) : walk(s, next);
                    });
                }
                moveOver(impl, s, rows.join());
            }
            segment = step(s, segment);
            if (segment < 0) {
                break;
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** The segment the selector visits next, by its offset after the move; -1 when it cannot go further left. */
    private static int step(Sel s, int segment) {
        if (s.offset < 1) {
            return segment == 0 ? -1 : segment - 1;
        }
        return s.offset > 1 ? segment + 1 : segment;
    }

    /** {@code moveKeySelectorOverRangeActor}: steps the selector over the range's rows on its side of its key. */
    private static void moveOver(SpecialKeyImpl impl, Sel s, List<KeyValue> all) {
        byte[] from = impl.begin();
        byte[] to = impl.end();
        if (s.offset < 1) {
            if (impl.contains(s.key)) {
                to = s.key;
            }
        } else if (impl.contains(s.key)) {
            from = s.key;
        }
        List<KeyValue> rows = slice(all, from, to);
        if (rows.isEmpty()) {
            return;
        }
        int n = rows.size();
        if (s.offset < 1) {
            if (n >= 1 - s.offset) {
                s.key = rows.get(n - (1 - s.offset)).getKey();
                s.offset = 1;
            } else {
                s.key = rows.get(0).getKey();
                s.offset += n;
            }
        } else if (n >= s.offset) {
            s.key = rows.get(s.offset - 1).getKey();
            s.offset = 1;
        } else {
            s.key = ByteKeys.keyAfter(rows.get(n - 1).getKey());
            s.offset -= n;
        }
    }

    // ---------------------------------------------------------------- rows

    /** Reads the registered ranges meeting {@code [from, to)} in order, up to {@code limit} rows. */
    private CompletableFuture<ReadView.Rows> collect(byte[] from, byte[] to, int limit, boolean reverse) {
        if (ByteKeys.compare(from, to) >= 0) {
            return CompletableFuture.completedFuture(EMPTY);
        }
        List<SpecialKeyImpl> impls = new ArrayList<>();
        int first = SpecialKeySpace.segmentContaining(from);
        int last = SpecialKeySpace.segmentContainingKeyBefore(to);
        for (int i = first; i <= last && i < SpecialKeySpace.segmentCount(); i++) {
            SpecialKeyImpl impl = SpecialKeySpace.segmentImpl(i);
            if (impl != null) {
                impls.add(impl);
            }
        }
        if (reverse) {
            java.util.Collections.reverse(impls);
        }
        List<KeyValue> out = new ArrayList<>();
        return collect(impls, 0, from, to, limit, reverse, out);
    }

    private CompletableFuture<ReadView.Rows> collect(List<SpecialKeyImpl> impls, int index, byte[] from, byte[] to,
                                                     int limit, boolean reverse, List<KeyValue> out) {
        for (int i = index; i < impls.size(); i++) {
            SpecialKeyImpl impl = impls.get(i);
            CompletableFuture<List<KeyValue>> rows = rowsOf(impl);
            if (!rows.isDone() || rows.isCompletedExceptionally()) {
                int at = i;
                return rows.thenCompose(r -> add(impl, r, from, to, limit, reverse, out)
                        ? CompletableFuture.completedFuture(new ReadView.Rows(out, true, false, false))
                        : collect(impls, at + 1, from, to, limit, reverse, out));
            }
            if (add(impl, rows.join(), from, to, limit, reverse, out)) {
                return CompletableFuture.completedFuture(new ReadView.Rows(out, true, false, false));
            }
        }
        return CompletableFuture.completedFuture(new ReadView.Rows(out, false, false, false));
    }

    /** Adds the range's rows inside {@code [from, to)}; true when the limit was reached. */
    private static boolean add(SpecialKeyImpl impl, List<KeyValue> all, byte[] from, byte[] to, int limit, boolean reverse,
                               List<KeyValue> out) {
        List<KeyValue> rows = slice(all, ByteKeys.max(from, impl.begin()), ByteKeys.min(to, impl.end()));
        for (int j = 0; j < rows.size(); j++) {
            out.add(rows.get(reverse ? rows.size() - 1 - j : j));
            if (limit > 0 && out.size() == limit) {
                return true;
            }
        }
        return false;
    }

    private CompletableFuture<List<KeyValue>> rowsOf(SpecialKeyImpl impl) {
        return rowsRead.computeIfAbsent(impl, i -> {
            try {
                return i.rows().apply(tx);
            } catch (RuntimeException ex) {
                return CompletableFuture.failedFuture(ex);
            }
        });
    }

    private static List<KeyValue> slice(List<KeyValue> rows, byte[] from, byte[] to) {
        List<KeyValue> out = new ArrayList<>();
        for (KeyValue kv : rows) {
            if (ByteKeys.compare(kv.getKey(), from) >= 0 && ByteKeys.compare(kv.getKey(), to) < 0) {
                out.add(kv);
            }
        }
        return out;
    }
}
