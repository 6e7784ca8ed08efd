package io.strata.redis.acl;

import java.util.List;
import java.util.Locale;

/** Redis 7.0's ACL categories, in Redis's order (ACL CAT lists them so, and rule descriptions try them so). */
public final class AclCategories {
    /** Every category, without {@code @}. */
    public static final List<String> ALL = List.of(
            "keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap", "hyperloglog",
            "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection",
            "transaction", "scripting");

    private AclCategories() {
    }

    /** The index of a category (any case), or -1. */
    public static int indexOf(String name) {
        return ALL.indexOf(name.toLowerCase(Locale.ROOT));
    }
}
