package io.strata.layers.blob;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;

import java.util.concurrent.CompletableFuture;

/** Reads within one transaction: a head, and bytes of the value it describes, chunk range by chunk range. */
final class BlobReads {
    private static final byte[] EMPTY = new byte[0];

    private final BlobLayout layout;

    BlobReads(BlobLayout layout) {
        this.layout = layout;
    }

    /** The head of {@code name}, or null when there is no such blob. */
    CompletableFuture<BlobHead> head(ReadTransaction tr, byte[] name) {
        return tr.get(layout.head(name)).thenApply(value -> value == null ? null : BlobHead.decode(value));
    }

    /**
     * Bytes {@code [offset, offset + length)} of the value {@code head} describes, a range
     * inside the value: one range read of exactly the chunks that hold them.
     */
    CompletableFuture<byte[]> bytes(ReadTransaction tr, BlobHead head, long offset, int length) {
        if (length == 0) {
            return CompletableFuture.completedFuture(EMPTY);
        }
        int chunkSize = head.chunkSize();
        long first = offset / chunkSize;
        long last = (offset + length - 1) / chunkSize;
        byte[] out = new byte[length];
        return tr.getRange(layout.chunks(head.id(), first, last + 1), ReadTransaction.ROW_LIMIT_UNLIMITED, false,
                        StreamingMode.WANT_ALL)
                .asList()
                .thenApply(kvs -> {
                    for (KeyValue kv : kvs) {
                        Chunks.copyInto(out, offset, layout.indexOf(kv.getKey()), kv.getValue(), chunkSize);
                    }
                    return out;
                });
    }

    /** How many bytes of {@code [offset, offset + length)} lie inside a value of {@code valueLength}. */
    static long clip(long valueLength, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
        return offset >= valueLength ? 0 : Math.min(length, valueLength - offset);
    }
}
