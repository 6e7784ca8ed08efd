package io.strata.engine.util;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hash of the engine's hash indexes spreads keys that differ only in their last bytes —
 * sequential IDs behind a prefix, as an interner's reverse keys or a set's container keys —
 * where {@link Arrays#hashCode(byte[])} piles them onto a fraction of the hash values.
 */
class ByteKeysHashTest {
    private static final int KEYS = 200_000;

    private static byte[] sequentialKey(long id) {
        return ByteBuffer.allocate(11).put(new byte[] {0x15, 0x01, 0x02}).putLong((7L << 32) | id).array();
    }

    @Test
    void sequentialIdsBehindAPrefixGetDistinctHashes() {
        Set<Integer> ours = new HashSet<>();
        Set<Integer> polynomial = new HashSet<>();
        for (long id = 0; id < KEYS; id++) {
            byte[] key = sequentialKey(id);
            ours.add(ByteKeys.hash(key));
            polynomial.add(Arrays.hashCode(key));
        }
        // A random 32-bit hash would collide about KEYS^2 / 2^33 ≈ 5 times.
        assertThat(ours.size()).isGreaterThan(KEYS - 50);
        assertThat(polynomial.size()).as("the problem this hash exists for").isLessThan(KEYS / 4);
    }

    @Test
    void everyByteAndTheLengthCount() {
        byte[] base = "some/key/with/a/tail".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        Set<Integer> hashes = new HashSet<>();
        hashes.add(ByteKeys.hash(base));
        for (int i = 0; i < base.length; i++) {
            byte[] changed = base.clone();
            changed[i] ^= 1;
            hashes.add(ByteKeys.hash(changed));
        }
        hashes.add(ByteKeys.hash(Arrays.copyOf(base, base.length + 1))); // a trailing zero byte
        hashes.add(ByteKeys.hash(new byte[0]));
        assertThat(hashes).hasSize(base.length + 3);
        assertThat(ByteKeys.hash(base.clone())).isEqualTo(ByteKeys.hash(base));
    }
}
