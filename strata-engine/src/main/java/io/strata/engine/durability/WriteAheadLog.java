package io.strata.engine.durability;

import io.strata.engine.commit.Mutation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Appends commit batches to a log segment ({@link LogFormat}) and makes them durable.
 *
 * <p>Concurrency: used only by the commit sequencer, one batch at a time. Group commit comes
 * from the sequencer itself: while one batch is being fsynced, new commits queue up and form
 * the next, larger batch — so with many committers one fsync covers many transactions.
 *
 * <p>Recovery argument: a record is acknowledged only after its bytes (and, with
 * {@link Durability#FSYNC}, the disk) hold it completely; a crash during {@link #append}
 * leaves at most one incomplete record at the end of the newest segment, which recovery
 * recognises by its length or checksum and truncates.
 */
public final class WriteAheadLog implements AutoCloseable {
    private final FileChannel channel;
    private final Path path;
    private final Durability durability;
    private ByteBuffer buffer = ByteBuffer.allocate(1 << 16);

    private WriteAheadLog(FileChannel channel, Path path, Durability durability) {
        this.channel = channel;
        this.path = path;
        this.durability = durability;
    }

    /**
     * Creates a new segment in {@code directory} for versions from {@code firstVersion} on,
     * writes its header and syncs the file and the directory, so the segment survives a crash
     * before its first record.
     */
    public static WriteAheadLog create(Path directory, long firstVersion, Durability durability) throws IOException {
        Path path = directory.resolve(LogFormat.segmentName(firstVersion));
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            FileIo.writeFully(ch, LogFormat.header());
            ch.force(true);
            Fsync.directory(directory);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new WriteAheadLog(ch, path, durability);
    }

    public Path path() {
        return path;
    }

    /**
     * Writes one batch's effects at {@code version}; returns once durable per the durability
     * mode.
     *
     * @return bytes written
     */
    public int append(long version, List<Mutation> effects) throws IOException {
        int size = 8 + 4;
        for (Mutation m : effects) {
            size += 1 + 4 + m.key().length + 4 + m.param().length;
        }
        if (buffer.capacity() < LogFormat.RECORD_HEADER_BYTES + size) {
            buffer = ByteBuffer.allocate(Integer.highestOneBit(LogFormat.RECORD_HEADER_BYTES + size) * 2);
        }
        buffer.clear();
        buffer.position(LogFormat.RECORD_HEADER_BYTES);
        buffer.putLong(version).putInt(effects.size());
        for (Mutation m : effects) {
            buffer.put(m.type() == Mutation.SET_VALUE ? LogFormat.SET : LogFormat.CLEAR_RANGE);
            buffer.putInt(m.key().length).put(m.key());
            buffer.putInt(m.param().length).put(m.param());
        }
        buffer.flip();
        ByteBuffer payload = buffer.duplicate().position(LogFormat.RECORD_HEADER_BYTES);
        buffer.putInt(0, size).putInt(4, LogFormat.crc(payload));
        int bytes = buffer.remaining();
        FileIo.writeFully(channel, buffer);
        if (durability == Durability.FSYNC) {
            channel.force(false);
        }
        return bytes;
    }


    /** Flushes (whatever the durability mode) and closes the segment. */
    @Override
    public void close() throws IOException {
        try {
            channel.force(true);
        } finally {
            channel.close();
        }
    }
}
