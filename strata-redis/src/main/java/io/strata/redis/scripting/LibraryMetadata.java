package io.strata.redis.scripting;

import io.strata.redis.protocol.InlineSplitter;
import io.strata.redis.protocol.RedisException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The first line of FUNCTION LOAD's code, {@code #!<engine> name=<library>}, parsed with Redis
 * 7.0's checks and errors; the code after it keeps the line feed so line numbers match.
 *
 * @param name the library's name
 * @param body the Lua code after the metadata line
 */
record LibraryMetadata(String name, byte[] body) {
    static final String BAD_NAME = "ERR Library names can only contain letters, numbers, or underscores(_) "
            + "and must be at least one character long";

    static LibraryMetadata of(byte[] code) {
        if (code.length < 2 || code[0] != '#' || code[1] != '!') {
            throw new RedisException("ERR Missing library metadata");
        }
        int end = 0;
        while (end < code.length && code[end] != '\n') {
            end++;
        }
        if (end == code.length) {
            throw new RedisException("ERR Invalid library metadata");
        }
        // Split as Redis splits it (sdssplitargs): quotes group, so name="foo" names foo.
        byte[][] split = InlineSplitter.split(Arrays.copyOf(code, end));
        if (split == null || split.length == 0) {
            throw new RedisException("ERR Invalid library metadata");
        }
        String[] parts = new String[split.length];
        for (int i = 0; i < split.length; i++) {
            parts[i] = new String(split[i], StandardCharsets.UTF_8);
        }
        String engine = parts[0].substring(2);
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].regionMatches(true, 0, "name=", 0, 5)) {
                if (name != null) {
                    throw new RedisException("ERR Invalid metadata value, name argument was given multiple times");
                }
                name = parts[i].substring(5);
                continue;
            }
            throw new RedisException("ERR Invalid metadata value given: " + parts[i]);
        }
        if (name == null) {
            throw new RedisException("ERR Library name was not given");
        }
        if (!validName(name)) {
            throw new RedisException(BAD_NAME);
        }
        if (!engine.equalsIgnoreCase("lua")) {
            throw new RedisException("ERR Engine '" + engine + "' not found");
        }
        return new LibraryMetadata(name, Arrays.copyOfRange(code, end, code.length));
    }

    /** Redis's rule for library and function names: letters, digits and underscores, at least one. */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }
}
