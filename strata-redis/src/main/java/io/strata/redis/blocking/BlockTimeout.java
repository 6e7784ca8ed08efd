package io.strata.redis.blocking;

import io.strata.redis.command.LongDouble;
import io.strata.redis.protocol.RedisException;

/** The timeout argument of the blocking commands, read as Redis 7.0 reads it. */
public final class BlockTimeout {
    private BlockTimeout() {
    }

    /**
     * Seconds as Redis's {@code getTimeoutFromObjectOrReply} reads them: a long double
     * ({@code string2ld}, so {@code 1e400} and {@code 1e-400} are numbers there), times 1000 and
     * rounded up to whole milliseconds in long double arithmetic, then converted to a 64-bit
     * integer — infinity and values past 2^63 milliseconds come out negative and are refused
     * with Redis's "timeout is negative"; 0 means no timeout.
     *
     * @return the timeout in milliseconds, 0 for none
     */
    public static long parseSeconds(byte[] arg) {
        LongDouble seconds = LongDouble.parse(arg);
        if (seconds == null) {
            throw new RedisException("ERR timeout is not a float or out of range");
        }
        long millis = seconds.times(1000).ceilToLong();
        if (millis < 0) {
            throw new RedisException("ERR timeout is negative");
        }
        return millis;
    }
}
