package io.strata.redis.streams;

import java.nio.ByteBuffer;

/**
 * A stream's own state, kept in its key's metadata after the object id (so every command
 * reads it with the key, and XADD writes it with the key's one metadata record):
 *
 * <pre>
 * length[8] last-generated-id[16] max-deleted-entry-id[16] entries-added[8]
 * </pre>
 *
 * The first entry is not recorded: it is the first key of the entries range (one bounded
 * read), which is what Redis's recorded first id equals whenever the stream is not empty, and
 * 0-0 when it is.
 *
 * @param length the number of entries
 * @param lastId the last ID generated (XSETID may move it beyond the last entry)
 * @param maxDeletedId the greatest ID XDEL removed (or XSETID set), 0-0 if none
 * @param entriesAdded how many entries were ever added (XSETID may set it)
 */
public record StreamHeader(long length, StreamId lastId, StreamId maxDeletedId, long entriesAdded) {
    static final int SIZE = 48;
    public static final StreamHeader EMPTY = new StreamHeader(0, StreamId.MIN, StreamId.MIN, 0);

    public byte[] encode() {
        return ByteBuffer.allocate(SIZE).putLong(length).put(lastId.encode()).put(maxDeletedId.encode())
                .putLong(entriesAdded).array();
    }

    public static StreamHeader decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        long length = buf.getLong();
        StreamId last = new StreamId(buf.getLong(), buf.getLong());
        StreamId maxDeleted = new StreamId(buf.getLong(), buf.getLong());
        return new StreamHeader(length, last, maxDeleted, buf.getLong());
    }

    StreamHeader withLength(long n) {
        return new StreamHeader(n, lastId, maxDeletedId, entriesAdded);
    }

    StreamHeader appended(StreamId id) {
        return new StreamHeader(length + 1, id, maxDeletedId, entriesAdded + 1);
    }

    StreamHeader deleted(long n, StreamId maxDeleted) {
        return new StreamHeader(length - n, lastId, maxDeleted, entriesAdded);
    }
}
