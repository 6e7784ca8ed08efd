package io.strata.bench.interning;

import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.interning.HcaIdAllocator;
import io.strata.layers.interning.SingleCounterAllocator;
import io.strata.layers.interning.StringInterner;
import io.strata.layers.interning.VersionstampIdAllocator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The interners {@code strata bench interning} compares, by allocator name, in the order they
 * run and appear in the legend.
 * <ul>
 *   <li>{@code sharded-32/32}: the seed's random sharded sequences, 2^32 sequences of 2^32;</li>
 *   <li>{@code sharded-16/48}: kvdb's layout, 2^16 sequences of 2^48;</li>
 *   <li>{@code counter}: one hot counter ({@code SingleCounterAllocator});</li>
 *   <li>{@code hca}: the High Contention Allocator, one allocation per new string;</li>
 *   <li>{@code versionstamp}: IDs from the commit's versionstamp (48 version bits, 6 batch-order
 *       bits, 10 index bits), no counter at all.</li>
 * </ul>
 */
public final class InternerRegistry {
    /** Makes an interner on {@code root} with a cache of {@code cacheCapacity} mappings (0: none). */
    @FunctionalInterface
    public interface Factory {
        StringInterner create(Subspace root, int cacheCapacity);
    }

    private final Map<String, Factory> factories = new LinkedHashMap<>();

    public static InternerRegistry standard() {
        InternerRegistry r = new InternerRegistry();
        r.factories.put("sharded-32/32", (root, cache) -> StringInterner.sharded(root, 32, 32, cache));
        r.factories.put("sharded-16/48", (root, cache) -> StringInterner.sharded(root, 16, 48, cache));
        r.factories.put("counter", (root, cache) ->
                new StringInterner(root, SingleCounterAllocator::new, cache));
        r.factories.put("hca", (root, cache) ->
                new StringInterner(root, HcaIdAllocator::new, cache));
        r.factories.put("versionstamp", (root, cache) ->
                StringInterner.withVersionstamps(root, new VersionstampIdAllocator(), cache));
        return r;
    }

    /** The largest batch {@code name} can intern in one transaction. */
    public int maxBatch(String name) {
        get(name);
        return name.equals("versionstamp") ? new VersionstampIdAllocator().maxPerTransaction() : Integer.MAX_VALUE;
    }

    public List<String> names() {
        return List.copyOf(factories.keySet());
    }

    public Factory get(String name) {
        Factory f = factories.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown allocator: " + name + " " + names());
        }
        return f;
    }
}
