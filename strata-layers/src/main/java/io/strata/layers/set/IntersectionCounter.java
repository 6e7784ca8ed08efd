package io.strata.layers.set;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import org.roaringbitmap.Container;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The cardinality of the intersection of several {@link RoaringSet}s, counting that can stop
 * as soon as it reaches a limit ({@link SetAlgebra#andCardinality}).
 *
 * <h2>How</h2>
 * The sets' counters are read first (one snapshot read each, together: they only choose
 * the driving set, which does not change the answer). The set with the fewest members drives: its containers are read in pages that grow
 * (16, 64, 256, then 1,024 containers), and for each container of a page the container of
 * the same high part in every other set is read by key, all of a page's reads in flight
 * together. A container's share of the count is RoaringBitmap's {@code andCardinality} of
 * the containers, so no result container is built. Counting stops after the page in which it
 * reaches the limit: with a small limit only the first page is read. Without a limit the
 * cost is one range read of the smallest set and a point read per container of it in each
 * other set: proportional to the smallest set's containers, never to the largest set.
 *
 * <h2>Reads</h2>
 * Through the transaction given: serializable or snapshot is the caller's choice, as for
 * {@link SetAlgebra#compute}. Serializably, the read conflict ranges cover exactly what the
 * count depends on: the driving set's containers up to the last one read
 * (a range read cut by its limit records its range up to the last key it returned) and each
 * container read by key. Operations on a set within one transaction must still be sequenced
 * (see {@link RoaringSet}).
 */
final class IntersectionCounter {
    private static final int FIRST_PAGE = 16;
    private static final int LAST_PAGE = 1024;

    private IntersectionCounter() {}

    /** See {@link SetAlgebra#andCardinality}. */
    static CompletableFuture<Long> count(ReadTransaction tr, List<RoaringSet> sets, long limit) {
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("set algebra needs at least one set");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be 0 (none) or positive: " + limit);
        }
        if (sets.size() == 1) {
            return sets.get(0).cardinality(tr).thenApply(n -> limit == 0 ? n : Math.min(n, limit));
        }
        // Snapshot reads: the counters only choose which set drives, which does not change the
        // answer, so a concurrent change of a counter need not conflict with the count.
        List<CompletableFuture<Long>> cardinalities = new ArrayList<>();
        for (RoaringSet s : sets) {
            cardinalities.add(s.cardinality(tr.snapshot()));
        }
        return CompletableFuture.allOf(cardinalities.toArray(CompletableFuture[]::new)).thenCompose(ignore -> {
            int driver = 0;
            for (int i = 1; i < sets.size(); i++) {
                if (cardinalities.get(i).join() < cardinalities.get(driver).join()) {
                    driver = i;
                }
            }
            // An empty set drives too: reading its empty range through tr is what makes the 0 hold.
            List<RoaringSet> probes = new ArrayList<>(sets);
            RoaringSet lead = probes.remove(driver);
            return page(tr, lead, probes, lead.containerRange().begin, FIRST_PAGE, 0, limit);
        });
    }

    /** Counts the page of up to {@code size} containers of {@code lead} from {@code begin} on, then the next. */
    private static CompletableFuture<Long> page(ReadTransaction tr, RoaringSet lead, List<RoaringSet> probes,
                                                byte[] begin, int size, long counted, long limit) {
        return tr.getRange(begin, lead.containerRange().end, size, false, StreamingMode.WANT_ALL).asList()
                .thenCompose(kvs -> {
                    List<CompletableFuture<byte[]>> others = new ArrayList<>(kvs.size() * probes.size());
                    for (KeyValue kv : kvs) {
                        long high = lead.high48(kv.getKey());
                        for (RoaringSet p : probes) {
                            others.add(tr.get(p.containerKey(high)));
                        }
                    }
                    return CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).thenCompose(ignore -> {
                        long total = counted;
                        for (int k = 0; k < kvs.size(); k++) {
                            total += intersect(kvs.get(k).getValue(), others, k * probes.size(), probes.size());
                        }
                        if (limit > 0 && total >= limit) {
                            return CompletableFuture.completedFuture(limit);
                        }
                        if (kvs.size() < size) {
                            return CompletableFuture.completedFuture(total);
                        }
                        byte[] next = ByteArrayUtil.join(kvs.get(kvs.size() - 1).getKey(), new byte[] {0});
                        return page(tr, lead, probes, next, Math.min(size * 4, LAST_PAGE), total, limit);
                    });
                });
    }

    /** The members of the lead container {@code value} that every probe container holds. */
    private static int intersect(byte[] value, List<CompletableFuture<byte[]>> others, int from, int count) {
        Container result = ContainerCodec.decode(value);
        for (int i = 0; i < count; i++) {
            byte[] other = others.get(from + i).join();
            if (other == null) {
                return 0;
            }
            Container c = ContainerCodec.decode(other);
            if (i == count - 1) {
                return result.andCardinality(c);
            }
            result = result.and(c);
            if (result.isEmpty()) {
                return 0;
            }
        }
        return result.getCardinality();
    }
}
