package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.async.AsyncUtil;

import java.util.concurrent.CompletableFuture;

/**
 * A byte range read into one array over as many transactions as it takes. When the blob
 * changes mid-read ({@link BlobChangedException} from a segment) the read starts over, so the
 * caller gets one value's bytes; after {@link #MAX_ATTEMPTS} tries it gives up with that
 * exception rather than starve behind a writer that keeps replacing the value.
 */
final class SpanningReads {
    static final int MAX_ATTEMPTS = 16;
    /** The largest Java array this reads into. */
    static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final SegmentReads segments;

    SpanningReads(SegmentReads segments) {
        this.segments = segments;
    }

    /** Bytes {@code [offset, offset + length)} clipped to the value; null when the blob does not exist. */
    CompletableFuture<byte[]> read(Database db, byte[] name, long offset, long length) {
        BlobReads.clip(Long.MAX_VALUE, offset, length); // argument checks
        return attempt(db, name, offset, length, 1);
    }

    private CompletableFuture<byte[]> attempt(Database db, byte[] name, long offset, long length, int attempt) {
        return once(db, name, offset, length).exceptionallyCompose(e -> {
            if (Futures.cause(e) instanceof BlobChangedException && attempt < MAX_ATTEMPTS) {
                return attempt(db, name, offset, length, attempt + 1);
            }
            return CompletableFuture.failedFuture(Futures.cause(e));
        });
    }

    private CompletableFuture<byte[]> once(Database db, byte[] name, long offset, long length) {
        long end = offset > Long.MAX_VALUE - length ? Long.MAX_VALUE : offset + length;
        return segments.segment(db, name, null, offset, end).thenCompose(first -> {
            if (first.head() == null) {
                return CompletableFuture.completedFuture(null);
            }
            long total = BlobReads.clip(first.head().length(), offset, length);
            if (total == first.bytes().length) {
                return CompletableFuture.completedFuture(first.bytes());
            }
            if (total > MAX_ARRAY) {
                return CompletableFuture.failedFuture(new IllegalStateException(
                        "the range has " + total + " bytes, more than an array holds; read it with a BlobReader"));
            }
            byte[] out = new byte[(int) total];
            System.arraycopy(first.bytes(), 0, out, 0, first.bytes().length);
            long[] filled = {first.bytes().length};
            return AsyncUtil.whileTrue(() -> segments.segment(db, name, first.head(), offset + filled[0], offset + total)
                            .thenApply(next -> {
                                System.arraycopy(next.bytes(), 0, out, (int) filled[0], next.bytes().length);
                                filled[0] += next.bytes().length;
                                return filled[0] < total;
                            }), db.getExecutor())
                    .thenApply(ignore -> out);
        });
    }
}
