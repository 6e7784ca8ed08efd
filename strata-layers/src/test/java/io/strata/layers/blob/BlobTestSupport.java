package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/** Values, names and raw looks at the store's keys, shared by the blob tests. */
final class BlobTestSupport {
    private BlobTestSupport() {}

    static byte[] name(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code n} pseudo-random bytes from {@code seed}. */
    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i += 8) {
            long v = random.nextLong();
            for (int j = i; j < Math.min(n, i + 8); j++) {
                b[j] = (byte) v;
                v >>>= 8;
            }
        }
        return b;
    }

    /** Every key-value pair under {@code subspace}. */
    static List<KeyValue> stored(Database db, Subspace subspace) {
        return db.readAsync(tr -> tr.getRange(subspace.range()).asList()).join();
    }

    /** How many keys there are under {@code subspace}. */
    static long countKeys(Database db, Subspace subspace) {
        return db.readAsync(tr -> tr.getRange(subspace.range()).asList()).join().size();
    }
}
