package io.strata.engine.client;

import com.apple.foundationdb.KeyArrayResult;

import java.io.ByteArrayOutputStream;
import java.util.List;

/** Packs keys into fdb-java's {@link KeyArrayResult} (concatenated bytes plus lengths). */
final class SplitPoints {
    private SplitPoints() {}

    static KeyArrayResult of(List<byte[]> keys) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int[] lengths = new int[keys.size()];
        for (int i = 0; i < lengths.length; i++) {
            byte[] k = keys.get(i);
            bytes.write(k, 0, k.length);
            lengths[i] = k.length;
        }
        return new KeyArrayResult(bytes.toByteArray(), lengths);
    }
}
