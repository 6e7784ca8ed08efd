package io.strata.layers.allocator;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncUtil;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

/**
 * FoundationDB's High Contention Allocator (seed 001), usable on any subspace, in exactly
 * the key format of the allocator that fdb-java's {@code DirectoryLayer} keeps private: run
 * on the directory layer's {@link #forDirectoryLayer allocator subspace} it shares state
 * with the official directory layer, and neither ever hands out a prefix the other did.
 *
 * <h2>Key layout</h2>
 * <pre>
 * subspace
 *   (0, start)     -&gt; how many allocations were attempted in the window beginning at
 *                     start: 8 bytes little-endian, maintained by atomic ADD only.
 *                     The largest start present is the current window.
 *   (1, candidate) -&gt; empty: candidate is reserved (handed out, or burned)
 * </pre>
 * The window beginning at {@code start} is {@code [start, start + windowSize(start))} with
 * {@link #windowSize} 64 below 255, 1024 below 65535 and 8192 from there on. A window is
 * abandoned once half of it has been attempted; the transaction that moves to the next one
 * clears the counters and the reservations below the new start.
 *
 * <p>The result is {@code Tuple.from(candidate).pack()}: the integer's tuple encoding,
 * which is prefix-free and short (2 bytes up to 255), and is what the directory layer
 * appends to its content subspace.
 *
 * <h2>Algorithm</h2>
 * <ol>
 *   <li>Snapshot-read the last counter key: its start is the current window (0 if none).</li>
 *   <li>ADD 1 to that window's counter and snapshot-read it back (read-your-writes includes
 *       the ADD). If the count reached half the window, move to the next window, clear the
 *       older counters and (without a write conflict range) the older reservations, and
 *       repeat.</li>
 *   <li>Pick a random candidate in the window. In one step: snapshot-read the last counter
 *       again; read {@code (1, candidate)} <em>serializably</em>; write
 *       {@code (1, candidate)} without a write conflict range.</li>
 *   <li>If the last counter's start is now beyond our window (another allocation in the same
 *       transaction moved it and cleared reservations we would be reading), start over at
 *       step 1. If {@code (1, candidate)} was already present, pick again. Otherwise add an
 *       explicit write conflict on {@code (1, candidate)} and return it.</li>
 * </ol>
 *
 * <h2>Why two committed transactions never get the same candidate</h2>
 * Conflict ranges are what make FoundationDB serializable, and this allocator switches most
 * of them off on purpose, so the argument rests on the few it keeps. A transaction that
 * returns {@code x} has (a) a <em>read</em> conflict range on {@code (1, x)}, from the
 * serializable read that found it absent, and (b) a <em>write</em> conflict range on
 * {@code (1, x)}, from {@code addWriteConflictKey}. Suppose T1 and T2 both return {@code x}
 * and both commit, T1 first (commits are totally ordered).
 * <ul>
 *   <li>If T1 committed after T2's read version, T2's read conflict range on {@code (1, x)}
 *       meets T1's write conflict range on the same key, written after T2's read version:
 *       the resolver rejects T2 with {@code not_committed}. Contradiction.</li>
 *   <li>If T1 committed at or before T2's read version, T2 reads a snapshot that contains
 *       T1's {@code (1, x)}, unless a later transaction A cleared it before T2's read
 *       version. A clears reservations only below the window start whose counter it ADDs
 *       in the same transaction, and counters are cleared only below a larger start, so
 *       the largest counter start never decreases. T2, reading after A, starts from a
 *       window at or beyond A's, entirely above {@code x}, and never considers {@code x}.
 *       Contradiction.</li>
 * </ul>
 * Everything else is deliberately conflict-free, and that is what lets the allocator scale:
 * the counters are read only by snapshot reads and changed only by atomic ADD and by clears,
 * so allocators never conflict on them; the clear of old reservations carries no write
 * conflict range, so it does not abort the allocators still working in the old window
 * (they are covered by MVCC: they read at a version before the clear); and the
 * {@code (1, candidate)} write carries a conflict range only once the candidate was found
 * free, so a transaction that merely looked at a taken candidate aborts nobody. Two
 * allocations conflict only when they pick the same free candidate, which with a window
 * at least twice the number of concurrent allocators is rare.
 *
 * <p>Under {@code commit_unknown_result} (1021) a transaction that in fact committed has
 * reserved its candidate; the retry sees the reservation (or a later window) and picks
 * another, so that candidate is burned, never handed out twice. A caller must use the
 * result of the attempt that committed, as a {@code db.run} retry loop does.
 *
 * <h2>Differences from fdb-java</h2>
 * The count is decoded as an unsigned 64-bit little-endian integer; fdb-java's
 * {@code unpackLittleEndian} sums sign-extended bytes into an {@code int}, which misreads
 * counts with a byte of 128 or more (for example 0x0280 reads as 384). Only the moment a
 * window is abandoned can differ, never uniqueness. Randomness can be injected for tests.
 *
 * <p>Thread-safe. Several allocations may run concurrently in one transaction; like
 * fdb-java, each step that pairs an option with the write it applies to is issued under a
 * lock, so another allocation's write cannot slip in between.
 */
public final class HighContentionAllocator implements PrefixAllocator {
    private static final byte[] LITTLE_ENDIAN_ONE = {1, 0, 0, 0, 0, 0, 0, 0};
    private static final byte[] EMPTY = new byte[0];
    private static final byte[] DIRECTORY_HCA_KEY = "hca".getBytes(StandardCharsets.UTF_8);
    /**
     * Serializes the issuing of paired operations ("no write conflict range" + the write it
     * applies to) across allocations sharing a transaction. Static for the reason fdb-java
     * gives: there is nothing transaction-local to lock, and locking the transaction could
     * deadlock with a caller who does.
     */
    private static final Object ISSUE_LOCK = new Object();

    private final Subspace subspace;
    private final Subspace counters;
    private final Subspace recent;
    private final IntUnaryOperator nextInt;

    /** An allocator on {@code subspace}, picking candidates with {@link ThreadLocalRandom}. */
    public HighContentionAllocator(Subspace subspace) {
        this(subspace, bound -> ThreadLocalRandom.current().nextInt(bound));
    }

    /** An allocator on {@code subspace} picking candidates from {@code random} (for reproducible tests). */
    public HighContentionAllocator(Subspace subspace, Random random) {
        this(subspace, Objects.requireNonNull(random)::nextInt);
    }

    private HighContentionAllocator(Subspace subspace, IntUnaryOperator nextInt) {
        this.subspace = Objects.requireNonNull(subspace);
        this.counters = subspace.get(0);
        this.recent = subspace.get(1);
        this.nextInt = nextInt;
    }

    /**
     * The allocator that fdb-java's {@code new DirectoryLayer(nodeSubspace, contentSubspace)}
     * uses: on {@code nodeSubspace.get(nodeSubspace.getKey()).get("hca" as bytes)}. For the
     * default directory layer ({@code nodeSubspace} = {@code \xFE}) that is the raw prefix
     * {@code \xFE \x01\xFE\x00 \x01hca\x00}.
     */
    public static HighContentionAllocator forDirectoryLayer(Subspace nodeSubspace) {
        return new HighContentionAllocator(directoryLayerSubspace(nodeSubspace));
    }

    /** The subspace of the allocator of the directory layer with {@code nodeSubspace}. */
    public static Subspace directoryLayerSubspace(Subspace nodeSubspace) {
        return nodeSubspace.get(nodeSubspace.getKey()).get(DIRECTORY_HCA_KEY);
    }

    /** The subspace this allocator keeps its state in. */
    public Subspace subspace() {
        return subspace;
    }

    /**
     * The size of the window that begins at {@code start}: small windows keep early results
     * short, larger ones keep contention low once many values exist, and the cap bounds the
     * reservations kept (about half a window). Identical to fdb-java's.
     */
    public static int windowSize(long start) {
        if (start < 255) {
            return 64;
        }
        if (start < 65535) {
            return 1024;
        }
        return 8192;
    }

    @Override
    public CompletableFuture<byte[]> allocate(Transaction tr) {
        return new Search(tr).run();
    }

    /** One allocation's state; confined to the allocation's chain of callbacks. */
    private final class Search {
        private final Transaction tr;
        private long windowStart;
        private int windowSize;
        private long candidate;
        private boolean restart;

        Search(Transaction tr) {
            this.tr = tr;
        }

        CompletableFuture<byte[]> run() {
            // Plain (not *Async) stages: a read that is already complete continues inline, and
            // whileTrue loops inline over completed steps, so an allocation costs no thread
            // hand-offs unless a read really has to wait.
            return AsyncUtil.whileTrue(() -> latestWindowStart()
                    .thenCompose(latest -> {
                        if (latest != null) {
                            windowStart = latest;
                        }
                        return chooseWindow();
                    })
                    .thenCompose(ignore -> choosePrefix()), tr.getExecutor())
                    .thenApply(ignore -> Tuple.from(candidate).pack());
        }

        /** The start of the last counter, by a snapshot read (no read conflict); null when there is none. */
        private CompletableFuture<Long> latestWindowStart() {
            return lastCounter().thenApply(HighContentionAllocator.this::startOf);
        }

        private CompletableFuture<List<KeyValue>> lastCounter() {
            return tr.snapshot().getRange(counters.range(), 1, true).asList();
        }

        /** Counts this attempt in the current window, moving on while the window is half used. */
        private CompletableFuture<Void> chooseWindow() {
            long initialWindowStart = windowStart;
            return AsyncUtil.whileTrue(() -> {
                byte[] counterKey = counters.pack(Tuple.from(windowStart));
                CompletableFuture<byte[]> count;
                synchronized (ISSUE_LOCK) {
                    if (windowStart > initialWindowStart) {
                        tr.clear(new Range(counters.getKey(), counterKey));
                        tr.options().setNextWriteNoWriteConflictRange();
                        tr.clear(new Range(recent.getKey(), recent.pack(Tuple.from(windowStart))));
                    }
                    tr.mutate(MutationType.ADD, counterKey, LITTLE_ENDIAN_ONE);
                    count = tr.snapshot().get(counterKey);
                }
                return count.thenApply(bytes -> {
                    long attempts = bytes == null ? 0 : littleEndian(bytes);
                    windowSize = windowSize(windowStart);
                    if (attempts * 2 >= windowSize) {
                        windowStart += windowSize;
                        return true;
                    }
                    return false;
                });
            }, tr.getExecutor());
        }

        /** Picks candidates until one is free (done) or the window moved under us (restart). */
        private CompletableFuture<Boolean> choosePrefix() {
            restart = false;
            return AsyncUtil.whileTrue(() -> {
                candidate = windowStart + nextInt.applyAsInt(windowSize);
                byte[] reservationKey = recent.pack(Tuple.from(candidate));
                CompletableFuture<List<KeyValue>> last;
                CompletableFuture<byte[]> reservation;
                synchronized (ISSUE_LOCK) {
                    last = lastCounter();
                    reservation = tr.get(reservationKey); // serializable: the read conflict the argument needs
                    tr.options().setNextWriteNoWriteConflictRange();
                    tr.set(reservationKey, EMPTY);
                }
                return last.thenCombine(reservation, (lastKv, reserved) -> {
                    Long latest = startOf(lastKv);
                    if (latest != null && latest > windowStart) {
                        restart = true;
                        return false;
                    }
                    if (reserved == null) {
                        tr.addWriteConflictKey(reservationKey);
                        return false;
                    }
                    return true;
                });
            }, tr.getExecutor()).thenApply(ignore -> restart);
        }
    }

    private Long startOf(List<KeyValue> lastCounter) {
        return lastCounter.isEmpty() ? null : counters.unpack(lastCounter.get(0).getKey()).getLong(0);
    }

    /** An unsigned little-endian integer of up to 8 bytes. */
    static long littleEndian(byte[] bytes) {
        long value = 0;
        for (int i = Math.min(bytes.length, Long.BYTES) - 1; i >= 0; i--) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }
}
