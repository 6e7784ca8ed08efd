package io.strata.bench.allocation;

import io.strata.layers.allocator.HighContentionAllocator;
import io.strata.layers.allocator.NaiveAllocator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The allocators {@code strata bench allocators} can compare, by name, in the order they run
 * and appear in the legend. {@link #standard()} is the one list; adding a contender is one
 * {@link #register} line there.
 */
public final class AllocatorRegistry {
    private final Map<String, AllocatorFactory> factories = new LinkedHashMap<>();

    /**
     * The registered contenders. {@code naive} and {@code hca} (strata-layers'
     * {@code NaiveAllocator} and {@code HighContentionAllocator}) are registered here, ahead
     * of {@code directory}, once those classes exist:
     * <pre>{@code
     * r.register("naive", (db, root) -> new NaiveAllocator(root));
     * r.register("hca", (db, root) -> new HighContentionAllocator(root));
     * }</pre>
     */
    public static AllocatorRegistry standard() {
        AllocatorRegistry r = new AllocatorRegistry();
        r.register("naive", (db, root) -> new NaiveAllocator(root));
        r.register("hca", (db, root) -> new HighContentionAllocator(root));
        r.register("directory", DirectoryAllocator::new);
        return r;
    }

    /** Adds {@code name}; a name may be registered once. */
    public AllocatorRegistry register(String name, AllocatorFactory factory) {
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("allocator registered twice: " + name);
        }
        return this;
    }

    /** Registered names, in registration order. */
    public List<String> names() {
        return List.copyOf(factories.keySet());
    }

    /** The factory for {@code name}; throws with the known names if there is none. */
    public AllocatorFactory get(String name) {
        AllocatorFactory f = factories.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown allocator: " + name + " " + names());
        }
        return f;
    }

    public Map<String, AllocatorFactory> asMap() {
        return Collections.unmodifiableMap(factories);
    }
}
