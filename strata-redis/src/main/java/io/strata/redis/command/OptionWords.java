package io.strata.redis.command;

/**
 * Option words compared as Redis's C code compares them. Redis matches most options with
 * {@code strcasecmp} (or byte by byte up to a {@code '\0'}) on the argument's buffer, which
 * sees the argument only up to its first NUL byte and folds ASCII letters only: {@code "EX\0junk"}
 * is {@code EX} there, and {@code "PERſIST"} is not {@code PERSIST} (Java's
 * {@code toUpperCase} would make it so).
 */
public final class OptionWords {
    private OptionWords() {
    }

    /** Whether {@code arg}, up to its first NUL, equals the upper-case ASCII {@code word} ignoring ASCII case. */
    public static boolean is(byte[] arg, String word) {
        int n = word.length();
        if (arg.length < n || (arg.length > n && arg[n] != 0)) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int c = arg[i] & 0xff;
            if ((c >= 'a' && c <= 'z' ? c - 32 : c) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** {@code arg} up to its first NUL, as C string functions see it. */
    public static byte[] cString(byte[] arg) {
        for (int i = 0; i < arg.length; i++) {
            if (arg[i] == 0) {
                return java.util.Arrays.copyOf(arg, i);
            }
        }
        return arg;
    }
}
