package io.strata.layers.set;

import com.apple.foundationdb.ReadTransaction;
import org.roaringbitmap.Container;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Members of a {@link RoaringSet} by rank (their position in unsigned order), for
 * {@link RoaringSet#select}: what uniform random picks need.
 *
 * <p>One range read of the containers; each container's cardinality is read from its bytes
 * without decoding it ({@code ContainerCodec.cardinality}), prefix sums locate each rank's
 * container by binary search, and only the containers that hold a requested rank are
 * decoded, once each. Cost: O(containers) to sum, O(k log containers) to locate, plus the
 * decoding of at most k containers, whatever the density; never a walk over the members.
 */
final class RankSelector {
    private RankSelector() {}

    static CompletableFuture<long[]> select(ReadTransaction tr, RoaringSet set, long[] ranks) {
        return set.containers(tr).thenApply(kvs -> {
            long[] before = new long[kvs.size() + 1]; // members in the containers before index i
            for (int i = 0; i < kvs.size(); i++) {
                before[i + 1] = before[i] + ContainerCodec.cardinality(kvs.get(i).getValue());
            }
            long size = before[kvs.size()];
            Container[] decoded = new Container[kvs.size()];
            long[] members = new long[ranks.length];
            for (int r = 0; r < ranks.length; r++) {
                long rank = ranks[r];
                if (rank < 0 || rank >= size) {
                    throw new IndexOutOfBoundsException("rank " + rank + " of a set of " + size + " members");
                }
                int i = containerOf(before, kvs.size(), rank);
                if (decoded[i] == null) {
                    decoded[i] = ContainerCodec.decode(kvs.get(i).getValue());
                }
                long high = set.high48(kvs.get(i).getKey());
                members[r] = high << 16 | decoded[i].select((int) (rank - before[i]));
            }
            return members;
        });
    }

    /** The index i with before[i] <= rank < before[i + 1]. */
    private static int containerOf(long[] before, int containers, long rank) {
        int found = Arrays.binarySearch(before, 0, containers + 1, rank);
        if (found >= 0) {
            // Stored containers are never empty, so prefix sums are strictly increasing: the
            // container starting at this rank is the one at the found index.
            return found;
        }
        return -found - 2;
    }
}
