package io.strata.engine.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Byte-string keys as FoundationDB orders them: unsigned lexicographic order.
 *
 * <p>Every sorted structure in the engine uses {@link #COMPARATOR}; keys are never mutated
 * after they enter the engine, so arrays are shared rather than copied.
 */
public final class ByteKeys {
    /** The empty key: the first key of the key space. */
    public static final byte[] EMPTY = new byte[0];
    /** {@code \xff}: the first system key, and the end of the normal key space. */
    public static final byte[] NORMAL_END = {(byte) 0xff};
    /** {@code \xff\xff}: the end of the key space readable with the system-key options. */
    public static final byte[] SYSTEM_END = {(byte) 0xff, (byte) 0xff};
    /** {@code \xff/metadataVersion}: readable by anyone, writable with SET_VERSIONSTAMPED_VALUE. */
    public static final byte[] METADATA_VERSION_KEY = concat(NORMAL_END, "/metadataVersion".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    /** Unsigned lexicographic order, shorter-is-smaller on a common prefix. */
    public static final Comparator<byte[]> COMPARATOR = Arrays::compareUnsigned;

    /** Reads 8 bytes of a key at once for {@link #hash}. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Reads 8 bytes of a key at once, in key order, for {@link #window}. */
    private static final VarHandle BIG_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private ByteKeys() {}

    /**
     * A well-mixed hash of a key's bytes, for the engine's hash indexes.
     *
     * <p>Not {@link Arrays#hashCode(byte[])}: that is a polynomial with base 31 over signed
     * bytes, so keys that differ only in their last bytes — sequential binary IDs, counters,
     * container numbers, exactly what layers write — collide in bulk (changing one byte by 1
     * and the next by -31 gives the same hash), and a hash map degrades into tree bins. This
     * one multiplies 8 bytes at a time by large odd constants and ends with MurmurHash3's
     * 64-bit finalizer, so every input bit reaches every output bit.
     */
    public static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    /** {@link #hash(byte[])} of the key {@code bytes[from, to)}. */
    public static int hash(byte[] bytes, int from, int to) {
        long h = 0x9E3779B97F4A7C15L ^ (to - from);
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(bytes, i), 29) * 0xC2B2AE3D27D4EB4FL;
        }
        for (; i < to; i++) {
            h = (h ^ (bytes[i] & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The eight bytes of {@code key} from {@code from} as an unsigned number, zero-padded past
     * its end (and before its start, for a negative {@code from}): two keys that share their
     * first {@code from} bytes and whose windows differ compare as their windows do; equal
     * windows need the whole keys. Sorted nodes keep their keys' windows after the bytes all
     * their keys share, so that a search decides most steps without loading a key's array.
     */
    public static long window(byte[] key, int from) {
        if (from >= 0 && key.length - from >= Long.BYTES) {
            return (long) BIG_ENDIAN_LONGS.get(key, from);
        }
        long w = 0;
        for (int i = from; i < from + Long.BYTES; i++) {
            w = w << 8 | (i >= 0 && i < key.length ? key[i] & 0xFF : 0);
        }
        return w;
    }

    public static byte[] min(byte[] a, byte[] b) {
        return compare(a, b) <= 0 ? a : b;
    }

    public static byte[] max(byte[] a, byte[] b) {
        return compare(a, b) >= 0 ? a : b;
    }

    /** The smallest key strictly greater than {@code key}: {@code key + \x00}. */
    public static byte[] keyAfter(byte[] key) {
        byte[] next = Arrays.copyOf(key, key.length + 1);
        return next;
    }

    /** True when {@code b} is {@code a + \x00}, i.e. {@code [a, b)} holds exactly the key {@code a}. */
    public static boolean isKeyAfter(byte[] a, byte[] b) {
        return b.length == a.length + 1 && b[a.length] == 0 && Arrays.equals(a, 0, a.length, b, 0, a.length);
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Printable form in FoundationDB's style: printable ASCII as is, other bytes as {@code \xNN}. */
    public static String printable(byte[] key) {
        if (key == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(key.length + 8);
        for (byte b : key) {
            int c = b & 0xff;
            if (c >= 32 && c < 127 && c != '\\') {
                sb.append((char) c);
            } else if (c == '\\') {
                sb.append("\\\\");
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.toString();
    }
}
