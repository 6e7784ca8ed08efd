package io.strata.engine.durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Whole-buffer reads and writes: {@link FileChannel} may transfer fewer bytes than asked. */
final class FileIo {
    private FileIo() {}

    /** Reads exactly {@code length} bytes at {@code pos}; fails at end of file. */
    static ByteBuffer read(FileChannel ch, long pos, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (ch.read(b, pos + b.position()) < 0) {
                throw new IOException("unexpected end of file");
            }
        }
        return b.flip();
    }

    /** Writes all of {@code b} at {@code pos}, leaving the channel's position alone. */
    static void writeFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }

    /** Writes all of {@code b} at the channel's position. */
    static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
