package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.ordering.PerTransactionOrder;

import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * The random sharded sequences of seed 002: an ID is {@code sequence << counterBits | n},
 * where {@code sequence} is picked at random among {@code 2^sequenceBits} sequences and
 * {@code n} is the next value of that sequence's own counter. Contention on one hot counter
 * becomes contention on {@code 2^sequenceBits} counters, picked uniformly, so two concurrent
 * allocations conflict only when they pick the same sequence. The seed's layout is 32/32,
 * kvdb's 16/48; {@link SingleCounterAllocator} is 0/63.
 *
 * <h2>Key layout</h2>
 * <pre>
 * counters (the subspace given; a StringInterner passes its (2) subspace)
 *   sequence (8 bytes big-endian, appended raw) -&gt; last n handed out, 8 bytes big-endian
 *                                                  (absent = 0)
 * </pre>
 * Counters start at 1, so ID 0 is never handed out.
 *
 * <h2>Batches and exhaustion</h2>
 * One call reserves a whole batch with one counter read and one write: {@code count} IDs
 * {@code last+1 .. last+count} of one sequence. A sequence whose counter reached
 * {@code 2^counterBits - 1} is exhausted: its counter stays there forever, so it is never
 * used again, and the allocation picks another sequence (a batch that does not fit in what is
 * left takes the rest and continues in another sequence). After {@value #MAX_EXHAUSTED_PICKS}
 * exhausted picks in one call the space is deemed full: {@link IllegalStateException}.
 *
 * <h2>Why two committed transactions never get the same ID</h2>
 * An ID names its sequence and counter value, so two equal IDs came from the same counter
 * key with the same previous value. Each allocation reads the counter key
 * <em>serializably</em> (a read conflict range) and writes it (a write conflict range). If
 * T1 and T2 both commit, T1 first: either T1 committed after T2's read version, and T2's
 * read conflicts with T1's write (T2 fails with 1020, a contradiction); or T2 read a
 * snapshot containing T1's write and so started after T1's last value. Within one
 * transaction, calls are chained one after the other, so each reads the counter value the
 * previous call wrote (read-your-writes). Under {@code commit_unknown_result} an attempt
 * that did commit has advanced the counter; its IDs are burned, never reissued.
 *
 * <p>Thread-safe; randomness injectable for tests.
 */
public final class ShardedSequenceAllocator implements IdAllocator {
    /** Exhausted sequences tolerated in one call before the space is declared full. */
    static final int MAX_EXHAUSTED_PICKS = 64;

    private final Subspace counters;
    private final byte[] prefix;
    private final int sequenceBits;
    private final int counterBits;
    private final long maxCounter;
    private final LongSupplier random;
    /** Calls issued at once on one transaction run one after the other (see the class comment). */
    private final PerTransactionOrder order = new PerTransactionOrder();

    /** Sequences picked with {@link ThreadLocalRandom}. */
    public ShardedSequenceAllocator(Subspace counters, int sequenceBits, int counterBits) {
        this(counters, sequenceBits, counterBits, () -> ThreadLocalRandom.current().nextLong());
    }

    /** Sequences picked from {@code random} (reproducible tests). */
    public ShardedSequenceAllocator(Subspace counters, int sequenceBits, int counterBits, Random random) {
        this(counters, sequenceBits, counterBits, Objects.requireNonNull(random)::nextLong);
    }

    private ShardedSequenceAllocator(Subspace counters, int sequenceBits, int counterBits, LongSupplier random) {
        if (sequenceBits < 0 || counterBits < 1 || counterBits > 63 || sequenceBits + counterBits > 64) {
            throw new IllegalArgumentException("need 0 <= sequenceBits, 1 <= counterBits <= 63, sequenceBits + counterBits <= 64: "
                    + sequenceBits + "/" + counterBits);
        }
        this.counters = Objects.requireNonNull(counters);
        this.prefix = counters.getKey();
        this.sequenceBits = sequenceBits;
        this.counterBits = counterBits;
        this.maxCounter = (1L << counterBits) - 1;
        this.random = random;
    }

    public int sequenceBits() {
        return sequenceBits;
    }

    public int counterBits() {
        return counterBits;
    }

    /** The subspace of the counters. */
    public Subspace counters() {
        return counters;
    }

    @Override
    public CompletableFuture<long[]> allocate(Transaction tr, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count < 0: " + count);
        }
        if (count == 0) {
            return CompletableFuture.completedFuture(new long[0]);
        }
        return order.run(tr, () -> fill(tr, new long[count], 0, 0));
    }

    private CompletableFuture<long[]> fill(Transaction tr, long[] out, int filled, int exhaustedPicks) {
        if (filled == out.length) {
            return CompletableFuture.completedFuture(out);
        }
        if (exhaustedPicks >= MAX_EXHAUSTED_PICKS) {
            return CompletableFuture.failedFuture(new IllegalStateException("no sequence with free IDs after "
                    + exhaustedPicks + " random picks: the " + sequenceBits + "/" + counterBits + " ID space is (nearly) exhausted"));
        }
        long sequence = sequenceBits == 0 ? 0 : random.getAsLong() >>> (64 - sequenceBits);
        byte[] key = counterKey(sequence);
        return tr.get(key).thenCompose(value -> { // serializable: the read conflict the argument needs
            long last = value == null ? 0 : Bytes.bigEndian(value);
            if (last >= maxCounter) {
                return fill(tr, out, filled, exhaustedPicks + 1);
            }
            int take = (int) Math.min(out.length - filled, maxCounter - last);
            long base = sequence << counterBits;
            for (int i = 0; i < take; i++) {
                out[filled + i] = base | (last + 1 + i);
            }
            tr.set(key, Bytes.bigEndian(last + take));
            return fill(tr, out, filled + take, exhaustedPicks);
        });
    }

    /** How many transactions have an allocation in flight (for tests: finished ones must not be kept). */
    int transactionsInFlight() {
        return order.transactionsInFlight();
    }

    byte[] counterKey(long sequence) {
        return Bytes.concat(prefix, Bytes.bigEndian(sequence));
    }
}
