package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import org.roaringbitmap.Container;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code and}, {@code or}, {@code andNot} and {@code xor} of {@link RoaringSet}s, computed
 * container by container, returned as a {@link Roaring64Bitmap} or written into another set.
 *
 * <h2>How</h2>
 * The container ranges of all input sets are read at once (one range read per set, all in
 * flight together), then merged by 48-bit high part like a sorted-list merge. Per high part
 * only the containers that the operation needs are decoded: {@code and} skips a high part
 * missing from any set without decoding the others; {@code or} and {@code xor} take a
 * container present in one set only as it is, and so does {@code andNot} for a container of
 * the first set that no other set has. The rest are combined with RoaringBitmap's container
 * operations ({@link SetOperation#combine}). Results go straight into the bitmap a container
 * at a time ({@code BitmapBuilder}), or, when stored, as the encoded bytes, copied unchanged
 * for the containers that passed through.
 *
 * <p>Cost: proportional to the number of containers, not of members. Two dense sets of a
 * million members (a quarter of the ids below four million) are 62 bitmap containers of 8 KiB,
 * about half a megabyte per set to read. A million members scattered at random over 2^64 are a
 * million containers of one member each: a million keys to read per set, which is where the
 * time goes, and for that shape a roaring layout saves nothing over one key per member.
 * All reads of one computation belong to one transaction, so they must finish within
 * FoundationDB's 5 seconds of its read version, or fail with {@code transaction_too_old}
 * (1007, which the retry loop retries from scratch). On the engine a million-key range read
 * takes a fraction of a second to a few seconds on a busy two-core machine; sets of many
 * millions of scattered members would need a computation spread over several transactions
 * (consistent only per slice of the key range), which this class does not offer.
 *
 * <h2>Snapshot or serializable reads</h2>
 * {@link #compute} reads through the transaction it is given, so the caller chooses: in a
 * read-only transaction (as {@link #compute(Database, SetOperation, List)} runs) conflicts do
 * not arise and the result is the sets as of the read version; in a read-write transaction,
 * passing {@code tr} makes the input ranges part of what commit validates, so a transaction
 * that acts on the result commits only if no input changed meanwhile, while
 * {@code tr.snapshot()} avoids those conflicts at the price of acting on a possibly stale
 * result. {@link #store} always reads serializably: the target must be the operation's
 * result at the commit version, or a later reader could see the target disagree with the
 * inputs it was computed from. Each input adds a read conflict range per batch of its range
 * read (together they cover its container range), not one per container.
 *
 * <h2>Storing the result</h2>
 * {@link #store} clears the target (which may be one of the inputs: everything is read
 * before anything is written), writes its containers and sets its counter to the result's
 * cardinality, all in the caller's transaction, so the result appears atomically. That
 * transaction is bound by FoundationDB's limits: 10,000,000 bytes of writes (keys, values,
 * conflict ranges) and 5 seconds. A result whose keys and values exceed
 * {@value #STORE_BYTE_LIMIT} bytes is refused before anything is written, with
 * {@code transaction_too_large} (2101, not retryable), the error the commit would otherwise
 * report; 9 MB of containers is about 1,100 bitmap containers (4.5 to 70 million members)
 * or roughly 400,000 single-member containers (a key of some 20 bytes and a 3-byte value). Larger results must be written over
 * several transactions, non-atomically: {@link #storeInSlices} computes the bitmap, clears
 * the target, then adds the result a slice per transaction.
 *
 * <p>Operations are on 1 or more sets (the first set is the minuend of {@code andNot}; one
 * set gives a copy of it). Stateless and thread-safe.
 */
public final class SetAlgebra {
    /**
     * Largest stored result, in bytes of keys plus values: below FoundationDB's 10,000,000
     * with a margin for the counter, the clear and the conflict ranges.
     */
    public static final long STORE_BYTE_LIMIT = 9_000_000;
    private static final int TRANSACTION_TOO_LARGE = 2101;

    private SetAlgebra() {}

    /** Members in every one of {@code sets}. */
    public static CompletableFuture<Roaring64Bitmap> and(ReadTransaction tr, RoaringSet... sets) {
        return compute(tr, SetOperation.AND, List.of(sets));
    }

    /** Members in any of {@code sets}. */
    public static CompletableFuture<Roaring64Bitmap> or(ReadTransaction tr, RoaringSet... sets) {
        return compute(tr, SetOperation.OR, List.of(sets));
    }

    /** Members of {@code sets[0]} in none of the others. */
    public static CompletableFuture<Roaring64Bitmap> andNot(ReadTransaction tr, RoaringSet... sets) {
        return compute(tr, SetOperation.AND_NOT, List.of(sets));
    }

    /** Members in an odd number of {@code sets}. */
    public static CompletableFuture<Roaring64Bitmap> xor(ReadTransaction tr, RoaringSet... sets) {
        return compute(tr, SetOperation.XOR, List.of(sets));
    }

    /**
     * The number of members in every one of {@code sets}, read through {@code tr} (snapshot
     * or not: the caller's choice); with {@code limit > 0}, counting stops once it reaches
     * {@code limit} and the answer is {@code limit} (0: no limit). Unlike {@link #compute},
     * it reads only the smallest set's containers as a range and the others by key, page by
     * page, so a small limit reads little (see {@code IntersectionCounter}).
     */
    public static CompletableFuture<Long> andCardinality(ReadTransaction tr, List<RoaringSet> sets, long limit) {
        return IntersectionCounter.count(tr, sets, limit);
    }

    /** {@code op} over {@code sets}, read through {@code tr} (snapshot or not: the caller's choice). */
    public static CompletableFuture<Roaring64Bitmap> compute(ReadTransaction tr, SetOperation op, List<RoaringSet> sets) {
        return readAll(tr, sets).thenApply(inputs -> {
            BitmapBuilder builder = new BitmapBuilder();
            merge(op, inputs, new Sink() {
                @Override
                public void combined(long high48, Container c) {
                    builder.put(high48, c);
                }

                @Override
                public void passedThrough(long high48, byte[] value) {
                    builder.putEncoded(high48, value);
                }
            });
            return builder.build();
        });
    }

    /**
     * Replaces the members of {@code target} with {@code op} over {@code sets}, in
     * {@code tr}, reading serializably; completes with the result's cardinality. Fails with
     * {@code FDBException} 2101 when the result is too large for one transaction (see the
     * class notes).
     */
    public static CompletableFuture<Long> store(Transaction tr, SetOperation op, RoaringSet target, List<RoaringSet> sets) {
        return store(tr, op, target, sets, STORE_BYTE_LIMIT);
    }

    /** {@link #store(Transaction, SetOperation, RoaringSet, List)} with another byte limit (for tests). */
    static CompletableFuture<Long> store(Transaction tr, SetOperation op, RoaringSet target, List<RoaringSet> sets,
                                         long byteLimit) {
        return readAll(tr, sets).thenApply(inputs -> {
            List<byte[]> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            long[] cardinality = {0};
            long[] bytes = {0};
            merge(op, inputs, new Sink() {
                @Override
                public void combined(long high48, Container c) {
                    if (!c.isEmpty()) {
                        write(high48, ContainerCodec.encode(c), c.getCardinality());
                    }
                }

                @Override
                public void passedThrough(long high48, byte[] value) {
                    write(high48, value, ContainerCodec.cardinality(value));
                }

                private void write(long high48, byte[] value, int members) {
                    byte[] key = target.containerKey(high48);
                    bytes[0] += key.length + value.length;
                    if (bytes[0] > byteLimit) {
                        throw new FDBException("the result of " + op + " exceeds " + byteLimit
                                + " bytes, too large for one transaction; store it in several (see SetAlgebra)",
                                TRANSACTION_TOO_LARGE);
                    }
                    keys.add(key);
                    values.add(value);
                    cardinality[0] += members;
                }
            });
            target.clear(tr);
            for (int i = 0; i < keys.size(); i++) {
                tr.set(keys.get(i), values.get(i));
            }
            if (cardinality[0] > 0) {
                tr.set(target.counterKey(), RoaringSet.littleEndian(cardinality[0]));
            }
            return cardinality[0];
        });
    }

    /** {@link #compute(ReadTransaction, SetOperation, List)} in its own read-only transaction. */
    public static CompletableFuture<Roaring64Bitmap> compute(Database db, SetOperation op, List<RoaringSet> sets) {
        return db.readAsync(tr -> compute(tr, op, sets));
    }

    /** {@link #store(Transaction, SetOperation, RoaringSet, List)} in its own transaction, retried. */
    public static CompletableFuture<Long> store(Database db, SetOperation op, RoaringSet target, List<RoaringSet> sets) {
        return db.runAsync(tr -> store(tr, op, target, sets));
    }

    /**
     * The path for results too large for one transaction: computes {@code op} over
     * {@code sets} in one read-only transaction, then clears {@code target} and adds the
     * result {@code membersPerTransaction} at a time, each slice in its own transaction.
     * Not atomic: until it completes, readers of {@code target} see it empty or partly
     * written, and a failure midway leaves it partly written (running it again repairs
     * that, unless the inputs changed in between). Concurrent writers of {@code target}
     * must be kept away by the caller. Completes with the result's cardinality.
     */
    public static CompletableFuture<Long> storeInSlices(Database db, SetOperation op, RoaringSet target,
                                                        List<RoaringSet> sets, int membersPerTransaction) {
        return compute(db, op, sets).thenCompose(result -> target.clear(db)
                .thenCompose(ignore -> target.addAll(db, result, membersPerTransaction))
                .thenApply(ignore -> result.getLongCardinality()));
    }

    /** Where {@link #merge} sends each non-empty high part of the result. */
    private interface Sink {
        /** A container computed from several inputs; may be empty. */
        void combined(long high48, Container c);

        /** A stored container that is the result unchanged. */
        void passedThrough(long high48, byte[] value);
    }

    /** One input set's containers as read, with their high parts parsed once. */
    private record Input(List<KeyValue> containers, long[] highs) {}

    private static CompletableFuture<List<Input>> readAll(ReadTransaction tr, List<RoaringSet> sets) {
        if (sets.isEmpty()) {
            throw new IllegalArgumentException("set algebra needs at least one set");
        }
        List<CompletableFuture<List<KeyValue>>> reads = new ArrayList<>();
        for (RoaringSet s : sets) {
            reads.add(s.containers(tr)); // issued together: the reads proceed in parallel
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(ignore -> {
            List<Input> inputs = new ArrayList<>();
            for (int i = 0; i < sets.size(); i++) {
                List<KeyValue> kvs = reads.get(i).join();
                long[] highs = new long[kvs.size()];
                for (int k = 0; k < highs.length; k++) {
                    highs[k] = sets.get(i).high48(kvs.get(k).getKey());
                }
                inputs.add(new Input(kvs, highs));
            }
            return inputs;
        });
    }

    /** Merges the inputs by high part (each sorted ascending), sending each result container to {@code sink}. */
    private static void merge(SetOperation op, List<Input> inputs, Sink sink) {
        int n = inputs.size();
        int[] pos = new int[n];
        boolean[] here = new boolean[n];
        Container[] present = new Container[n];
        while (true) {
            long high = Long.MAX_VALUE; // high parts are below 2^48
            for (int i = 0; i < n; i++) {
                long[] highs = inputs.get(i).highs();
                if (pos[i] < highs.length && highs[pos[i]] < high) {
                    high = highs[pos[i]];
                }
            }
            if (high == Long.MAX_VALUE) {
                return;
            }
            int count = 0;
            int only = -1;
            for (int i = 0; i < n; i++) {
                long[] highs = inputs.get(i).highs();
                here[i] = pos[i] < highs.length && highs[pos[i]] == high;
                if (here[i]) {
                    count++;
                    only = i;
                }
            }
            boolean needed = switch (op) {
                case AND -> count == n;
                case AND_NOT -> here[0];
                case OR, XOR -> true;
            };
            if (needed) {
                if (count == 1 && op.passesThroughAlone(only, n)) {
                    sink.passedThrough(high, inputs.get(only).containers().get(pos[only]).getValue());
                } else {
                    int c = 0;
                    for (int i = 0; i < n; i++) {
                        if (here[i]) {
                            present[c++] = ContainerCodec.decode(inputs.get(i).containers().get(pos[i]).getValue());
                        }
                    }
                    Container result = op.combine(present, c, here[0], n);
                    if (result != null) {
                        sink.combined(high, result);
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (here[i]) {
                    pos[i]++;
                }
            }
        }
    }
}
