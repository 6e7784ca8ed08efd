package io.strata.redis.command;

import java.util.Arrays;
import java.util.List;

/**
 * Which lanes a request's keys fall in, as a bit mask over {@link CommandLanes#LANES} lanes: a
 * key's lane is a hash of its name and database. A request without keys takes its connection's
 * lane, so a connection's keyless requests still batch with each other.
 *
 * <p>A unit whose requests all fall in one lane runs in that lane; where one whose keys spread
 * over several runs (an MSET of random keys, a pipeline of SETs) is {@link CrossLanePolicy}'s
 * choice. Keys a command reaches without naming them (SORT's BY and GET patterns, a script's
 * undeclared keys) are not counted: they cost at worst a conflict and a retry, never a wrong
 * answer, because every batch is still one serializable transaction.
 */
final class LaneRouting {
    static {
        if (CommandLanes.LANES > Integer.SIZE) {
            throw new AssertionError("lane masks are ints");
        }
    }

    private LaneRouting() {
    }

    /** The lanes of every request of a unit. */
    static int lanesOf(List<Invocation> requests) {
        int mask = 0;
        for (Invocation inv : requests) {
            mask |= lanesOf(inv);
        }
        return mask;
    }

    /** The lanes of one request's keys; its connection's lane if it names none. */
    static int lanesOf(Invocation inv) {
        return lanesOf(inv.spec(), inv.args(), inv.db(), inv.session().id());
    }

    /** The lanes of a request's keys ({@code args} as sent, the name first) in database {@code db}. */
    static int lanesOf(CommandSpec spec, byte[][] args, int db, long connectionId) {
        int mask = 0;
        for (KeySpecs.KeyRef k : KeySpecs.keys(spec, args)) {
            mask |= 1 << laneOfKey(args[k.position()], db);
        }
        return mask != 0 ? mask : 1 << laneOfConnection(connectionId);
    }

    /** The lane of a request's first key (its connection's lane if it has none). */
    static int firstKeyLane(Invocation inv) {
        byte[][] args = inv.args();
        List<KeySpecs.KeyRef> keys = KeySpecs.keys(inv.spec(), args);
        return keys.isEmpty() ? laneOfConnection(inv.session().id()) : laneOfKey(args[keys.get(0).position()], inv.db());
    }

    static int laneOfKey(byte[] key, int db) {
        return spread(Arrays.hashCode(key) * 31 + db);
    }

    static int laneOfConnection(long connectionId) {
        return spread(Long.hashCode(connectionId));
    }

    /** Whether {@code mask} names exactly one lane. */
    static boolean single(int mask) {
        return Integer.bitCount(mask) == 1;
    }

    private static int spread(int h) {
        return Math.floorMod(h ^ (h >>> 16), CommandLanes.LANES);
    }
}
