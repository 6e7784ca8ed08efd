package io.strata.layers.blob;

import com.apple.foundationdb.Database;

import java.util.concurrent.CompletableFuture;

/**
 * Reads that span transactions, one segment per transaction. Each transaction reads the head
 * again with the segment: the bytes of a segment belong to the head read with them (one read
 * version), and the read goes on only while that head names the same content ({@code id} and
 * {@code revision}) as the first one. So every segment of one read belongs to one value.
 *
 * <p>Not final so that a test can interleave a change between two segments.
 */
class SegmentReads {
    private final BlobReads reads;
    private final TransactionBudget budget;

    SegmentReads(BlobReads reads, TransactionBudget budget) {
        this.reads = reads;
        this.budget = budget;
    }

    /** A head and bytes read with it; {@code head} null when the blob does not exist. */
    record Segment(BlobHead head, byte[] bytes) {}

    /**
     * In one read-only transaction: the head of {@code name} and its bytes from {@code offset}
     * up to the end of the chunk that ends one transaction's worth of chunks later, or
     * {@code end}, or the value's end, whichever comes first (so later segments start on a
     * chunk boundary and read whole chunks). Fails with
     * {@link BlobChangedException} when {@code expected} is given and the head no longer names
     * its content.
     */
    CompletableFuture<Segment> segment(Database db, byte[] name, BlobHead expected, long offset, long end) {
        return db.readAsync(tr -> reads.head(tr, name).thenCompose(head -> {
            if (expected != null && !expected.sameContentAs(head)) {
                return CompletableFuture.failedFuture(new BlobChangedException("blob replaced or changed while being read"
                        + " (id " + expected.id() + " revision " + expected.revision() + " became "
                        + (head == null ? "deleted" : "id " + head.id() + " revision " + head.revision()) + ")"));
            }
            if (head == null) {
                return CompletableFuture.completedFuture(new Segment(null, null));
            }
            int size = head.chunkSize();
            long segmentEnd = (offset / size + budget.chunksPerTransaction(size)) * size;
            long length = Math.min(BlobReads.clip(head.length(), offset, end - offset), segmentEnd - offset);
            return reads.bytes(tr, head, offset, (int) length).thenApply(bytes -> new Segment(head, bytes));
        }));
    }
}
