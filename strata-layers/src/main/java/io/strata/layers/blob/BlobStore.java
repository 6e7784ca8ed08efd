package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.allocator.HighContentionAllocator;

import java.io.IOException;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * DOC PLACEHOLDER
 */
public final class BlobStore {
    private final BlobLayout layout;
    private final BlobSettings settings;
    private final TransactionBudget budget;
    private final BlobReads reads;
    private final BlobEdits edits;
    private final Staging staging;
    private final SegmentReads segments;
    private final SpanningReads spanning;
    private final StagingCleanup cleanup;

    /** A store on {@code subspace} with {@link BlobSettings#defaults()}. */
    public BlobStore(Subspace subspace) {
        this(subspace, BlobSettings.defaults());
    }

    /** A store on {@code subspace}; nothing is read or written until an operation runs. */
    public BlobStore(Subspace subspace, BlobSettings settings) {
        this.layout = new BlobLayout(Objects.requireNonNull(subspace));
        this.settings = Objects.requireNonNull(settings);
        this.budget = new TransactionBudget(settings.transactionBytes(), layout.maxChunkKeyBytes());
        this.reads = new BlobReads(layout);
        this.edits = new BlobEdits(layout, reads, new HighContentionAllocator(layout.allocator), settings.chunkSize());
        this.staging = new Staging(layout, edits, settings);
        this.segments = new SegmentReads(reads, budget);
        this.spanning = new SpanningReads(segments);
        this.cleanup = new StagingCleanup(layout);
    }

    /** The subspace holding the blobs, their staging records and the id allocator. */
    public Subspace subspace() {
        return layout.subspace;
    }

    public BlobSettings settings() {
        return settings;
    }

    /** The longest name, in bytes, this store accepts: 10,000 less the head key's prefix. */
    public int maxNameBytes() {
        return layout.maxNameBytes();
    }

    /**
     * The largest value the {@code Database}-level writes store in one transaction, and the
     * bytes staged or read per transaction of the store's own: whole chunks of the store's
     * chunk size within {@link BlobSettings#transactionBytes()}.
     */
    public int bytesPerTransaction() {
        return budget.bytesPerTransaction(settings.chunkSize());
    }

    // ---------------------------------------------------------------- in the caller's transaction

    /** The whole value of {@code name}, or null when there is no such blob. Reads the head and every chunk. */
    public CompletableFuture<byte[]> read(ReadTransaction tr, byte[] name) {
        return reads.head(tr, name).thenCompose(head -> {
            if (head == null) {
                return CompletableFuture.completedFuture(null);
            }
            if (head.length() > SpanningReads.MAX_ARRAY) {
                throw new IllegalStateException("the value has " + head.length() + " bytes, more than an array holds");
            }
            return reads.bytes(tr, head, 0, (int) head.length());
        });
    }

    /**
     * Bytes {@code [offset, offset + length)} of {@code name}'s value, clipped to the value (as
     * Redis GETRANGE with a non-negative range: past the end is empty); null when there is no
     * such blob. Reads the head and one range of just the chunks that hold the bytes.
     */
    public CompletableFuture<byte[]> read(ReadTransaction tr, byte[] name, long offset, int length) {
        BlobReads.clip(Long.MAX_VALUE, offset, length);
        return reads.head(tr, name).thenCompose(head -> head == null ? CompletableFuture.completedFuture(null)
                : reads.bytes(tr, head, offset, (int) BlobReads.clip(head.length(), offset, length)));
    }

    /** The length of {@code name}'s value, empty when there is no such blob: one read of the head. */
    public CompletableFuture<OptionalLong> length(ReadTransaction tr, byte[] name) {
        return reads.head(tr, name).thenApply(head -> head == null ? OptionalLong.empty() : OptionalLong.of(head.length()));
    }

    /**
     * Makes {@code value} the value of {@code name}, creating the blob if needed. The whole value
     * is written in {@code tr}, so it must fit one transaction with whatever else {@code tr}
     * does (else the commit fails with {@code transaction_too_large}, 2101); larger values go
     * through {@link #write(Database, byte[], byte[])} or {@link #openWriter}.
     */
    public CompletableFuture<Void> write(Transaction tr, byte[] name, byte[] value) {
        return edits.replace(tr, name, value.clone());
    }

    /**
     * Writes {@code bytes} at {@code offset}, as Redis SETRANGE: the value grows to
     * {@code offset + bytes.length} if shorter, zero-padded between its old end and
     * {@code offset}; a missing blob is created (all zeros before {@code offset}). Writing no
     * bytes changes nothing and creates nothing. Reads and writes only the touched chunks
     * (padding is not stored: absent chunks read as zeros), so a write far past the end costs
     * no more than one at the end. Completes with the new length.
     */
    public CompletableFuture<Long> writeAt(Transaction tr, byte[] name, long offset, byte[] bytes) {
        return edits.writeAt(tr, name, offset, bytes.clone());
    }

    /**
     * Appends {@code bytes}, as Redis APPEND: a missing blob is created (even by an empty
     * append). Touches the last chunk and the new ones. Completes with the new length. Not
     * idempotent: see the class notes on 1021.
     */
    public CompletableFuture<Long> append(Transaction tr, byte[] name, byte[] bytes) {
        return edits.append(tr, name, bytes.clone());
    }

    /**
     * Sets the length of {@code name}'s value: a shorter length cuts it (one range clear and at
     * most one chunk rewritten), a longer one pads it with zeros (nothing but the head written).
     * Completes with false, changing nothing, when there is no such blob.
     */
    public CompletableFuture<Boolean> truncate(Transaction tr, byte[] name, long length) {
        return edits.truncate(tr, name, length);
    }

    /** Deletes {@code name}: the head and one range clear of its chunks, whatever the size. Completes with whether it existed. */
    public CompletableFuture<Boolean> delete(Transaction tr, byte[] name) {
        return edits.delete(tr, name);
    }

    // ---------------------------------------------------------------- in transactions of the store's own

    /**
     * Makes {@code value} the value of {@code name}, atomically, whatever its size: in one
     * transaction if it fits {@link #bytesPerTransaction()}, otherwise staged under a fresh id
     * and switched in (class notes). Fails with {@link StagingAbandonedException} if the staging
     * outlived its lease and was cleaned up; the old value is then intact.
     */
    public CompletableFuture<Void> write(Database db, byte[] name, byte[] value) {
        layout.head(name);
        byte[] copy = value.clone();
        if (copy.length <= bytesPerTransaction()) {
            return db.runAsync(tr -> edits.replace(tr, name, copy));
        }
        return staging.writeAll(db, name, copy, settings.chunkSize(), bytesPerTransaction());
    }

    /**
     * A stream whose bytes become {@code name}'s value when it is closed (atomically, whatever
     * the size; see {@link BlobWriter}). The name is checked now; nothing is written before the
     * buffer exceeds one transaction.
     */
    public BlobWriter openWriter(Database db, byte[] name) {
        layout.head(name);
        return new BlobWriter(this, staging, db, name, settings.chunkSize(), bytesPerTransaction());
    }

    /**
     * The whole value of {@code name}, or null when there is no such blob, read over as many
     * transactions as it takes; all of it from one value (a read that sees the blob change
     * starts over, up to 16 times, then fails with {@link BlobChangedException}).
     */
    public CompletableFuture<byte[]> read(Database db, byte[] name) {
        layout.head(name);
        return spanning.read(db, name, 0, Long.MAX_VALUE);
    }

    /** {@link #read(Database, byte[])} of bytes {@code [offset, offset + length)}, clipped to the value. */
    public CompletableFuture<byte[]> read(Database db, byte[] name, long offset, long length) {
        layout.head(name);
        return spanning.read(db, name, offset, length);
    }

    /**
     * A stream of {@code name}'s value, or null when there is no such blob (see
     * {@link BlobReader}: it fails rather than mix values when the blob changes mid-read).
     * Reads the first segment now.
     */
    public BlobReader openReader(Database db, byte[] name) throws IOException {
        return openReader(db, name, 0, Long.MAX_VALUE);
    }

    /** {@link #openReader(Database, byte[])} of bytes {@code [offset, offset + length)}, clipped to the value. */
    public BlobReader openReader(Database db, byte[] name, long offset, long length) throws IOException {
        layout.head(name);
        BlobReads.clip(Long.MAX_VALUE, offset, length);
        long end = offset > Long.MAX_VALUE - length ? Long.MAX_VALUE : offset + length;
        SegmentReads.Segment first = Futures.await(segments.segment(db, name, null, offset, end));
        return first.head() == null ? null : new BlobReader(segments, db, name.clone(), first, offset, end);
    }

    /** {@link #length(ReadTransaction, byte[])} in a read-only transaction of its own. */
    public CompletableFuture<OptionalLong> length(Database db, byte[] name) {
        layout.head(name);
        return db.readAsync(tr -> length(tr, name));
    }

    /** {@link #delete(Transaction, byte[])} in a transaction of its own: one small transaction at any size. */
    public CompletableFuture<Boolean> delete(Database db, byte[] name) {
        layout.head(name);
        return db.runAsync(tr -> delete(tr, name));
    }

    /**
     * Removes what crashed or stalled staged writes left: every staging record whose lease
     * ended before this call's read version, with its chunks when it never committed (class
     * notes). A transaction per 100 records. Completes with how many records were removed.
     * Safe to run at any time, from any process, concurrently with writers.
     */
    public CompletableFuture<Integer> cleanup(Database db) {
        return cleanup.run(db);
    }
}
