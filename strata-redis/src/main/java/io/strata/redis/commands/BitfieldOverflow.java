package io.strata.redis.commands;

/**
 * BITFIELD's overflow rules: whether {@code value + increment} fits in an integer of
 * {@code bits} bits, and what WRAP or SAT makes of it when it does not. Follows Redis's
 * {@code checkSignedBitfieldOverflow} and {@code checkUnsignedBitfieldOverflow} operation
 * for operation, two's complement wrap-around included, so that edge cases (a SET of a
 * negative value into an unsigned field, 64-bit fields) answer as Redis does.
 */
enum BitfieldOverflow {
    WRAP, SAT, FAIL;

    /**
     * The outcome of adding {@code increment} to {@code value}.
     *
     * @param overflowed whether the sum does not fit
     * @param result the value to store: the sum, or what WRAP or SAT made of it (unused with FAIL)
     */
    record Outcome(boolean overflowed, long result) {
    }

    /** For an unsigned field of {@code bits} (1..63) bits; {@code value} is taken as unsigned. */
    Outcome unsigned(long value, long increment, int bits) {
        long max = bits == 64 ? -1L : (1L << bits) - 1;
        long maxIncrement = max - value;
        long minIncrement = -value;
        if (Long.compareUnsigned(value, max) > 0 || (increment > 0 && increment > maxIncrement)) {
            return new Outcome(true, this == SAT ? max : wrapUnsigned(value, increment, bits));
        }
        if (increment < 0 && increment < minIncrement) {
            return new Outcome(true, this == SAT ? 0 : wrapUnsigned(value, increment, bits));
        }
        return new Outcome(false, value + increment);
    }

    /** For a signed field of {@code bits} (1..64) bits. */
    Outcome signed(long value, long increment, int bits) {
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        long min = -max - 1;
        // Both may wrap around; they are only used once value is known to be in range.
        long maxIncrement = max - value;
        long minIncrement = min - value;
        if (value > max || (bits != 64 && increment > maxIncrement)
                || (value >= 0 && increment > 0 && increment > maxIncrement)) {
            return new Outcome(true, this == SAT ? max : wrapSigned(value, increment, bits));
        }
        if (value < min || (bits != 64 && increment < minIncrement)
                || (value < 0 && increment < 0 && increment < minIncrement)) {
            return new Outcome(true, this == SAT ? min : wrapSigned(value, increment, bits));
        }
        return new Outcome(false, value + increment);
    }

    private static long wrapUnsigned(long value, long increment, int bits) {
        long mask = -1L << bits;
        return (value + increment) & ~mask;
    }

    private static long wrapSigned(long value, long increment, int bits) {
        long c = value + increment;
        if (bits < 64) {
            long mask = -1L << bits;
            long msb = 1L << (bits - 1);
            c = (c & msb) != 0 ? c | mask : c & ~mask;
        }
        return c;
    }
}
