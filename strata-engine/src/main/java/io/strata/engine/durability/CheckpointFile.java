package io.strata.engine.durability;

import io.strata.engine.store.StoreRange;
import io.strata.engine.store.RecoveryWrites;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A checkpoint: every key and value of the store at one version, so that recovery starts
 * there and the log before it can be deleted. Documented in {@code docs/format.md}.
 *
 * <pre>
 * file:    checkpoint-&lt;version, 20 digits&gt;.ckpt
 * header:  magic "STRATACP" (8) | format version (u32) | reserved, zero (u32) | version (u64)
 * chunk:   length n (u32) | CRC-32C of the n bytes (u32) | n bytes of entries
 * entry:   key length (u32) | key | value length (u32) | value      (keys ascending)
 * trailer: a chunk of length 0 whose CRC field is the CRC-32C of the next 8 bytes | entry count (u64)
 * </pre>
 * Integers big-endian. A checkpoint is written to {@code .tmp}, fsynced, renamed, and the
 * directory fsynced; one without its trailer, or with any bad chunk, is not complete and is
 * never loaded (recovery then refuses if no complete checkpoint and no full log remain).
 */
public final class CheckpointFile {
    public static final byte[] MAGIC = "STRATACP".getBytes(StandardCharsets.US_ASCII);
    public static final int FORMAT_VERSION = 1;
    static final int HEADER_BYTES = 24;
    /** Entries per chunk are cut at about this many bytes: one checksum per 64 KiB. */
    static final int CHUNK_BYTES = 1 << 16;

    private CheckpointFile() {}

    static String name(long version) {
        return String.format("checkpoint-%020d.ckpt", version);
    }

    /** The complete-looking checkpoint files of {@code directory}, newest first (by name). */
    static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().matches("checkpoint-\\d{20}\\.ckpt"))
                    .sorted((a, b) -> b.getFileName().toString().compareTo(a.getFileName().toString())).toList();
        }
    }

    static long versionOf(Path checkpoint) {
        String n = checkpoint.getFileName().toString();
        return Long.parseLong(n.substring("checkpoint-".length(), n.length() - ".ckpt".length()));
    }

    /**
     * Writes the store as of {@code version} (which must stay readable: pinned) and makes
     * it durable under its final name.
     *
     * @return the checkpoint's path
     */
    static Path write(Path directory, VersionedStore store, long version) throws IOException {
        Path target = directory.resolve(name(version));
        Path tmp = directory.resolve(name(version) + ".tmp");
        long count = 0;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
            header.put(MAGIC).putInt(FORMAT_VERSION).putInt(0).putLong(version).flip();
            FileIo.writeFully(ch, header);
            ByteBuffer chunk = ByteBuffer.allocate(8 + CHUNK_BYTES);
            chunk.position(8);
            try (StoreRange it = store.range(ByteKeys.EMPTY, ByteKeys.SYSTEM_END, version, false)) {
                while (it.hasNext()) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    int need = 8 + e.getKey().length + e.getValue().length;
                    if (chunk.position() > 8 && chunk.position() + need > chunk.capacity()) {
                        flushChunk(ch, chunk);
                    }
                    if (chunk.capacity() < 8 + need) {
                        chunk = ByteBuffer.allocate(8 + need);
                        chunk.position(8);
                    }
                    chunk.putInt(e.getKey().length).put(e.getKey()).putInt(e.getValue().length).put(e.getValue());
                    count++;
            }
            }
            if (chunk.position() > 8) {
                flushChunk(ch, chunk);
            }
            ByteBuffer countBytes = ByteBuffer.allocate(8).putLong(count).flip();
            ByteBuffer trailer = ByteBuffer.allocate(16);
            trailer.putInt(0).putInt(LogFormat.crc(countBytes)).put(countBytes).flip();
            FileIo.writeFully(ch, trailer);
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        Fsync.directory(directory);
        return target;
    }

    private static void flushChunk(FileChannel ch, ByteBuffer chunk) throws IOException {
        int n = chunk.position() - 8;
        ByteBuffer body = chunk.duplicate().position(8).limit(8 + n);
        chunk.putInt(0, n).putInt(4, LogFormat.crc(body));
        chunk.position(0).limit(8 + n);
        FileIo.writeFully(ch, chunk);
        chunk.clear();
        chunk.position(8);
    }

    /**
     * Loads a checkpoint into {@code store} at its version, through its recovery path (for the
     * packed store, straight into it in key order, in large batches).
     *
     * @return the checkpoint's version
     * @throws CorruptLogException when the file is damaged or incomplete
     */
    static long load(Path file, VersionedStore store) throws IOException {
        try (RecoveryWrites writes = store.recoveryWrites()) {
            long version = load(file, writes);
            writes.finish();
            return version;
        }
    }

    /**
     * Tells {@code store} the entry count of the trailer, read ahead of the entries — a hint
     * only, given when the trailer's checksum holds and the file could hold that many entries;
     * the trailer is checked again when the load reaches it.
     */
    private static void expectKeys(FileChannel ch, long size, RecoveryWrites store) throws IOException {
        if (size < HEADER_BYTES + 16) {
            return;
        }
        ByteBuffer trailer = FileIo.read(ch, size - 16, 16);
        long count = trailer.getLong(8);
        if (trailer.getInt(0) == 0 && trailer.getInt(4) == LogFormat.crc(trailer.slice(8, 8))
                && count > 0 && count <= (size - HEADER_BYTES) / 8) {
            store.expectKeys(count);
        }
    }

    static long load(Path file, RecoveryWrites store) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < HEADER_BYTES) {
                throw new CorruptLogException(file, 0, "checkpoint shorter than its header");
            }
            ByteBuffer header = FileIo.read(ch, 0, HEADER_BYTES);
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new CorruptLogException(file, 0, "not a Strata checkpoint (bad magic)");
            }
            int format = header.getInt();
            if (format != FORMAT_VERSION) {
                throw new CorruptLogException(file, 8, "unknown checkpoint format version " + format);
            }
            header.getInt();
            long version = header.getLong();
            long pos = HEADER_BYTES;
            long count = 0;
            ReadAhead reader = new ReadAhead();
            reader.of(ch);
            expectKeys(ch, size, store);
            while (true) {
                if (size - pos < 8) {
                    throw new CorruptLogException(file, pos, "checkpoint ends without its trailer");
                }
                ByteBuffer ch8 = reader.read(pos, 8);
                int n = ch8.getInt();
                int crc = ch8.getInt();
                if (n == 0) {
                    if (size - pos - 8 < 8) {
                        throw new CorruptLogException(file, pos, "checkpoint trailer cut short");
                    }
                    ByteBuffer countBytes = reader.read(pos + 8, 8);
                    if (LogFormat.crc(countBytes) != crc || countBytes.getLong(0) != count) {
                        throw new CorruptLogException(file, pos, "checkpoint trailer does not match its " + count + " entries");
                    }
                    return version;
                }
                if (n < 0 || n > size - pos - 8) {
                    throw new CorruptLogException(file, pos, "impossible chunk length " + n);
                }
                ByteBuffer body = reader.read(pos + 8, n);
                if (LogFormat.crc(body) != crc) {
                    throw new CorruptLogException(file, pos, "checksum mismatch");
                }
                try {
                    while (body.hasRemaining()) {
                        byte[] k = new byte[body.getInt()];
                        body.get(k);
                        byte[] v = new byte[body.getInt()];
                        body.get(v);
                        store.set(k, v, version);
                        count++;
                    }
                    store.endOfRecord(version);
                } catch (RuntimeException e) {
                    throw new CorruptLogException(file, pos, "chunk does not parse: " + e);
                }
                pos += 8 + n;
            }
        }
    }


}
