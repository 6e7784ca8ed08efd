package io.strata.engine.durability;

import io.strata.engine.store.RecoveryWrites;
import io.strata.engine.store.VersionedStore;
import io.strata.engine.util.ByteKeys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Recovery: replays every log segment of a directory, oldest first, into a store (over a
 * disk store, into the disk store itself: {@link VersionedStore#recoveryWrites()}).
 *
 * <h2>What is a torn tail and what is corruption</h2>
 * A crash while appending can leave, at the end of the <em>newest</em> segment only, a
 * record whose header or payload is cut short, or whose checksum fails because its last
 * sectors never reached the disk, followed by nothing but the zeros the log preallocates.
 * Such a record was never acknowledged: it is truncated away, and so are the zeros (in any
 * segment: a crash while the log rotated leaves them in the one before the newest). Anything else — a bad checksum or impossible length followed by more data, a damaged
 * header, a damaged older segment, versions that do not increase — is corruption, and
 * opening fails with {@link CorruptLogException} naming the file and offset.
 */
public final class LogReplay {
    /** The outcome of a replay. */
    public record Result(long lastVersion, List<Path> segments, long records) {}

    private LogReplay() {}

    /** The segment files of {@code directory}, oldest first. */
    public static List<Path> segments(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.log")).sorted().toList();
        }
    }

    /** The first version a segment may hold, from its name. */
    static long firstVersion(Path segment) {
        String n = segment.getFileName().toString();
        return Long.parseLong(n.substring(0, n.length() - ".log".length()));
    }

    /** Replays every record; see {@link #replay(Path, VersionedStore, long)}. */
    public static Result replay(Path directory, VersionedStore store) throws IOException {
        return replay(directory, store, 0);
    }

    /**
     * Replays the records newer than {@code after} (a checkpoint's version) into
     * {@code store}, truncating a torn tail of the newest segment; older records are still
     * checked, then skipped.
     *
     * @return the last version replayed (at least {@code after})
     */
    public static Result replay(Path directory, VersionedStore store, long after) throws IOException {
        List<Path> segments = new ArrayList<>(segments(directory));
        try (RecoveryWrites writes = store.recoveryWrites()) {
            writes.expectLogBytes(bytesAfter(segments, after));
            return replay(directory, segments, writes, after);
        }
    }

    /**
     * The bytes of the segments that may hold records newer than {@code after}: all but those
     * whose successor begins at or below {@code after + 1}.
     */
    private static long bytesAfter(List<Path> segments, long after) throws IOException {
        long bytes = 0;
        for (int i = 0; i < segments.size(); i++) {
            if (i + 1 < segments.size() && firstVersion(segments.get(i + 1)) <= after + 1) {
                continue;
            }
            bytes += Files.size(segments.get(i));
        }
        return bytes;
    }

    private static Result replay(Path directory, List<Path> segments, RecoveryWrites writes, long after) throws IOException {
        long lastVersion = 0;
        long records = 0;
        ReadAhead reader = new ReadAhead();
        for (int i = 0; i < segments.size(); i++) {
            boolean newest = i == segments.size() - 1;
            Path segment = segments.get(i);
            try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                long size = ch.size();
                if (size < LogFormat.HEADER_BYTES) {
                    if (newest) {
                        // Crashed while creating the segment: nothing was ever written to it.
                        ch.close();
                        Files.delete(segment);
                        Fsync.directory(directory);
                        segments.remove(i);
                        break;
                    }
                    throw new CorruptLogException(segment, 0, "segment shorter than its header");
                }
                ByteBuffer header = FileIo.read(ch, 0, LogFormat.HEADER_BYTES);
                byte[] magic = new byte[LogFormat.MAGIC.length];
                header.get(magic);
                if (!Arrays.equals(magic, LogFormat.MAGIC)) {
                    throw new CorruptLogException(segment, 0, "not a Strata log segment (bad magic)");
                }
                int format = header.getInt();
                if (format != LogFormat.FORMAT_VERSION) {
                    throw new CorruptLogException(segment, 8, "unknown log format version " + format);
                }
                long pos = LogFormat.HEADER_BYTES;
                reader.of(ch);
                while (pos < size) {
                    long recordStart = pos;
                    String torn = null;
                    ByteBuffer payload = null;
                    if (size - pos < LogFormat.RECORD_HEADER_BYTES) {
                        torn = "record header cut short";
                    } else {
                        ByteBuffer rh = reader.read(pos, LogFormat.RECORD_HEADER_BYTES);
                        int length = rh.getInt();
                        int crc = rh.getInt();
                        if (length == 0 && crc == 0 && zeros(ch, pos, size)) {
                            // Space preallocated and never written (WriteAheadLog): the records end
                            // here. Left in an older segment only by a crash during rotation.
                            ch.truncate(recordStart);
                            ch.force(true);
                            break;
                        }
                        if (length < 12 || length > LogFormat.MAX_PAYLOAD_BYTES) {
                            torn = "impossible record length " + length;
                            if (!zeros(ch, pos + LogFormat.RECORD_HEADER_BYTES, size)) {
                                // Data follows a damaged length: that is not a torn write.
                                throw new CorruptLogException(segment, recordStart, torn);
                            }
                        } else if (size - pos - LogFormat.RECORD_HEADER_BYTES < length) {
                            torn = "record cut short";
                        } else {
                            payload = reader.read(pos + LogFormat.RECORD_HEADER_BYTES, length);
                            pos += LogFormat.RECORD_HEADER_BYTES + length;
                            if (LogFormat.crc(payload) != crc) {
                                torn = "checksum mismatch";
                            }
                        }
                    }
                    if (torn != null) {
                        // Torn: the last record written, nothing but zeros (preallocated space) after it.
                        boolean atEnd = payload == null || zeros(ch, pos, size);
                        if (!newest || !atEnd) {
                            throw new CorruptLogException(segment, recordStart, torn);
                        }
                        // The torn tail of the newest segment: never acknowledged; cut it off.
                        ch.truncate(recordStart);
                        ch.force(true);
                        break;
                    }
                    long version = payload.getLong();
                    if (version <= lastVersion) {
                        throw new CorruptLogException(segment, recordStart,
                                "version " + version + " does not follow " + lastVersion);
                    }
                    if (version > after) {
                        apply(segment, recordStart, payload, version, writes);
                        writes.endOfRecord(version);
                        records++;
                    }
                    lastVersion = version;
                }
            }
        }
        writes.finish();
        return new Result(Math.max(lastVersion, after), segments, records);
    }

    private static void apply(Path segment, long offset, ByteBuffer payload, long version, RecoveryWrites store)
            throws CorruptLogException {
        try {
            int count = payload.getInt();
            for (int i = 0; i < count; i++) {
                byte type = payload.get();
                byte[] a = new byte[payload.getInt()];
                payload.get(a);
                byte[] b = new byte[payload.getInt()];
                payload.get(b);
                if (type == LogFormat.SET) {
                    store.set(a, b, version);
                } else if (type == LogFormat.CLEAR_RANGE) {
                    if (ByteKeys.isKeyAfter(a, b)) {
                        store.clear(a, version);
                    } else {
                        store.clearRange(a, b, version);
                    }
                } else {
                    throw new CorruptLogException(segment, offset, "unknown entry type " + type);
                }
            }
            if (payload.hasRemaining()) {
                throw new CorruptLogException(segment, offset, "bytes left after the record's entries");
            }
        } catch (RuntimeException e) {
            // A checksummed record that does not parse was written wrong, not torn.
            throw new CorruptLogException(segment, offset, "record does not parse: " + e);
        }
    }

    /** True when the file holds only zero bytes from {@code pos} to {@code size}: space never written. */
    private static boolean zeros(FileChannel ch, long pos, long size) throws IOException {
        for (long p = pos; p < size; p += 1 << 16) {
            ByteBuffer b = FileIo.read(ch, p, (int) Math.min(1 << 16, size - p));
            while (b.hasRemaining()) {
                if (b.get() != 0) {
                    return false;
                }
            }
        }
        return true;
    }

}
