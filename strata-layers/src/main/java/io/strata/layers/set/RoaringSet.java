package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import com.apple.foundationdb.async.AsyncUtil;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import org.roaringbitmap.ArrayContainer;
import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A named set of unsigned 64-bit members, stored as roaring containers: one small key per
 * 2^16 members that share their high 48 bits, so adding or removing a member reads and
 * writes one value of at most 8 KiB, never the whole set. Strings (or anything else) become
 * members through an interner that maps them to {@code long} ids; this class sees only ids.
 *
 * <h2>Key layout</h2>
 * <pre>
 * subspace
 *   (0)                -&gt; cardinality: 8 bytes little-endian two's complement, changed only
 *                         by atomic ADD of the delta (absent = 0)
 *   (1) ++ h[6 bytes]  -&gt; the container of members h &lt;&lt; 16 | low: the low 16 bits in
 *                         {@link ContainerCodec}'s encoding (array 1 + 2n bytes, bitmap 8193,
 *                         runs 1 + 4r)
 * </pre>
 * {@code (0)} and {@code (1)} are tuple-encoded ({@code 0x14}, {@code 0x15 0x01}); {@code h}
 * is the high 48 bits of the member, appended raw and big-endian, so that key order is
 * unsigned member order and a range read yields the members sorted (members are unsigned
 * throughout, as in {@code Roaring64Bitmap}: {@code -1L} is 2^64-1, the largest). An empty
 * container is deleted, never stored, so the number of container keys is the number of
 * non-empty 2^16-blocks. A key is the subspace prefix plus 8 bytes; a value is at most 8,193
 * bytes, far below FoundationDB's 100,000-byte limit.
 *
 * <h2>Concurrency</h2>
 * {@code add}/{@code remove} (and the batch forms) read each touched container
 * <em>serializably</em> and write it back only when it changed. The read puts a read conflict
 * range on that container key, so of two transactions that change the same container
 * concurrently, the one that commits second conflicts (1020) and retries against the first
 * one's result: a container is never overwritten from a stale read. Changes to different
 * containers never conflict. The cardinality is not read; it is changed by atomic ADD of the
 * difference between the container's cardinality after and before, which carries only a
 * write conflict range, so the counter is not a hot spot: concurrent writers to different
 * containers never conflict on it. Invariant: in every committed state the counter equals
 * the sum of the stored containers' cardinalities. It holds because each committed
 * transaction adds exactly {@code after - before} for each container it rewrites, where
 * {@code before} is the container's value at the transaction's commit version (the
 * serializable read guarantees nothing changed it in between) and {@code after} is what it
 * writes.
 *
 * <p>Under {@code commit_unknown_result} (1021) the transaction may have committed. The retry
 * runs in a fresh transaction that re-reads the containers: if the first attempt committed,
 * the member is already there, the container does not change, and the delta is 0; so a
 * re-applied {@code add} never increments twice and a re-applied {@code remove} never
 * decrements twice. The count stays exact; what can change is the answer: the retry of an
 * {@code add} whose first attempt did commit returns {@code false} ("already present").
 *
 * <p>Reads: {@link #contains} and {@link #cardinality} take a {@link ReadTransaction}, so a
 * caller passes {@code tr.snapshot()} to read without conflicting with concurrent writers
 * (a serializable {@code cardinality} read conflicts with every concurrent change of the
 * set, since every change ADDs to the counter).
 *
 * <p>Operations on one set within one transaction must be sequenced (wait for one's future
 * before starting the next): two concurrent changes in the same transaction could both read
 * the container before either writes it, and the second write would lose the first one's
 * members while both counted them. Operations on different sets may overlap freely.
 *
 * <h2>Transaction limits</h2>
 * A batch of members touching {@code k} containers reads and writes {@code k} values; keep a
 * transaction's writes well under FoundationDB's 10,000,000-byte limit and its duration
 * under 5 seconds. {@link #addAll(Database, long[], int)} splits a bulk load into
 * transactions of a given number of members.
 *
 * <p>Thread-safe and immutable; it holds only the subspace.
 */
public final class RoaringSet {
    private static final int HIGH_BYTES = 6;

    private final Subspace subspace;
    private final byte[] counterKey;
    private final byte[] containerPrefix;
    private final Range containerRange;

    /** The set stored under {@code subspace}; the set is empty until something is added. */
    public RoaringSet(Subspace subspace) {
        this.subspace = Objects.requireNonNull(subspace);
        // subspace.pack(Tuple.from(0)) and (1), without encoding the tuples for every set opened.
        byte[] raw = subspace.getKey();
        this.counterKey = ByteArrayUtil.join(raw, COUNTER_SUFFIX);
        this.containerPrefix = ByteArrayUtil.join(raw, CONTAINERS_SUFFIX);
        this.containerRange = new Range(containerPrefix, ByteArrayUtil.join(raw, CONTAINERS_SUFFIX_END));
    }

    private static final byte[] COUNTER_SUFFIX = Tuple.from(0).pack();
    private static final byte[] CONTAINERS_SUFFIX = Tuple.from(1).pack();
    /** strinc of {@link #CONTAINERS_SUFFIX}, whose last byte is not 0xff: so strinc of any prefix ending in it. */
    private static final byte[] CONTAINERS_SUFFIX_END = ByteArrayUtil.strinc(CONTAINERS_SUFFIX);

    /** The subspace holding this set. */
    public Subspace subspace() {
        return subspace;
    }

    // ---- changes ----

    /** Adds {@code member}; completes with whether it was absent (see the class notes on 1021). */
    public CompletableFuture<Boolean> add(Transaction tr, long member) {
        return changeSorted(tr, new long[] {member}, true).thenApply(n -> n == 1);
    }

    /** Removes {@code member}; completes with whether it was present. */
    public CompletableFuture<Boolean> remove(Transaction tr, long member) {
        return changeSorted(tr, new long[] {member}, false).thenApply(n -> n == 1);
    }

    /**
     * Adds every member of {@code members} (any order, duplicates allowed), reading and
     * writing each touched container once; completes with how many distinct members were absent.
     */
    public CompletableFuture<Long> addAll(Transaction tr, long... members) {
        return changeSorted(tr, sortedUnsigned(members), true);
    }

    /** Adds every member of {@code members}; completes with how many of them were absent. */
    public CompletableFuture<Long> addAll(Transaction tr, Roaring64Bitmap members) {
        return changeSorted(tr, members.toArray(), true); // toArray is in unsigned order
    }

    /** Removes every member of {@code members}, each touched container once; completes with how many distinct members were present. */
    public CompletableFuture<Long> removeAll(Transaction tr, long... members) {
        return changeSorted(tr, sortedUnsigned(members), false);
    }

    /** Removes every member of {@code members}; completes with how many were present. */
    public CompletableFuture<Long> removeAll(Transaction tr, Roaring64Bitmap members) {
        return changeSorted(tr, members.toArray(), false);
    }

    /** Removes every member (and the counter): one range clear. */
    public void clear(Transaction tr) {
        tr.clear(subspace.range());
    }

    // ---- reads ----

    /** Whether {@code member} is in the set; reads one container, decoding none of it. */
    public CompletableFuture<Boolean> contains(ReadTransaction tr, long member) {
        return tr.get(containerKey(member >>> 16))
                .thenApply(value -> value != null && ContainerCodec.contains(value, (char) member));
    }

    /** The number of members: one read of the counter. */
    public CompletableFuture<Long> cardinality(ReadTransaction tr) {
        return tr.get(counterKey).thenApply(value -> value == null ? 0L : littleEndian(value));
    }

    /** The members in unsigned order, read container by container as the iteration proceeds. */
    public AsyncIterable<Long> members(ReadTransaction tr) {
        return members(tr, 0L);
    }

    /** The members at or above {@code fromInclusive} (unsigned), in unsigned order. */
    public AsyncIterable<Long> members(ReadTransaction tr, long fromInclusive) {
        Range range = new Range(containerKey(fromInclusive >>> 16), containerRange.end);
        int prefixLength = containerPrefix.length;
        return new AsyncIterable<>() {
            @Override
            public AsyncIterator<Long> iterator() {
                return new MemberIterator(tr.getRange(range).iterator(), prefixLength, fromInclusive);
            }

            @Override
            public CompletableFuture<List<Long>> asList() {
                return AsyncUtil.collect(this, tr.getExecutor());
            }
        };
    }

    /** The whole set as a bitmap: one range read, containers copied in without visiting members. */
    public CompletableFuture<Roaring64Bitmap> toBitmap(ReadTransaction tr) {
        return containers(tr).thenApply(kvs -> {
            BitmapBuilder builder = new BitmapBuilder();
            for (KeyValue kv : kvs) {
                builder.putEncoded(high48(kv.getKey()), kv.getValue());
            }
            return builder.build();
        });
    }

    /**
     * The members at {@code ranks} (0 = the smallest member, unsigned order), in the order of
     * {@code ranks}, repeats allowed: one range read of the containers, decoding only those
     * that hold a requested rank (see {@code RankSelector}). A rank outside
     * {@code [0, cardinality)} fails the future with {@link IndexOutOfBoundsException}.
     * Drawing ranks uniformly from {@code [0, cardinality)} picks members uniformly.
     */
    public CompletableFuture<long[]> select(ReadTransaction tr, long... ranks) {
        return RankSelector.select(tr, this, ranks);
    }

    // ---- the same, each in its own transaction with the retry loop ----

    /** {@link #add(Transaction, long)} in its own transaction, retried. */
    public CompletableFuture<Boolean> add(Database db, long member) {
        return db.runAsync(tr -> add(tr, member));
    }

    /** {@link #remove(Transaction, long)} in its own transaction, retried. */
    public CompletableFuture<Boolean> remove(Database db, long member) {
        return db.runAsync(tr -> remove(tr, member));
    }

    /** {@link #contains(ReadTransaction, long)} in its own read-only transaction. */
    public CompletableFuture<Boolean> contains(Database db, long member) {
        return db.readAsync(tr -> contains(tr, member));
    }

    /** {@link #cardinality(ReadTransaction)} in its own read-only transaction. */
    public CompletableFuture<Long> cardinality(Database db) {
        return db.readAsync(this::cardinality);
    }

    /** {@link #toBitmap(ReadTransaction)} in its own read-only transaction (subject to its 5-second limit). */
    public CompletableFuture<Roaring64Bitmap> toBitmap(Database db) {
        return db.readAsync(this::toBitmap);
    }

    /** {@link #clear(Transaction)} in its own transaction. */
    public CompletableFuture<Void> clear(Database db) {
        return db.runAsync(tr -> {
            clear(tr);
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * A bulk load: adds {@code members} in consecutive slices of {@code membersPerTransaction},
     * each slice in its own retried transaction, one after the other. Not atomic: a failure
     * leaves the earlier slices added, and running the load again is harmless (adding a
     * present member changes nothing). Completes with how many members were absent; under
     * 1021 a slice whose first attempt committed counts as 0 (see the class notes).
     */
    public CompletableFuture<Long> addAll(Database db, long[] members, int membersPerTransaction) {
        if (membersPerTransaction < 1) {
            throw new IllegalArgumentException("membersPerTransaction must be positive: " + membersPerTransaction);
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (int from = 0; from < members.length; from += membersPerTransaction) {
            int start = from;
            int end = (int) Math.min((long) from + membersPerTransaction, members.length);
            total = total.thenCompose(sum -> db.runAsync(tr -> addAll(tr, Arrays.copyOfRange(members, start, end)))
                    .thenApply(n -> sum + n));
        }
        return total;
    }

    /** {@link #addAll(Database, long[], int)} of a bitmap's members, in unsigned order. */
    public CompletableFuture<Long> addAll(Database db, Roaring64Bitmap members, int membersPerTransaction) {
        return addAll(db, members.toArray(), membersPerTransaction);
    }

    // ---- internals shared with SetAlgebra ----

    /** Every container key of this set, from first to last. */
    Range containerRange() {
        return containerRange;
    }

    byte[] counterKey() {
        return counterKey;
    }

    /** The key of the container of members {@code high48 << 16 | low}. */
    byte[] containerKey(long high48) {
        byte[] key = Arrays.copyOf(containerPrefix, containerPrefix.length + HIGH_BYTES);
        for (int i = 0; i < HIGH_BYTES; i++) {
            key[containerPrefix.length + i] = (byte) (high48 >>> (8 * (HIGH_BYTES - 1 - i)));
        }
        return key;
    }

    /** The high 48 bits named by a container key of this set. */
    long high48(byte[] containerKey) {
        checkContainerKey(containerKey);
        return high48(containerKey, containerPrefix.length);
    }

    static long high48(byte[] key, int prefixLength) {
        long high = 0;
        for (int i = 0; i < HIGH_BYTES; i++) {
            high = high << 8 | (key[prefixLength + i] & 0xFF);
        }
        return high;
    }

    /** All containers, in one range read that returns everything (WANT_ALL: the caller needs them all). */
    CompletableFuture<List<KeyValue>> containers(ReadTransaction tr) {
        return tr.getRange(containerRange, ReadTransaction.ROW_LIMIT_UNLIMITED, false, StreamingMode.WANT_ALL).asList();
    }

    private void checkContainerKey(byte[] key) {
        if (key.length != containerPrefix.length + HIGH_BYTES) {
            throw new IllegalStateException("not a container key of this set: " + ByteArrayUtil.printable(key));
        }
    }

    /**
     * Applies a change to the members of {@code sorted} (unsigned order, duplicates allowed),
     * one read and at most one write per touched container, all reads in flight at once;
     * then one ADD of the total difference to the counter. Completes with the number of
     * members whose presence changed.
     */
    private CompletableFuture<Long> changeSorted(Transaction tr, long[] sorted, boolean add) {
        List<CompletableFuture<Integer>> deltas = new ArrayList<>();
        for (int i = 0; i < sorted.length; ) {
            long high = sorted[i] >>> 16;
            int j = i + 1;
            while (j < sorted.length && sorted[j] >>> 16 == high) {
                j++;
            }
            deltas.add(changeContainer(tr, high, sorted, i, j, add));
            i = j;
        }
        return CompletableFuture.allOf(deltas.toArray(CompletableFuture[]::new)).thenApply(ignore -> {
            long total = 0;
            for (CompletableFuture<Integer> d : deltas) {
                total += d.join();
            }
            if (total != 0) {
                tr.mutate(MutationType.ADD, counterKey, littleEndian(total));
            }
            return Math.abs(total);
        });
    }

    /** Changes one container for members {@code sorted[from, to)}; completes with its cardinality difference. */
    private CompletableFuture<Integer> changeContainer(Transaction tr, long high, long[] sorted, int from, int to, boolean add) {
        byte[] key = containerKey(high);
        return tr.get(key).thenApply(old -> { // serializable: the read conflict the class notes rely on
            if (old == null && !add) {
                return 0;
            }
            Container c = old == null ? new ArrayContainer() : ContainerCodec.decode(old);
            int before = c.getCardinality();
            for (int k = from; k < to; k++) {
                c = add ? c.add((char) sorted[k]) : c.remove((char) sorted[k]);
            }
            int after = c.getCardinality();
            if (after == before) {
                return 0;
            }
            if (after == 0) {
                tr.clear(key);
            } else {
                tr.set(key, ContainerCodec.encode(c));
            }
            return after - before;
        });
    }

    /** A copy of {@code members} sorted as unsigned numbers (flipping the sign bit maps unsigned order to signed). */
    static long[] sortedUnsigned(long[] members) {
        long[] sorted = new long[members.length];
        for (int i = 0; i < members.length; i++) {
            sorted[i] = members[i] ^ Long.MIN_VALUE;
        }
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] ^= Long.MIN_VALUE;
        }
        return sorted;
    }

    static byte[] littleEndian(long value) {
        byte[] bytes = new byte[Long.BYTES];
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (value >>> (8 * i));
        }
        return bytes;
    }

    static long littleEndian(byte[] bytes) {
        long value = 0;
        for (int i = Math.min(bytes.length, Long.BYTES) - 1; i >= 0; i--) {
            value = value << 8 | (bytes[i] & 0xFF);
        }
        return value;
    }
}
