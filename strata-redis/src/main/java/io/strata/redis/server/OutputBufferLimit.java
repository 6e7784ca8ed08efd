package io.strata.redis.server;

import java.util.Locale;

/**
 * One class's {@code client-output-buffer-limit}: the bytes waiting to be sent past which the
 * client is closed at once ({@code hard}), and those it may stay past for {@code softSeconds}
 * ({@code soft}); 0 turns a limit off. Redis's rule ({@code checkClientOutputBufferLimits}):
 * past the hard limit, close; past the soft limit, note when it was first passed and close
 * once more than {@code softSeconds} whole seconds have gone by with it still passed; back
 * under it, forget.
 */
record OutputBufferLimit(long hard, long soft, long softSeconds) {
    static final OutputBufferLimit NONE = new OutputBufferLimit(0, 0, 0);

    /**
     * The limits of the client classes this server has: {@code normal} (every client but a
     * subscriber, MONITOR clients included, as Redis classes them for this purpose) and
     * {@code pubsub} (a client with a subscription).
     */
    record Classes(OutputBufferLimit normal, OutputBufferLimit pubsub) {
        static final Classes NONE = new Classes(OutputBufferLimit.NONE, OutputBufferLimit.NONE);

        /** From the parameter's canonical value. */
        static Classes of(String parameter) {
            return new Classes(OutputBufferLimit.of(parameter, "normal"), OutputBufferLimit.of(parameter, "pubsub"));
        }

        /** The limit of a client that is subscribed or not. */
        OutputBufferLimit of(boolean subscribed) {
            return subscribed ? pubsub : normal;
        }
    }

    /**
     * The limit of {@code clientClass} in the parameter's canonical value
     * ({@code "normal 0 0 0 slave … pubsub 33554432 8388608 60"}, bytes and seconds), NONE if
     * the class is not named.
     */
    static OutputBufferLimit of(String parameter, String clientClass) {
        String[] w = parameter.trim().split("\\s+");
        for (int i = 0; i + 3 < w.length; i += 4) {
            if (w[i].toLowerCase(Locale.ROOT).equals(clientClass)) {
                return new OutputBufferLimit(Long.parseLong(w[i + 1]), Long.parseLong(w[i + 2]), Long.parseLong(w[i + 3]));
            }
        }
        return NONE;
    }

    /**
     * Whether a client with {@code pending} bytes waiting is to be closed now; {@code since}
     * holds, between calls, when the soft limit was first passed (0: it is not passed).
     */
    boolean reached(long pending, long nowMillis, long[] since) {
        if (hard > 0 && pending >= hard) {
            return true;
        }
        if (soft > 0 && pending >= soft) {
            if (since[0] == 0) {
                since[0] = nowMillis;
                return false;
            }
            return (nowMillis - since[0]) / 1000 > softSeconds;
        }
        since[0] = 0;
        return false;
    }
}
