package io.strata.redis.command;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Redis 7.0's ACL command categories, in the order Redis lists them ({@code ACL CAT}, {@code COMMAND INFO}). */
public final class AclCategories {
    /** Every category, without the {@code @}. */
    public static final List<String> ALL = List.of("keyspace", "read", "write", "set", "sortedset", "list", "hash",
            "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");

    private AclCategories() {
    }

    /** {@code categories} in Redis's order; unknown ones last, as given. */
    public static List<String> inRedisOrder(Collection<String> categories) {
        List<String> sorted = new ArrayList<>();
        for (String c : ALL) {
            if (categories.contains(c)) {
                sorted.add(c);
            }
        }
        for (String c : categories) {
            if (!ALL.contains(c)) {
                sorted.add(c);
            }
        }
        return sorted;
    }
}
