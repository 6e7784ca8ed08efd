package io.strata.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Values for the tests of values too large for one transaction. */
final class LargeTestValues {
    private LargeTestValues() {
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code prefix + 0}, {@code prefix + 1}, ... {@code n} of them, as UTF-8. */
    static List<byte[]> numbered(String prefix, int n) {
        List<byte[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(b(prefix + i));
        }
        return out;
    }
}
