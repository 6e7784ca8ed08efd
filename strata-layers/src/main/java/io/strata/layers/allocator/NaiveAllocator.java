package io.strata.layers.allocator;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The naive allocator of seed 000: one counter, read, incremented and written back by
 * every allocation. Kept for comparison with {@link HighContentionAllocator}; do not use it
 * where allocations are frequent.
 *
 * <h2>Key layout</h2>
 * <pre>
 * subspace
 *   ("counter") -&gt; the last value handed out, 8 bytes big-endian (absent = 0)
 * </pre>
 *
 * <h2>Result</h2>
 * The n-th allocation (n = 1, 2, ...) returns n in big-endian with no leading zero bytes,
 * prefixed by its byte length: 1 is {@code 01 01}, 255 is {@code 01 ff}, 256 is
 * {@code 02 01 00}. The length byte makes the results prefix-free: {@code 05} and
 * {@code 05 01} as bare numbers would be a prefix of each other, {@code 01 05} and
 * {@code 02 05 01} are not.
 *
 * <h2>Why it is correct</h2>
 * Every allocation reads the counter key (a serializable read: a read conflict range) and
 * writes it (a write conflict range). Of two concurrent allocations, whichever commits
 * second has read a key the first one wrote after its read version, so it fails with
 * {@code not_committed} (1020) and retries on the new value. Committed allocations are
 * therefore serial, each sees the previous one's write, and no value is returned twice.
 * Under {@code commit_unknown_result} (1021) the retry increments again: a transaction that
 * did commit burns its value, but the caller only ever receives the value of the attempt
 * that committed last, which nobody else received.
 *
 * <h2>Why it does not scale</h2>
 * The same property that makes it correct serializes it: at most one of the allocations
 * whose read-to-commit intervals overlap can commit, so throughput is capped near one
 * allocation per commit latency (about 300/s on a networked cluster, seed 000) however
 * many clients allocate, and adding clients only adds conflicts and retries.
 *
 * <p>Thread-safe: holds no mutable state.
 */
public final class NaiveAllocator implements PrefixAllocator {
    private final byte[] counterKey;

    /** An allocator whose counter lives at {@code subspace.pack(("counter"))}. */
    public NaiveAllocator(Subspace subspace) {
        this.counterKey = Objects.requireNonNull(subspace).pack(Tuple.from("counter"));
    }

    /** The key holding the counter. */
    public byte[] counterKey() {
        return counterKey.clone();
    }

    @Override
    public CompletableFuture<byte[]> allocate(Transaction tr) {
        return tr.get(counterKey).thenApply(current -> {
            long next = (current == null ? 0 : ByteBuffer.wrap(current).getLong()) + 1;
            tr.set(counterKey, ByteBuffer.allocate(Long.BYTES).putLong(next).array());
            return encode(next);
        });
    }

    /**
     * {@code value} (positive) as its minimal big-endian bytes, prefixed by their count:
     * {@code encode(0x0501) = 02 05 01}.
     */
    static byte[] encode(long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("allocated values are positive, got " + value);
        }
        int length = (Long.SIZE - Long.numberOfLeadingZeros(value) + 7) / 8;
        byte[] out = new byte[1 + length];
        out[0] = (byte) length;
        for (int i = 0; i < length; i++) {
            out[length - i] = (byte) (value >>> (8 * i));
        }
        return out;
    }
}
