package io.strata.redis.commands;

import io.strata.redis.command.Strtod;

/**
 * SORT's numeric reading of a value, as Redis's {@code sortCommand} reads it: C's
 * {@code strtod} ({@link Strtod}: leading white space skipped; decimal, hexadecimal,
 * {@code inf} or {@code infinity}), then refused only if the reading stopped before the end at
 * a byte other than NUL, or {@code errno} is {@code ERANGE}, or the number is NaN. So the empty
 * string and {@code "\0"} read as 0, and {@code "1\0x"} as 1.
 */
final class SortScore {
    private SortScore() {
    }

    /** The value as a double, or null when Redis would answer "One or more scores can't be converted into double". */
    static Double parse(byte[] value) {
        Strtod.Result r = Strtod.parse(value, 0);
        if ((r.end() < value.length && value[r.end()] != 0) || r.erange() || Double.isNaN(r.value())) {
            return null;
        }
        return r.value();
    }
}
