package io.strata.redis.command;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Hides secrets from the slow log and MONITOR, as Redis does: AUTH's arguments, HELLO's AUTH
 * user and password, MIGRATE's AUTH/AUTH2 credentials, and the values CONFIG SET gives to
 * sensitive parameters.
 */
public final class Redaction {
    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> SENSITIVE_PARAMETERS = Set.of("requirepass", "masterauth", "masteruser");

    private Redaction() {
    }

    /** The arguments as they may be shown; {@code args} itself when nothing is secret. */
    public static byte[][] shown(String command, byte[][] args) {
        switch (command) {
            case "auth":
                return redactFrom(args, 1, args.length);
            case "hello":
                for (int i = 2; i < args.length; i++) {
                    if (is(args[i], "auth") && i + 2 < args.length) {
                        return redactFrom(args, i + 1, i + 3);
                    }
                }
                return args;
            case "migrate":
                for (int i = 6; i < args.length; i++) {
                    if (is(args[i], "auth") && i + 1 < args.length) {
                        return redactFrom(args, i + 1, i + 2);
                    }
                    if (is(args[i], "auth2") && i + 2 < args.length) {
                        return redactFrom(args, i + 1, i + 3);
                    }
                }
                return args;
            case "config|set":
                byte[][] copy = null;
                for (int i = 2; i + 1 < args.length; i += 2) {
                    if (SENSITIVE_PARAMETERS.contains(new String(args[i], StandardCharsets.UTF_8).toLowerCase(java.util.Locale.ROOT))) {
                        if (copy == null) {
                            copy = args.clone();
                        }
                        copy[i + 1] = REDACTED;
                    }
                }
                return copy == null ? args : copy;
            default:
                return args;
        }
    }

    private static byte[][] redactFrom(byte[][] args, int from, int to) {
        byte[][] copy = args.clone();
        for (int i = from; i < to && i < copy.length; i++) {
            copy[i] = REDACTED;
        }
        return copy;
    }

    private static boolean is(byte[] arg, String word) {
        return new String(arg, StandardCharsets.UTF_8).equalsIgnoreCase(word);
    }
}
