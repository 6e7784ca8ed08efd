package io.strata.engine.durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a file front to back, as recovery does, through one reused direct buffer: each byte is
 * copied once, by the kernel into the buffer, where {@link FileIo#read} zeroes a new heap
 * buffer, has the kernel copy into a temporary direct one and copies that onto the heap (three
 * passes, a third of a 1 GiB recovery's reading thread).
 *
 * <p>What {@link #read} returns is a view of the buffer, valid until the next call. Not
 * thread-safe.
 */
final class ReadAhead {
    /** Bytes read from the file at a time; longer reads go through {@link FileIo#read}. */
    static final int BUFFER_BYTES = 4 << 20;

    private final int maxBytes;
    /** Sized to the largest file read so far, up to {@code maxBytes}: a small database's recovery takes little. */
    private ByteBuffer buffer = ByteBuffer.allocateDirect(0);
    private FileChannel channel;
    /** The file's bytes {@code [start, start + filled)} are in the buffer. */
    private long start;
    private int filled;

    ReadAhead() {
        this(BUFFER_BYTES);
    }

    /** Tests: a smaller buffer, so that reads cross its end. */
    ReadAhead(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Reads {@code channel} from now on; forgets what was buffered. */
    void of(FileChannel channel) throws IOException {
        this.channel = channel;
        filled = 0;
        int wanted = (int) Math.min(maxBytes, channel.size());
        if (buffer.capacity() < wanted) {
            buffer = ByteBuffer.allocateDirect(wanted);
        }
    }

    /**
     * Exactly {@code length} bytes at {@code pos} (position 0, big-endian), valid until the next
     * call; fails at end of file.
     */
    ByteBuffer read(long pos, int length) throws IOException {
        if (length > buffer.capacity()) {
            return FileIo.read(channel, pos, length);
        }
        if (pos < start || pos + length > start + filled) {
            fill(pos, length);
        }
        return buffer.slice((int) (pos - start), length);
    }

    /** Fills the buffer from {@code pos}, as far as one read goes but at least {@code length} bytes. */
    private void fill(long pos, int length) throws IOException {
        buffer.clear();
        start = pos;
        filled = 0;
        while (buffer.position() < length) {
            if (channel.read(buffer, pos + buffer.position()) < 0) {
                throw new IOException("unexpected end of file");
            }
        }
        filled = buffer.position();
    }
}
