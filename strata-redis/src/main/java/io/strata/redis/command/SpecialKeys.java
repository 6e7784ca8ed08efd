package io.strata.redis.command;

/**
 * Where the keys of the commands whose key specs cannot say it are, as Redis's
 * {@code getkeys_proc}s find them: SORT's STORE destination and MIGRATE's keys. The positions
 * only; the ACL ({@link KeySpecs}) and COMMAND GETKEYS ({@code reference.KeyFinder}) each
 * attach their own flags.
 */
public final class SpecialKeys {
    private SpecialKeys() {
    }

    /**
     * SORT key … [STORE destination]: the destination's position, or -1 without STORE.
     * Options with arguments (LIMIT, BY, GET) are skipped; the last STORE wins.
     */
    public static int sortStoreDestination(byte[][] args) {
        int store = -1;
        for (int i = 2; i < args.length; i++) {
            if (equalsIgnoreCase(args[i], "LIMIT")) {
                i += 2;
            } else if (equalsIgnoreCase(args[i], "GET") || equalsIgnoreCase(args[i], "BY")) {
                i += 1;
            } else if (equalsIgnoreCase(args[i], "STORE") && i + 1 < args.length) {
                store = i + 1;
            }
        }
        return store;
    }

    /**
     * MIGRATE host port key|"" db timeout [COPY] [REPLACE] [AUTH pw] [AUTH2 user pw]
     * [KEYS key ...]: {@code {first, count}} of its keys — argument 3 alone, or with KEYS and
     * an empty key argument every argument after KEYS (none when both are given).
     */
    public static int[] migrateKeys(byte[][] args) {
        int first = 3;
        int count = 1;
        for (int i = 6; i < args.length; i++) {
            if (equalsIgnoreCase(args[i], "KEYS")) {
                if (args[3].length > 0) {
                    count = 0;
                } else {
                    first = i + 1;
                    count = args.length - first;
                }
                break;
            }
            if (equalsIgnoreCase(args[i], "AUTH")) {
                i += 1;
            } else if (equalsIgnoreCase(args[i], "AUTH2")) {
                i += 2;
            }
        }
        return new int[] {first, count};
    }

    /** ASCII case-insensitive comparison of an argument with an option word. */
    public static boolean equalsIgnoreCase(byte[] arg, String word) {
        if (arg.length != word.length()) {
            return false;
        }
        for (int i = 0; i < arg.length; i++) {
            if (upper(arg[i] & 0xff) != upper(word.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static int upper(int c) {
        return c >= 'a' && c <= 'z' ? c - 32 : c;
    }
}
