package io.strata.redis.acl;

import java.util.List;
import java.util.Locale;

/**
 * Redis 7.0's ACL categories, in Redis's order (ACL CAT lists them so, and rule descriptions try
 * them so): the command table's list ({@code command.AclCategories}), with the index the
 * ACL's bit masks use.
 */
public final class AclCategories {
    /** Every category, without {@code @}. */
    public static final List<String> ALL = io.strata.redis.command.AclCategories.ALL;

    private AclCategories() {
    }

    /** The index of a category (any case), or -1. */
    public static int indexOf(String name) {
        return ALL.indexOf(name.toLowerCase(Locale.ROOT));
    }
}
