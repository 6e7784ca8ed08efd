package io.strata.layers.blob;

import com.apple.foundationdb.Database;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes a blob's new value as a stream; the value replaces the old one atomically at
 * {@link #close()}, and nothing of it is visible before. Up to one transaction's worth of
 * bytes is buffered; a value that fits is written at close in one transaction. A larger one
 * is staged under a fresh id as the buffer fills, one transaction per buffer, and switched in
 * at close (see {@link BlobStore}). Obtain one from {@link BlobStore#openWriter}.
 *
 * <p>A writer that is dropped without {@code close} or {@link #abort()} (a crash) leaves its
 * staging to {@link BlobStore#cleanup}. A write or close after the lease ran out throws
 * {@link StagingAbandonedException}. {@link #flush()} does nothing: bytes are not visible
 * until close.
 *
 * <p>Not thread-safe.
 */
public final class BlobWriter extends OutputStream {
    private static final int INITIAL_BUFFER = 8 * 1024;

    private final BlobStore store;
    private final Staging staging;
    private final Database db;
    private final byte[] name;
    private final int chunkSize;
    /** Bytes staged per transaction: whole chunks. */
    private final int batchBytes;
    private byte[] buffer;
    private int buffered;
    /** Bytes already staged, a multiple of the chunk size. */
    private long staged;
    /** The staging id once staging began; -1 before. */
    private long id = -1;
    private boolean finished;

    BlobWriter(BlobStore store, Staging staging, Database db, byte[] name, int chunkSize, int batchBytes) {
        this.store = store;
        this.staging = staging;
        this.db = db;
        this.name = name.clone();
        this.chunkSize = chunkSize;
        this.batchBytes = batchBytes;
        this.buffer = new byte[Math.min(INITIAL_BUFFER, batchBytes)];
    }

    /** Bytes written so far. */
    public long length() {
        return staged + buffered;
    }

    /** Whether staging began (the value was larger than one transaction). */
    public boolean isStaging() {
        return id >= 0;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (buffered == batchBytes) {
                stageBuffer();
            }
            if (buffered == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min((long) buffer.length * 2, batchBytes));
            }
            int n = Math.min(len, buffer.length - buffered);
            System.arraycopy(b, off, buffer, buffered, n);
            buffered += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Makes the written bytes the blob's value: in one transaction if they fit, otherwise by
     * staging the rest and switching the head to it. Closing twice does nothing.
     *
     * @throws StagingAbandonedException the lease ran out and cleanup removed the staging
     */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        if (id < 0) {
            byte[] value = Arrays.copyOf(buffer, buffered);
            Futures.await(db.runAsync(tr -> store.write(tr, name, value)));
            return;
        }
        try {
            if (buffered > 0) {
                Futures.await(staging.put(db, id, name, staged / chunkSize, buffer, 0, buffered, chunkSize));
                staged += buffered;
                buffered = 0;
            }
            Futures.await(staging.commit(db, id, name, staged, chunkSize));
        } catch (IOException | RuntimeException | Error e) {
            abortQuietly(e);
            throw e;
        }
    }

    /** Discards the value: the blob keeps its old one, and anything staged is removed. */
    public void abort() throws IOException {
        if (finished) {
            return;
        }
        finished = true;
        if (id >= 0) {
            Futures.await(staging.abort(db, id));
        }
    }

    private void stageBuffer() throws IOException {
        try {
            if (id < 0) {
                id = Futures.await(staging.begin(db, name));
            }
            Futures.await(staging.put(db, id, name, staged / chunkSize, buffer, 0, buffered, chunkSize));
        } catch (IOException | RuntimeException | Error e) {
            finished = true;
            abortQuietly(e);
            throw e;
        }
        staged += buffered;
        buffered = 0;
    }

    /** After a failure: remove what was staged if possible; cleanup removes it otherwise. */
    private void abortQuietly(Throwable failure) {
        if (id < 0) {
            return;
        }
        try {
            Futures.await(staging.abort(db, id));
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private void ensureOpen() throws IOException {
        if (finished) {
            throw new IOException("blob writer closed or aborted");
        }
    }
}
