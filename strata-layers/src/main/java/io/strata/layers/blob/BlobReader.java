package io.strata.layers.blob;

import com.apple.foundationdb.Database;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A blob's bytes (or a range of them) as a stream, read one transaction's worth of chunks at
 * a time, the next segment fetched while the current one is consumed. Every segment is read
 * with the blob's head; if the head no longer names the content the stream started with (the
 * blob was replaced, changed in place or deleted), the next read throws
 * {@link BlobChangedException}: the bytes returned before all belong to the first value, and
 * no byte of another one is ever returned. Obtain one from {@link BlobStore#openReader}.
 *
 * <p>Not thread-safe: one reader per thread.
 */
public final class BlobReader extends InputStream {
    private final SegmentReads segments;
    private final Database db;
    private final byte[] name;
    private final BlobHead head;
    private final long end;
    private byte[] buffer;
    private int position;
    /** Value offset just after the buffered segment. */
    private long fetchedTo;
    private CompletableFuture<SegmentReads.Segment> next;
    private boolean closed;

    BlobReader(SegmentReads segments, Database db, byte[] name, SegmentReads.Segment first, long offset, long end) {
        this.segments = segments;
        this.db = db;
        this.name = name;
        this.head = Objects.requireNonNull(first.head());
        this.end = Math.min(end, head.length());
        this.buffer = first.bytes();
        this.fetchedTo = offset + buffer.length;
        prefetch();
    }

    /** The length of the whole value, as of the first segment. */
    public long valueLength() {
        return head.length();
    }

    /** The bytes not yet returned. */
    public long remaining() {
        return Math.max(0, end - fetchedTo) + (buffer.length - position);
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buffer[position++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, buffer.length - position);
        System.arraycopy(buffer, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int available() {
        return closed ? 0 : buffer.length - position;
    }

    @Override
    public void close() {
        closed = true;
        if (next != null) {
            next.cancel(false);
            next = null;
        }
    }

    /** Makes buffered bytes available; false at the end. */
    private boolean fill() throws IOException {
        if (closed) {
            throw new IOException("reader closed");
        }
        while (position == buffer.length) {
            if (next == null) {
                return false;
            }
            SegmentReads.Segment segment = Futures.await(next);
            buffer = segment.bytes();
            position = 0;
            fetchedTo += buffer.length;
            prefetch();
        }
        return true;
    }

    private void prefetch() {
        next = fetchedTo < end ? segments.segment(db, name, head, fetchedTo, end) : null;
    }
}
