package io.strata.redis.commands;

/**
 * Bit arithmetic on a string's bytes, as Redis numbers bits: bit 0 is the most significant bit
 * of byte 0. Pure functions on arrays; the commands read and write the arrays through
 * {@link StringValues}.
 */
final class Bits {
    private Bits() {
    }

    /** The bit at {@code offset}; bits past the end are 0. */
    static int get(byte[] s, long offset) {
        long index = offset >>> 3;
        if (index >= s.length) {
            return 0;
        }
        return (s[(int) index] >> (7 - (int) (offset & 7))) & 1;
    }

    /** Sets the bit at {@code offset} (which must lie inside {@code s}) to {@code value}. */
    static void set(byte[] s, long offset, int value) {
        int index = (int) (offset >>> 3);
        int mask = 1 << (7 - (int) (offset & 7));
        s[index] = (byte) (value != 0 ? s[index] | mask : s[index] & ~mask);
    }

    /** The number of set bits in bytes {@code [from, to]} (inclusive). */
    static long popcount(byte[] s, int from, int to) {
        long n = 0;
        for (int i = from; i <= to; i++) {
            n += Integer.bitCount(s[i] & 0xff);
        }
        return n;
    }

    /**
     * The position of the first bit equal to {@code bit} in bytes {@code [from, from + count)},
     * counted from bit 0 of byte {@code from}; when none is found: -1 looking for a 1, and
     * {@code count * 8} looking for a 0 (Redis's {@code redisBitpos}: the string is seen as
     * padded with zeros on the right).
     */
    static long position(byte[] s, int from, int count, int bit) {
        for (int i = 0; i < count; i++) {
            int b = s[from + i] & 0xff;
            int candidate = bit == 1 ? b : ~b & 0xff;
            if (candidate != 0) {
                return (long) i * 8 + Integer.numberOfLeadingZeros(candidate) - 24;
            }
        }
        return bit == 1 ? -1 : (long) count * 8;
    }

    /** The unsigned integer of {@code bits} bits at {@code offset}; bits past the end read as 0. */
    static long getUnsigned(byte[] s, long offset, int bits) {
        long value = 0;
        for (int j = 0; j < bits; j++) {
            value = (value << 1) | get(s, offset + j);
        }
        return value;
    }

    /** The two's complement integer of {@code bits} bits at {@code offset}. */
    static long getSigned(byte[] s, long offset, int bits) {
        long value = getUnsigned(s, offset, bits);
        if (bits < 64 && (value & (1L << (bits - 1))) != 0) {
            value |= -1L << bits;
        }
        return value;
    }

    /** Writes the low {@code bits} bits of {@code value} at {@code offset}, most significant first. */
    static void setInteger(byte[] s, long offset, int bits, long value) {
        for (int j = 0; j < bits; j++) {
            set(s, offset + j, (int) (value >>> (bits - 1 - j)) & 1);
        }
    }
}
