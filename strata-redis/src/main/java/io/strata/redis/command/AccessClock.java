package io.strata.redis.command;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * When each key was last accessed by a command of this process, for {@code OBJECT IDLETIME}:
 * Redis's per-object LRU clock, kept beside the database rather than in it, because recording
 * it there would turn every read into a write.
 *
 * <p>Like Redis's clock it is approximate, in three ways, all of which make a key look more
 * recently used than it was, never less:
 * <ul>
 *   <li>The clock is a table of {@link #SLOTS} seconds, indexed by a hash of the namespace,
 *       database and key: keys that share a slot share their last access.</li>
 *   <li>It is this process's: other server processes on the same database do not move it,
 *       and a key not accessed since this process started reports the time since its start
 *       (as Redis reports, after a restart, the time since it loaded the key).</li>
 *   <li>Seconds are whole (Redis's {@code LRU_CLOCK_RESOLUTION} is 1,000 ms).</li>
 * </ul>
 * Which commands access their keys is Redis's rule: all but those that look keys up without
 * touching them ({@link #touches}: TYPE, the TTL family, EXISTS, OBJECT, MEMORY USAGE).
 *
 * <p>Concurrency: slots are written and read with atomic array operations by any thread; a
 * reader may miss an access made at the same moment, which only makes the answer one access
 * staler, as with Redis's clock.
 */
public final class AccessClock {
    /** 2^20 slots of 4 bytes: 4 MiB, whatever the number of keys. */
    static final int SLOTS = 1 << 20;

    /** The tick of the clock's start. */
    private static final int ORIGIN = 1 << 30;

    private final AtomicIntegerArray lastAccess = new AtomicIntegerArray(SLOTS);
    private final long startMillis;

    /** A clock whose keys count as last accessed at {@code startMillis} (the server's start). */
    public AccessClock(long startMillis) {
        this.startMillis = startMillis;
    }

    /**
     * Whether a command accesses the keys it names, once it has run: all but those Redis looks
     * keys up for with LOOKUP_NOTOUCH, and RESTORE, which sets the time itself (IDLETIME).
     */
    public static boolean touches(CommandSpec spec) {
        return switch (spec.name()) {
            case "type", "ttl", "pttl", "expiretime", "pexpiretime", "exists", "memory|usage", "restore" -> false;
            default -> !spec.name().startsWith("object|");
        };
    }

    /** Records the accesses of a command that ran in database {@code db} of namespace {@code space} (none if it does not {@link #touches}). */
    public void ran(Object space, int db, CommandSpec spec, byte[][] args, long nowMillis) {
        if (!touches(spec)) {
            return;
        }
        for (KeySpecs.KeyRef k : KeySpecs.keys(spec, args)) {
            accessed(space, db, args[k.position()], nowMillis);
        }
    }

    /** Records an access to {@code key} of database {@code db} in the namespace {@code space} at {@code nowMillis}. */
    public void accessed(Object space, int db, byte[] key, long nowMillis) {
        lastAccess.lazySet(slot(space, db, key), tick(nowMillis));
    }

    /** Records that {@code key} was last accessed {@code idleSeconds} before {@code nowMillis} (RESTORE ... IDLETIME). */
    public void idleSince(Object space, int db, byte[] key, long nowMillis, long idleSeconds) {
        long at = Math.max(1, (long) tick(nowMillis) - idleSeconds);
        lastAccess.lazySet(slot(space, db, key), (int) Math.min(at, Integer.MAX_VALUE));
    }

    /** Seconds since {@code key} was last accessed (or since the clock started), as of {@code nowMillis}. */
    public long idleSeconds(Object space, int db, byte[] key, long nowMillis) {
        int last = lastAccess.get(slot(space, db, key));
        long now = tick(nowMillis);
        return Math.max(0, last == 0 ? now - ORIGIN : now - last);
    }

    /**
     * Whole seconds since the start, plus {@link #ORIGIN}: room below the start for the access
     * times RESTORE ... IDLETIME gives (up to 34 years back), and 0 in a slot means "never".
     */
    private int tick(long nowMillis) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, nowMillis - startMillis) / 1000 + ORIGIN);
    }

    private static int slot(Object space, int db, byte[] key) {
        int h = Arrays.hashCode(key) * 31 + db;
        h = h * 31 + System.identityHashCode(space);
        h *= 0x9E3779B9;
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
