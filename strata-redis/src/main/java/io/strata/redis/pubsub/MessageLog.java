package io.strata.redis.pubsub;

import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.RedisException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue of published messages in the database, shared by every server process.
 *
 * <p>A publish adds the message under a versionstamped key ({@code Q 'q' stamp seq part},
 * see {@link PubSubKeys}) and ADDs 1 to the tail key: both are blind writes, so publishers
 * never conflict with each other, and the keys sort in commit order — the order every
 * subscriber sees. A message is one record {@code kind[1] channelLength[4] channel message}
 * cut into parts of at most {@link #PART_BYTES} (a value's limit is 100,000 bytes); the first
 * part's value starts with the number of parts. {@link MessageReader} reads the queue back.
 *
 * <p>A message larger than a transaction carries ({@link #appendStored}) was written before,
 * over many transactions, into an object of its own, laid out as a large string is
 * ({@link io.strata.redis.keyspace.LargeValues}). Its
 * record names the object instead of holding the message —
 * {@code kind[1] channelLength[4] channel objectPrefix}, cut into parts the same way — and its
 * part count has the {@link #STORED} bit set. A key {@code Q 'b' stamp seq} names the object
 * too, so that trimming the queue finds and clears the objects of the entries it takes without
 * reading the queue ({@link ReaderLease}).
 *
 * <p>Concurrency: stateless but for the sequence counter, an atomic; {@code seq} only has to
 * order the messages of one transaction, which one thread builds in order.
 */
final class MessageLog {
    /** Bytes of a message record per queue value. */
    static final int PART_BYTES = 90_000;
    /**
     * The largest message record kept in the queue itself: a transaction holds at most
     * 10,000,000 bytes. Messages larger than {@code LargeValues.MAX_IN_TRANSACTION}
     * (9,000,000 bytes) are stored apart, so this leaves the channel name up to 900,000 bytes.
     */
    static final int MAX_RECORD_BYTES = 9_900_000;
    private static final byte[] ONE = PubSubKeys.littleEndian(1);
    /** The bit of the part count that marks a record naming the object a message is stored in. */
    private static final int STORED = 0x8000;

    private final PubSubKeys keys;
    private final AtomicLong seq = new AtomicLong();

    MessageLog(PubSubKeys keys) {
        this.keys = keys;
    }

    /** Fails, before anything is written, when a message cannot be kept in the database. */
    static void checkSize(byte[] channel, byte[] message) {
        if (5L + channel.length + message.length > MAX_RECORD_BYTES) {
            throw new RedisException("ERR message too large: channel name and message take " + (5L + channel.length + message.length)
                    + " bytes, more than the " + MAX_RECORD_BYTES + " one transaction carries (a message over 9,000,000 bytes"
                    + " is stored apart, except one published from a script)");
        }
    }

    /** Appends a message in {@code tr}; it reaches subscribers once {@code tr} commits. */
    void append(Transaction tr, ChannelKind kind, byte[] channel, byte[] message) {
        checkSize(channel, message);
        appendRecord(tr, kind, channel, message, 0);
    }

    /**
     * Appends, in {@code tr}, a message already written into the object whose keys start with
     * {@code objectPrefix}; the queue owns the object from this commit on and clears it when
     * the entry is trimmed.
     */
    void appendStored(Transaction tr, ChannelKind kind, byte[] channel, byte[] objectPrefix) {
        checkSize(channel, objectPrefix);
        long s = appendRecord(tr, kind, channel, objectPrefix, STORED);
        tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, keys.versionstampedStoredKey(s), objectPrefix);
    }

    /** Writes the record's parts and bumps the tail; returns the record's {@code seq}. */
    private long appendRecord(Transaction tr, ChannelKind kind, byte[] channel, byte[] body, int flags) {
        byte[] record = ByteBuffer.allocate(5 + channel.length + body.length)
                .put(kind.tag).putInt(channel.length).put(channel).put(body).array();
        int parts = Math.max(1, (record.length + PART_BYTES - 1) / PART_BYTES);
        long s = seq.getAndIncrement();
        for (int part = 0; part < parts; part++) {
            int from = part * PART_BYTES;
            int to = Math.min(record.length, from + PART_BYTES);
            byte[] value;
            if (part == 0) {
                value = ByteBuffer.allocate(2 + to - from).putShort((short) (parts | flags)).put(record, from, to - from).array();
            } else {
                value = Arrays.copyOfRange(record, from, to);
            }
            tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, keys.versionstampedEntryKey(s, part), value);
        }
        tr.mutate(MutationType.ADD, keys.tail(), ONE);
        return s;
    }

    /**
     * A message read back from the queue: {@code message} is null when it is stored apart, in
     * the object whose keys start with {@code storedAt} (null otherwise).
     */
    record Message(byte[] stamp, ChannelKind kind, byte[] channel, byte[] message, byte[] lastKey, byte[] storedAt) {
        Message withMessage(byte[] body) {
            return new Message(stamp, kind, channel, body, lastKey, null);
        }
    }

    /**
     * Decodes the complete messages at the start of {@code rows} (queue rows in key order). A
     * message whose parts run past the end of {@code rows} is left for the next read.
     */
    List<Message> decode(List<KeyValue> rows) {
        List<Message> out = new ArrayList<>();
        int i = 0;
        while (i < rows.size()) {
            byte[] first = rows.get(i).getValue();
            int count = ByteBuffer.wrap(first, 0, 2).getShort() & 0xffff;
            int parts = count & ~STORED;
            if (i + parts > rows.size()) {
                break;
            }
            ByteBuffer record;
            if (parts == 1) {
                record = ByteBuffer.wrap(first, 2, first.length - 2);
            } else {
                int size = first.length - 2;
                for (int p = 1; p < parts; p++) {
                    size += rows.get(i + p).getValue().length;
                }
                record = ByteBuffer.allocate(size);
                record.put(first, 2, first.length - 2);
                for (int p = 1; p < parts; p++) {
                    record.put(rows.get(i + p).getValue());
                }
                record.flip();
            }
            ChannelKind kind = ChannelKind.ofTag(record.get());
            byte[] channel = new byte[record.getInt()];
            record.get(channel);
            byte[] body = new byte[record.remaining()];
            record.get(body);
            byte[] stamp = Arrays.copyOf(keys.entrySuffix(rows.get(i).getKey()), PubSubKeys.STAMP);
            byte[] last = rows.get(i + parts - 1).getKey();
            boolean stored = (count & STORED) != 0;
            out.add(new Message(stamp, kind, channel, stored ? null : body, last, stored ? body : null));
            i += parts;
        }
        return out;
    }
}
