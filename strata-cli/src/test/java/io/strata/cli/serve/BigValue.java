package io.strata.cli.serve;

/**
 * The large values of the crash test: {@code B<seq>:} then filler that depends on
 * {@code seq} at every position, so the model keeps a short identity ({@code #<seq>/<length>})
 * instead of the bytes, and a value read back is checked byte for byte — a value stitched
 * from two writes' chunks, or cut short, has no identity.
 */
final class BigValue {
    private BigValue() {}

    static String of(long seq, int length) {
        StringBuilder b = new StringBuilder(length).append('B').append(seq).append(':');
        long x = seq * 0x9E3779B97F4A7C15L + 1;
        while (b.length() < length) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.append((char) ('a' + (int) ((x >>> 33) % 26)));
        }
        return b.toString();
    }

    static String identity(long seq, int length) {
        return "#" + seq + "/" + length;
    }

    /** The identity of {@code value}, or a description of why it is no value this test wrote. */
    static String identify(String value) {
        int colon = value.indexOf(':');
        if (!value.startsWith("B") || colon < 2) {
            return "not a large value: " + value.substring(0, Math.min(40, value.length()));
        }
        long seq;
        try {
            seq = Long.parseLong(value.substring(1, colon));
        } catch (NumberFormatException e) {
            return "not a large value: " + value.substring(0, Math.min(40, value.length()));
        }
        return value.equals(of(seq, value.length())) ? identity(seq, value.length())
                : "damaged large value " + seq + " of " + value.length() + " chars";
    }
}
