package io.strata.layers.blob;

import java.nio.ByteBuffer;

/**
 * What a blob's head key holds: where its chunks are and how to read them. Encoded in 28
 * bytes, all big-endian:
 * <pre>
 * bytes  0..7   id          the chunks are under (1, id, index)
 * bytes  8..15  length      the value's length in bytes
 * bytes 16..23  revision    bumped by every change made in place (under the same id)
 * bytes 24..27  chunk size  of this value's chunks (the store's setting when it was written)
 * </pre>
 * {@code (id, revision)} names one content of one blob: ids are never reused, and every
 * change under an id bumps the revision, so two heads with the same pair describe the same
 * bytes. Readers that span transactions rely on that.
 */
record BlobHead(long id, long length, long revision, int chunkSize) {
    static final int ENCODED_LENGTH = 28;

    BlobHead {
        if (id < 0 || length < 0 || revision < 0 || chunkSize < 1 || chunkSize > BlobSettings.MAX_CHUNK_SIZE) {
            throw new IllegalStateException("not a blob head: id " + id + ", length " + length + ", revision " + revision
                    + ", chunk size " + chunkSize);
        }
    }

    static BlobHead decode(byte[] value) {
        if (value.length != ENCODED_LENGTH) {
            throw new IllegalStateException("a blob head has " + ENCODED_LENGTH + " bytes, this one " + value.length);
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        return new BlobHead(b.getLong(), b.getLong(), b.getLong(), b.getInt());
    }

    byte[] encode() {
        return ByteBuffer.allocate(ENCODED_LENGTH).putLong(id).putLong(length).putLong(revision).putInt(chunkSize).array();
    }

    /** The same blob changed in place: a new length and the next revision. */
    BlobHead changed(long newLength) {
        return new BlobHead(id, newLength, revision + 1, chunkSize);
    }

    /** Whether this head names the same content as {@code other}. */
    boolean sameContentAs(BlobHead other) {
        return other != null && id == other.id && revision == other.revision;
    }

    /** How many chunk keys may exist: one per started chunk of the length. */
    long chunkCount() {
        return Chunks.count(length, chunkSize);
    }
}
