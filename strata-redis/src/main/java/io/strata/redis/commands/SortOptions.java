package io.strata.redis.commands;

import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;

import java.util.ArrayList;
import java.util.List;

/**
 * SORT's options: {@code [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC]
 * [ALPHA] [STORE destination]} in any order, parsed as Redis parses them (a later option
 * overrides an earlier one; STORE is a syntax error for SORT_RO).
 *
 * @param desc descending order
 * @param alpha compare as strings instead of numbers
 * @param limitOffset LIMIT's offset (0 without LIMIT)
 * @param limitCount LIMIT's count (-1 without LIMIT: all)
 * @param by the BY pattern, or null
 * @param gets the GET patterns in order
 * @param store the STORE destination, or null
 */
record SortOptions(boolean desc, boolean alpha, long limitOffset, long limitCount, byte[] by, List<byte[]> gets,
                   byte[] store) {

    static SortOptions parse(Invocation inv, boolean readOnly) {
        boolean desc = false;
        boolean alpha = false;
        long offset = 0;
        long count = -1;
        byte[] by = null;
        byte[] store = null;
        List<byte[]> gets = new ArrayList<>();
        for (int j = 2; j < inv.argc(); j++) {
            int left = inv.argc() - j - 1;
            String opt = inv.option(j);
            if (opt.equals("ASC")) {
                desc = false;
            } else if (opt.equals("DESC")) {
                desc = true;
            } else if (opt.equals("ALPHA")) {
                alpha = true;
            } else if (opt.equals("LIMIT") && left >= 2) {
                offset = inv.longArg(j + 1);
                count = inv.longArg(j + 2);
                j += 2;
            } else if (!readOnly && opt.equals("STORE") && left >= 1) {
                store = inv.arg(++j);
            } else if (opt.equals("BY") && left >= 1) {
                by = inv.arg(++j);
                if (SortPattern.indexOf(by, (byte) '*', 0) >= 0 && !readsAnyKey(inv)) {
                    throw new RedisException("ERR BY option of SORT denied due to insufficient ACL permissions.");
                }
            } else if (opt.equals("GET") && left >= 1) {
                gets.add(inv.arg(++j));
                if (!readsAnyKey(inv)) {
                    throw new RedisException("ERR GET option of SORT denied due to insufficient ACL permissions.");
                }
            } else {
                throw RedisException.syntax();
            }
        }
        return new SortOptions(desc, alpha, offset, count, by, List.copyOf(gets), store);
    }

    /** Whether the user may read any key, as BY and GET patterns name keys the key rules cannot see (Redis's ACL rule). */
    private static boolean readsAnyKey(Invocation inv) {
        return inv.server().acl().allowsReadingAnyKey(inv.session(), inv.spec(), inv.args());
    }

    /** BY with a pattern without {@code *}: every weight is the same, so nothing is sorted. */
    boolean dontSort() {
        return by != null && SortPattern.indexOf(by, (byte) '*', 0) < 0;
    }

    /** The same options, sorting the elements themselves as strings (SORT of a set with STORE). */
    SortOptions forcedAlpha() {
        return new SortOptions(desc, true, limitOffset, limitCount, null, gets, store);
    }
}
