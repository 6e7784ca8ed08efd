package io.strata.redis.eviction;

import java.util.Locale;

/**
 * Redis's {@code maxmemory-policy}: which keys go when the data passes {@code maxmemory}. The
 * {@code allkeys-} policies choose among all keys, the {@code volatile-} ones among keys with
 * an expiry; {@link Order} says how.
 */
public enum EvictionPolicy {
    NOEVICTION(false, Order.NONE),
    ALLKEYS_LRU(false, Order.LRU),
    ALLKEYS_LFU(false, Order.LFU),
    ALLKEYS_RANDOM(false, Order.RANDOM),
    VOLATILE_LRU(true, Order.LRU),
    VOLATILE_LFU(true, Order.LFU),
    VOLATILE_RANDOM(true, Order.RANDOM),
    VOLATILE_TTL(true, Order.TTL);

    /** How a policy orders the keys it may evict. */
    public enum Order {
        /** Nothing is evicted: writes past maxmemory get the OOM error. */
        NONE,
        /** Least recently used first, among sampled keys. */
        LRU,
        /** Least frequently used first, among sampled keys. */
        LFU,
        /** Any key. */
        RANDOM,
        /** The key whose expiry comes first. */
        TTL
    }

    private final boolean volatileOnly;
    private final Order order;

    EvictionPolicy(boolean volatileOnly, Order order) {
        this.volatileOnly = volatileOnly;
        this.order = order;
    }

    /** The policy a {@code maxmemory-policy} value names ({@code allkeys-lru}, …); the setting is validated before. */
    public static EvictionPolicy of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Whether keys are evicted at all. */
    public boolean evicts() {
        return order != Order.NONE;
    }

    /** Whether only keys with an expiry may go. */
    public boolean volatileOnly() {
        return volatileOnly;
    }

    public Order order() {
        return order;
    }

    /** Whether it needs access frequencies counted ({@code OBJECT FREQ} answers only then). */
    public boolean countsFrequency() {
        return order == Order.LFU;
    }
}
