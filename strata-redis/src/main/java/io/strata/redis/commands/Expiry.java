package io.strata.redis.commands;

import io.strata.redis.protocol.RedisException;

/** Expiry arguments (EX, PX, EXAT, PXAT) turned into Unix milliseconds, with Redis's checks. */
final class Expiry {
    private Expiry() {
    }

    /**
     * The absolute expiry for {@code amount} in {@code unit} ("EX", "PX", "EXAT", "PXAT");
     * Redis refuses a non-positive amount and any overflow with {@code invalid expire time in
     * '<command>' command}.
     */
    static long at(String unit, long amount, long now, String command) {
        if (amount <= 0) {
            throw invalid(command);
        }
        boolean seconds = unit.equals("EX") || unit.equals("EXAT");
        if (seconds && amount > Long.MAX_VALUE / 1000) {
            throw invalid(command);
        }
        long ms = seconds ? amount * 1000 : amount;
        if (unit.equals("EX") || unit.equals("PX")) {
            if (ms > Long.MAX_VALUE - now) {
                throw invalid(command);
            }
            ms += now;
        }
        return ms;
    }

    static RedisException invalid(String command) {
        return new RedisException("ERR invalid expire time in '" + command + "' command");
    }
}
