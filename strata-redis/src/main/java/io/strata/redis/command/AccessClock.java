package io.strata.redis.command;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * When each key was last accessed by a command of this process, for {@code OBJECT IDLETIME}
 * and the LRU eviction policies — Redis's per-object LRU clock — and, while an LFU policy is
 * selected ({@link #countFrequency}), how often, for {@code OBJECT FREQ} and the LFU policies:
 * Redis's logarithmic access counter, which grows with probability
 * {@code 1 / ((counter - 5) * lfu-log-factor + 1)} per access and loses one every
 * {@code lfu-decay-time} minutes without one. Kept beside the database rather than in it,
 * because recording it there would turn every read into a write.
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
 * staler, as with Redis's clock; two accesses counted at once may count as one, as two
 * threads updating a Redis object's counter would (Redis has one thread, so it never does).
 */
public final class AccessClock {
    /** 2^20 slots of 4 bytes: 4 MiB, whatever the number of keys. */
    static final int SLOTS = 1 << 20;

    /** The tick of the clock's start. */
    private static final int ORIGIN = 1 << 30;

    /** Redis's {@code LFU_INIT_VAL}: the counter of a key not accessed since it was created. */
    public static final int LFU_INITIAL = 5;

    private final AtomicIntegerArray lastAccess = new AtomicIntegerArray(SLOTS);
    /**
     * Per slot: the minute of its last access ({@link #minute}) above 8 bits of counter; 0
     * for a slot never counted, which reads as a key just created.
     */
    private final AtomicIntegerArray frequency = new AtomicIntegerArray(SLOTS);
    private final long startMillis;
    private volatile boolean countingFrequency;
    private volatile int logFactor = 10;
    private volatile int decayMinutes = 1;

    /** A clock whose keys count as last accessed at {@code startMillis} (the server's start). */
    public AccessClock(long startMillis) {
        this.startMillis = startMillis;
    }

    /**
     * Whether a command accesses the keys it names, once it has run: all but those Redis looks
     * keys up for with LOOKUP_NOTOUCH, and RESTORE, which sets the time itself (IDLETIME).
     */
    public static boolean touches(CommandSpec spec) {
        return spec.touchesKeys();
    }

    /** {@link #touches} by the command's full name ({@code object|freq}); {@link CommandSpec} keeps the answer. */
    static boolean touches(String fullName) {
        return switch (fullName) {
            case "type", "ttl", "pttl", "expiretime", "pexpiretime", "exists", "memory|usage", "restore" -> false;
            default -> !fullName.startsWith("object|");
        };
    }

    /** Records the accesses of a command that ran in database {@code db} of namespace {@code space} (none if it does not {@link #touches}). */
    public void ran(Object space, int db, CommandSpec spec, byte[][] args, long nowMillis) {
        if (!spec.touchesKeys()) {
            return;
        }
        for (KeySpecs.KeyRef k : KeySpecs.keys(spec, args)) {
            accessed(space, db, args[k.position()], nowMillis);
        }
    }

    /**
     * Counts accesses from now on (an LFU policy was selected) with Redis's
     * {@code lfu-log-factor} and {@code lfu-decay-time}, or stops counting.
     */
    public void countFrequency(boolean on, int logFactor, int decayMinutes) {
        this.logFactor = logFactor;
        this.decayMinutes = decayMinutes;
        this.countingFrequency = on;
    }

    /** Whether accesses are counted ({@link #countFrequency}). */
    public boolean countsFrequency() {
        return countingFrequency;
    }

    /** Records an access to {@code key} of database {@code db} in the namespace {@code space} at {@code nowMillis}. */
    public void accessed(Object space, int db, byte[] key, long nowMillis) {
        int slot = slot(space, db, key);
        lastAccess.lazySet(slot, tick(nowMillis));
        if (countingFrequency) {
            // Redis's updateLFU: decay, then the logarithmic increment; a race loses an increment.
            int minute = minute(nowMillis);
            int counter = decayed(frequency.get(slot), minute);
            if (counter < 255) {
                double base = Math.max(0, counter - LFU_INITIAL);
                if (java.util.concurrent.ThreadLocalRandom.current().nextDouble() < 1.0 / (base * logFactor + 1)) {
                    counter++;
                }
            }
            frequency.lazySet(slot, minute << 8 | counter);
        }
    }

    /** The access counter of {@code key}, decayed to {@code nowMillis} ({@code OBJECT FREQ}). */
    public int frequency(Object space, int db, byte[] key, long nowMillis) {
        return decayed(frequency.get(slot(space, db, key)), minute(nowMillis));
    }

    /** Sets the access counter of {@code key} (RESTORE ... FREQ). */
    public void frequencyIs(Object space, int db, byte[] key, long nowMillis, int counter) {
        frequency.lazySet(slot(space, db, key), minute(nowMillis) << 8 | Math.min(255, Math.max(0, counter)));
    }

    /** Redis's {@code LFUDecrAndReturn}: the counter less one per {@code lfu-decay-time} minutes since its last access. */
    private int decayed(int state, int minute) {
        if (state == 0) {
            return LFU_INITIAL;
        }
        int counter = state & 0xff;
        int decay = decayMinutes;
        long periods = decay == 0 ? 0 : Math.max(0, minute - (state >>> 8)) / decay;
        return periods >= counter ? 0 : counter - (int) periods;
    }

    /** Whole minutes since the start, plus one (so that a counted slot is never 0), in 24 bits. */
    private int minute(long nowMillis) {
        return (int) Math.min((1 << 24) - 1, Math.max(0, nowMillis - startMillis) / 60_000 + 1);
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
