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
 * Values of any size ("blobs") under names, stored in chunks: FoundationDB's blob-layer
 * pattern. A value that fits one transaction is written, read, sliced, appended to, patched
 * (SETRANGE-like, zero padding) and truncated inside the caller's transaction; a larger one is
 * written and read over many transactions of the store's own, and still replaced atomically:
 * readers see the old value or the new one, never a mix.
 *
 * <h2>Key layout</h2>
 * Under the store's subspace {@code S}:
 * <pre>
 * S.pack((0)) ++ name     -&gt; head, 28 bytes, big-endian:
 *                             id (8) | length (8) | revision (8) | chunk size (4)
 * S.pack((1, id, index))  -&gt; chunk index of the value stored under id: at most chunk-size bytes
 * S.pack((2, id))         -&gt; staging record: state (1: 00 staging, 01 committed)
 *                             | lease end, a database version (8) | name
 * S.pack((3)) ...         -&gt; the {@link HighContentionAllocator} handing out ids:
 *                             (3, 0, start) attempt counters, (3, 1, candidate) reservations
 * </pre>
 * The tags encode as {@code 14}, {@code 15 01}, {@code 15 02}, {@code 15 03}. The name is
 * appended raw after {@code 14} (no escaping; a head key can never equal another key, which all
 * continue with {@code 15}). {@code id} and {@code index} are tuple integers: the chunks of one
 * value are contiguous, in index order, so the bytes {@code [offset, offset + length)} are one
 * range read of the few keys from index {@code offset / C} to {@code (offset + length - 1) / C}.
 * Example: chunk 300 of id 5 is {@code S 15 01 15 05 16 01 2C}; the head of {@code "k"} is
 * {@code S 14 6B}.
 *
 * <p>Chunk {@code i} of a value with chunk size {@code C} spans bytes
 * {@code [i*C, min((i+1)*C, length))}. A chunk key may be absent, or shorter than its span: the
 * missing bytes are zeros. No chunk stores a byte at or past the length. So padding (a write
 * past the end, a truncate upwards) is never stored: a SETRANGE at offset 500 MB writes the
 * one or two chunks it touches, not 500 MB of zeros. The head records the chunk size its value
 * was written with, so the store's setting may change: in-place edits keep the value's chunk
 * size, whole writes take the store's.
 *
 * <h2>Chunk size: measured</h2>
 * The default, {@value BlobSettings#DEFAULT_CHUNK_SIZE} bytes (16 KiB), is where whole-value
 * transfers stop getting cheaper while small edits are still cheap. Measured with
 * {@code io.strata.layers.blob.BlobChunkSizeBenchmark} in strata-bench (JMH, one thread,
 * sampled time; medians of 5 one-second iterations after 2 or 5 of warm-up, one fork per cell;
 * four runs on 2026-11-25 between 19:36 and 20:04, {@code transactionBytes} 1,000,000) on the
 * engine in memory and on disk ({@code OS_BUFFERED}). The machine's 2 cores were shared with a
 * load average of 14 to 31, so single figures move by 2x; the table gives the range of the
 * runs' medians, memory / disk:
 * <pre>
 * chunk size                      10,000      16,384      32,768      65,536     100,000
 * 4 MiB read across transactions  3.8 / 4.1   3.5 / 3.5   3.4 / 3.4   3.4 / 3.2   3.2 / 3.3  ms (best run)
 * 4 MiB staged write              4.8-8.8     4.3-7.5     6.4-9.4     7.3-8.9     6.2-23     ms, memory
 *                                 20-69       11-17       12-18       13-15       12-13      ms, disk
 * 10-byte SETRANGE, in one txn    45-54       40-46       57-74       86-103      118-127    us, memory
 *                                 45-58       54-58       78-93       111-170     215-231    us, disk
 * 100-byte GETRANGE, in one txn   10-13       11-13       10-18       17-21       28-37      us
 * </pre>
 * Whole-value reads and staged writes are flat from 16 KiB up (a transaction carries about
 * 1 MB whatever the chunk size); below it the per-key costs show (10,000-byte chunks: 4 MiB
 * staged to disk in 20 to 69 ms, reads 10 to 20% slower). A small SETRANGE or APPEND reads
 * and rewrites its whole chunk, and a GETRANGE copies it, so their cost grows with the chunk:
 * at 16 KiB they cost what they cost at 10,000 bytes, at 64 KiB about twice that, at 100,000
 * bytes three to four times. A 512 MB Redis string is 32,768 chunks. FoundationDB itself
 * advises values of at most about 10 KB, which on a real cluster favours the small end too.
 *
 * <h2>Ids</h2>
 * Chunks are keyed by an id, not by the name, so a new value can be staged beside the old one
 * and switched in by rewriting the head alone. Ids come from the High Contention Allocator
 * (on {@code (3)}), not from versionstamps: a blob created in a transaction must be readable
 * and editable in the same transaction (write then append, a Redis MULTI), and a versionstamped
 * key cannot be read before its transaction commits ({@code accessed_unreadable}, 1036); HCA
 * ids are also short (a tuple integer of at most 2 bytes below 256) and rarely conflict, unlike one
 * counter. Ids are never reused. An allocation costs a few allocator reads and writes, paid
 * only when a blob is created or a staged write begins.
 *
 * <h2>Concurrency</h2>
 * <ul>
 *   <li><b>Changes in a transaction</b> ({@code write}, {@code writeAt}, {@code append},
 *       {@code truncate}, {@code delete}) read the head <em>serializably</em> and rewrite it
 *       (with the next revision), so of two transactions changing one blob the one that commits
 *       second fails with {@code not_committed} (1020) and its retry runs on the first's
 *       result: the changes of one blob are serializable. Changes of different blobs touch
 *       different keys (the allocator's, when both create, rarely conflict).</li>
 *   <li><b>Readers in one transaction</b> see one committed state, in which head and chunks
 *       agree: every in-transaction change writes its chunks and head in one transaction, and a
 *       staged value's chunks lie under an id no head points to until the one transaction that
 *       switches the head to it. Reads take a {@link ReadTransaction}: pass
 *       {@code tr.snapshot()} to read without conflicting with writers.</li>
 *   <li><b>Readers spanning transactions</b> ({@link #read(Database, byte[])},
 *       {@link BlobReader}) re-read the head in every transaction and go on only while its
 *       {@code (id, revision)} is the first transaction's. Ids are never reused and every
 *       in-place change bumps the revision, so an equal pair means equal bytes: all the
 *       segments come from one value. On a change the byte-array read starts over (up to 16
 *       times, then {@link BlobChangedException}); a stream, having handed out bytes, throws
 *       {@link BlobChangedException}.</li>
 *   <li><b>A staged write</b> (a value larger than {@link #bytesPerTransaction()}, or a
 *       {@link BlobWriter} that outgrew its buffer): transaction 0 allocates an id and writes
 *       its staging record; each following transaction reads the record serializably (failing
 *       with {@link StagingAbandonedException} if it is gone), writes a batch of chunks and
 *       renews the lease; the switch, one small transaction, reads the record and the head
 *       serializably, clears the old value's chunks (one range clear), points the head at the
 *       new id (revision 0) and marks the record committed; a last transaction removes the
 *       record. The switch conflicts with any concurrent change of the blob through the head,
 *       so replaces and edits are ordered by commit and the last one wins, and whichever
 *       replaces a value clears its chunks.</li>
 *   <li><b>Cleanup against a live writer</b>: both read and write the staging record, so one
 *       commits first and the other retries and sees it: a staging that was cleaned up cannot
 *       be continued or switched in, a renewed one is not cleaned up.</li>
 * </ul>
 * Operations on one blob within one transaction must be sequenced (wait for each future
 * before starting the next): two concurrent changes in one transaction would both read the
 * same head. Operations on different blobs may overlap.
 *
 * <h2>Orphans and cleanup</h2>
 * The rule: a staging record is abandoned once a cleaner's read version passes its lease end,
 * which is the read version of the writer's latest staging transaction plus the lease
 * ({@link BlobSettings#lease()}, 60 s by default, as 1,000,000 versions a second).
 * {@link #cleanup(Database)} removes every abandoned record, with its chunks if it never
 * committed (a writer that crashed or stalled mid-staging), alone if it did (a writer that died
 * between the switch and removing its record). Database versions are the clock because every
 * client shares them (no skew between machines' clocks); FoundationDB can advance them faster
 * than real time in a recovery, which can only end a lease early: the writer then fails with
 * {@link StagingAbandonedException} and the old value stays, nothing is lost or torn. The lease
 * must exceed the longest pause between a writer's transactions. Run cleanup periodically
 * from any process; it conflicts only with writers whose lease has ended.
 *
 * <h2>{@code commit_unknown_result} (1021)</h2>
 * <ul>
 *   <li>{@code write}, {@code writeAt}, {@code truncate} and {@code delete} in a transaction are
 *       idempotent: a retry after an attempt that did commit leaves the same value (answers can
 *       differ: {@code delete} then says false). {@code append} is not: if the first attempt
 *       committed, the retry appends again. A caller that needs exactly-once appends must make
 *       its transaction idempotent itself (say, record a request id in it and check for it
 *       first), as with any non-idempotent FoundationDB transaction.</li>
 *   <li>Staged writes: a retried first transaction allocates another id, and the first id's
 *       record, if that attempt committed, is an orphan for cleanup; a batch of chunks rewrites
 *       the same keys; a retried switch finds the record committed (the first attempt did it:
 *       done), staging (it did not: switch now) or gone (cleaned up after the lease:
 *       {@link StagingAbandonedException}, nothing visible). So the outcome reported is the
 *       one that happened, even if another writer replaced the value in between.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * Names up to {@link #maxNameBytes()} (10,000 bytes less the head key's prefix). Chunks up to
 * 100,000 bytes (FoundationDB's value limit). An in-transaction write puts all the chunks it
 * touches into the caller's transaction: the whole value for {@code write}, the touched range
 * for {@code writeAt} and {@code append} (at most two chunks read); it must fit the
 * 10,000,000-byte transaction limit with whatever else the transaction does (else
 * {@code transaction_too_large}, 2101) and its reads the 5-second lifetime (else
 * {@code transaction_too_old}, 1007). {@code truncate} and {@code delete} are one range clear
 * at any size. The {@code Database}-level writes and reads have no size limit of their own
 * (lengths are {@code long}s; a Redis string of 512 MB is about 540 staged transactions of
 * 1 MB), except that a byte-array read holds at most 2^31 - 9 bytes: read more with a
 * {@link BlobReader}.
 *
 * <p>Thread-safe and immutable; it holds only the subspace and the settings.
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
