package io.strata.redis.command;

import java.nio.charset.StandardCharsets;

/**
 * Values by command name, looked up with the name's bytes as a request sent them, in any
 * ASCII case, without allocating: every request looks its command up (and a lane's batch
 * two or three times more), and building a lower-case {@code String} per lookup to walk a
 * sorted map of some two hundred names was 2–3% of a pipelined SET's CPU.
 *
 * <p>Open addressing with linear probing, at most half full; names are stored lower-case
 * and compared folding the request's ASCII capitals (as Redis's case-insensitive command
 * dictionary does). Not thread-safe for writes: filled while the command table is built,
 * then only read.
 *
 * @param <V> what a name maps to
 */
final class CommandNames<V> {
    private byte[][] names = new byte[64][];
    private Object[] values = new Object[64];
    private int size;

    /** Maps {@code name} (lower-case) to {@code value}, replacing any value it had. */
    void put(String name, V value) {
        byte[] lower = name.getBytes(StandardCharsets.ISO_8859_1);
        if ((size + 1) * 2 > names.length) {
            grow();
        }
        int i = slotOf(lower);
        if (names[i] == null) {
            names[i] = lower;
            size++;
        }
        values[i] = value;
    }

    /** The value of the name {@code name} spells in any ASCII case, or null. */
    @SuppressWarnings("unchecked")
    V get(byte[] name) {
        int i = slotOf(name);
        return names[i] == null ? null : (V) values[i];
    }

    private int slotOf(byte[] name) {
        int mask = names.length - 1;
        int i = hash(name) & mask;
        for (byte[] n; (n = names[i]) != null; i = (i + 1) & mask) {
            if (foldedEquals(n, name)) {
                return i;
            }
        }
        return i;
    }

    private static int hash(byte[] b) {
        int h = 0;
        for (int i = 0; i < b.length; i++) {
            h = 31 * h + lower(b[i]);
        }
        return h ^ (h >>> 16);
    }

    static boolean foldedEquals(byte[] lowerName, byte[] b) {
        if (lowerName.length != b.length) {
            return false;
        }
        for (int i = 0; i < lowerName.length; i++) {
            if (lowerName[i] != lower(b[i])) {
                return false;
            }
        }
        return true;
    }

    private static byte lower(byte c) {
        return c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
    }

    private void grow() {
        byte[][] oldNames = names;
        Object[] oldValues = values;
        names = new byte[oldNames.length * 2][];
        values = new Object[oldNames.length * 2];
        for (int j = 0; j < oldNames.length; j++) {
            if (oldNames[j] != null) {
                int i = slotOf(oldNames[j]);
                names[i] = oldNames[j];
                values[i] = oldValues[j];
            }
        }
    }
}
