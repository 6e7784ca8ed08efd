package io.strata.redis.scripting;

import io.strata.redis.protocol.RedisException;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

/**
 * The flags a script declares in Redis 7.0's shebang line ({@code #!lua flags=no-writes,allow-oom}),
 * and where its code starts. A script without a shebang runs in EVAL's compatibility mode:
 * it may write (unless run by an _RO command) and declares nothing.
 *
 * @param declared the flags named on the shebang line
 * @param compatibilityMode whether there is no shebang
 * @param shebangLength bytes of the shebang line, without its line feed (kept so line numbers do not move)
 */
public record ScriptFlags(Set<Flag> declared, boolean compatibilityMode, int shebangLength) {
    /** Redis 7.0's script flags, by their shebang names. */
    public enum Flag {
        NO_WRITES("no-writes"), ALLOW_OOM("allow-oom"), ALLOW_STALE("allow-stale"), NO_CLUSTER("no-cluster"),
        ALLOW_CROSS_SLOT_KEYS("allow-cross-slot-keys");

        final String word;

        Flag(String word) {
            this.word = word;
        }
    }

    /** Whether the script may not write: declared {@code no-writes}. */
    public boolean noWrites() {
        return !compatibilityMode && declared.contains(Flag.NO_WRITES);
    }

    /** Whether the script may run past {@code maxmemory}: declared {@code allow-oom}. */
    public boolean allowOom() {
        return !compatibilityMode && declared.contains(Flag.ALLOW_OOM);
    }

    /** Parses the shebang of {@code body}, with Redis's error replies for a malformed one. */
    public static ScriptFlags of(byte[] body) {
        if (body.length < 2 || body[0] != '#' || body[1] != '!') {
            return new ScriptFlags(Set.of(), true, 0);
        }
        int end = indexOf(body, (byte) '\n');
        if (end < 0) {
            throw new RedisException("ERR Invalid script shebang");
        }
        String line = new String(body, 0, end, StandardCharsets.UTF_8);
        String[] parts = line.trim().split("[ \t\r]+");
        if (parts.length == 0 || parts[0].isEmpty()) {
            throw new RedisException("ERR Invalid engine in script shebang");
        }
        if (!parts[0].equals("#!lua")) {
            throw new RedisException("ERR Unexpected engine in script shebang: " + parts[0]);
        }
        Set<Flag> flags = EnumSet.noneOf(Flag.class);
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].startsWith("flags=")) {
                throw new RedisException("ERR Unknown lua shebang option: " + parts[i]);
            }
            String list = parts[i].substring("flags=".length());
            if (list.isEmpty()) {
                continue;
            }
            for (String word : list.split(",", -1)) {
                Flag flag = flagNamed(word);
                if (flag == null) {
                    throw new RedisException("ERR Unexpected flag in script shebang: " + word);
                }
                flags.add(flag);
            }
        }
        return new ScriptFlags(flags, false, end);
    }

    /** The flag called {@code word}, or null. */
    static Flag flagNamed(String word) {
        for (Flag f : Flag.values()) {
            if (f.word.equals(word)) {
                return f;
            }
        }
        return null;
    }

    /** The name Redis shows (FUNCTION LIST). */
    public static String wordOf(Flag flag) {
        return flag.word;
    }

    private static int indexOf(byte[] b, byte x) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
