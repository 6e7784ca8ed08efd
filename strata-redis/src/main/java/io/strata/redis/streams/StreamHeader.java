package io.strata.redis.streams;

import java.nio.ByteBuffer;

/**
 * A stream's own state, kept in its key's metadata after the object id (so every command
 * reads it with the key, and XADD writes it with the key's one metadata record):
 *
 * <pre>
 * length[8] last-generated-id[16] max-deleted-entry-id[16] entries-added[8] tail-node[8] tail-fill[8]
 * </pre>
 *
 * Nodes: Redis keeps entries in radix-tree nodes of {@code stream-node-max-entries} appended
 * entries (deleted ones still count), and approximate trimming ({@code ~}) removes whole
 * nodes only. Each entry here records the number of the node it would sit in: appends fill
 * the tail node until it holds that many, then open the next; an empty stream starts a new
 * one. Trimming with {@code ~} then removes exactly the entries Redis would.
 *
 * The first entry is not recorded: it is the first key of the entries range (one bounded
 * read), which is what Redis's recorded first id equals whenever the stream is not empty, and
 * 0-0 when it is.
 *
 * @param length the number of entries
 * @param lastId the last ID generated (XSETID may move it beyond the last entry)
 * @param maxDeletedId the greatest ID XDEL removed (or XSETID set), 0-0 if none
 * @param entriesAdded how many entries were ever added (XSETID may set it)
 * @param tailNode the node the last appended entry went to
 * @param tailFill how many entries were appended to that node
 */
public record StreamHeader(long length, StreamId lastId, StreamId maxDeletedId, long entriesAdded, long tailNode, long tailFill) {
    static final int SIZE = 64;
    public static final StreamHeader EMPTY = new StreamHeader(0, StreamId.MIN, StreamId.MIN, 0, 0, 0);

    public byte[] encode() {
        return ByteBuffer.allocate(SIZE).putLong(length).put(lastId.encode()).put(maxDeletedId.encode())
                .putLong(entriesAdded).putLong(tailNode).putLong(tailFill).array();
    }

    public static StreamHeader decode(byte[] b) {
        ByteBuffer buf = ByteBuffer.wrap(b);
        long length = buf.getLong();
        StreamId last = new StreamId(buf.getLong(), buf.getLong());
        StreamId maxDeleted = new StreamId(buf.getLong(), buf.getLong());
        return new StreamHeader(length, last, maxDeleted, buf.getLong(), buf.getLong(), buf.getLong());
    }

    StreamHeader withLength(long n) {
        return new StreamHeader(n, lastId, maxDeletedId, entriesAdded, tailNode, tailFill);
    }

    /** After appending {@code id} to node {@link #nodeForAppend}. */
    StreamHeader appended(StreamId id, long nodeEntries) {
        long node = nodeForAppend(nodeEntries);
        long fill = node == tailNode ? tailFill + 1 : 1;
        return new StreamHeader(length + 1, id, maxDeletedId, entriesAdded + 1, node, fill);
    }

    /** The node the next appended entry goes to. */
    long nodeForAppend(long nodeEntries) {
        return length == 0 || tailFill >= nodeEntries ? tailNode + 1 : tailNode;
    }

    StreamHeader deleted(long n, StreamId maxDeleted) {
        return new StreamHeader(length - n, lastId, maxDeleted, entriesAdded, tailNode, tailFill);
    }

    StreamHeader withIds(StreamId last, StreamId maxDeleted, long added) {
        return new StreamHeader(length, last, maxDeleted, added, tailNode, tailFill);
    }
}
