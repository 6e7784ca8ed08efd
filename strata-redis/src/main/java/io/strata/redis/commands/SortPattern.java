package io.strata.redis.commands;

import java.util.Arrays;

/**
 * SORT's BY and GET patterns, resolved for one element as Redis's {@code lookupKeyByPattern}:
 * {@code #} is the element itself; otherwise the first {@code *} is replaced by the element to
 * name a key, and a {@code ->field} after the {@code *} names a field of that key's hash. A
 * pattern without {@code *} names nothing.
 *
 * @param key the key to read, or null for the element itself
 * @param field the hash field, or null for the key's string value
 */
record SortPattern(byte[] key, byte[] field) {
    static final SortPattern ELEMENT = new SortPattern(null, null);

    /** What {@code pattern} names for {@code element}, or null for nothing. */
    static SortPattern resolve(byte[] pattern, byte[] element) {
        if (pattern.length == 1 && pattern[0] == '#') {
            return ELEMENT;
        }
        int star = indexOf(pattern, (byte) '*', 0);
        if (star < 0) {
            return null;
        }
        int arrow = indexOfArrow(pattern, star + 1);
        byte[] field = null;
        int keyEnd = pattern.length;
        if (arrow >= 0 && arrow + 2 < pattern.length) {
            field = Arrays.copyOfRange(pattern, arrow + 2, pattern.length);
            keyEnd = arrow;
        }
        byte[] key = new byte[star + element.length + (keyEnd - star - 1)];
        System.arraycopy(pattern, 0, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(pattern, star + 1, key, star + element.length, keyEnd - star - 1);
        return new SortPattern(key, field);
    }

    static int indexOf(byte[] b, byte c, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfArrow(byte[] b, int from) {
        for (int i = from; i + 1 < b.length; i++) {
            if (b[i] == '-' && b[i + 1] == '>') {
                return i;
            }
        }
        return -1;
    }
}
