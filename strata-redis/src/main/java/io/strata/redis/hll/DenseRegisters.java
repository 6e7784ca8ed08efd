package io.strata.redis.hll;

/**
 * The dense register layout: {@link HyperLogLog#REGISTERS} six-bit registers packed from the
 * least significant bit of each byte up, register {@code i} starting at bit {@code 6 * i} of
 * the bytes that follow the header. Operates on a value's bytes in place. A register's second
 * byte is read and written even for the last register, whose bits all lie in one byte, so the
 * array must have one byte after the registers (a value buffer always does).
 */
final class DenseRegisters {
    private DenseRegisters() {
    }

    /** Register {@code index} of the dense registers at {@code base}. */
    static int get(byte[] b, int base, int index) {
        int bit = index * HyperLogLog.BITS;
        int at = base + (bit >>> 3);
        int shift = bit & 7;
        int low = b[at] & 0xff;
        int high = b[at + 1] & 0xff;
        return ((low >>> shift) | (high << (8 - shift))) & HyperLogLog.REGISTER_MAX;
    }

    /** Sets register {@code index} to {@code value} (0..63), leaving its neighbours' bits alone. */
    static void set(byte[] b, int base, int index, int value) {
        int bit = index * HyperLogLog.BITS;
        int at = base + (bit >>> 3);
        int shift = bit & 7;
        int rest = 8 - shift;
        b[at] = (byte) ((b[at] & ~(HyperLogLog.REGISTER_MAX << shift)) | (value << shift));
        b[at + 1] = (byte) ((b[at + 1] & ~(HyperLogLog.REGISTER_MAX >>> rest)) | (value >>> rest));
    }

    /** Raises register {@code index} to {@code count} if it is lower; whether it changed. */
    static boolean raise(byte[] b, int base, int index, int count) {
        if (count <= get(b, base, index)) {
            return false;
        }
        set(b, base, index, count);
        return true;
    }

    /** Adds each register's value to {@code histogram} (64 entries). */
    static void histogram(byte[] b, int base, int[] histogram) {
        for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
            histogram[get(b, base, i)]++;
        }
    }

    /** Raises {@code max[i]} to register {@code i} wherever the register is higher. */
    static void mergeInto(byte[] b, int base, byte[] max) {
        for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
            int v = get(b, base, i);
            if (v > max[i]) {
                max[i] = (byte) v;
            }
        }
    }
}
