package io.strata.redis.blocking;

import io.strata.redis.command.Numbers;
import io.strata.redis.protocol.RedisException;

/** The timeout argument of the blocking commands, read as Redis 7.0 reads it. */
public final class BlockTimeout {
    private BlockTimeout() {
    }

    /**
     * Seconds as a floating-point number, rounded up to whole milliseconds; 0 means no timeout.
     * Redis converts the rounded value to a 64-bit integer, so infinity and values past 2^63
     * milliseconds come out negative there and are refused here with the same error.
     *
     * @return the timeout in milliseconds, 0 for none
     */
    public static long parseSeconds(byte[] arg) {
        double seconds = Numbers.parseDouble(arg, "ERR timeout is not a float or out of range");
        double millis = Math.ceil(seconds * 1000.0);
        if (millis < 0 || !(millis < 0x1p63)) {
            throw new RedisException("ERR timeout is negative");
        }
        return (long) millis;
    }
}
