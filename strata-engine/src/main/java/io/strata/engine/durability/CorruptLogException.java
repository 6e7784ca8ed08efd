package io.strata.engine.durability;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A database directory holds data that is damaged somewhere other than the torn end of the
 * newest log segment. Opening refuses, and names the file and byte offset, rather than
 * silently dropping what follows.
 */
public final class CorruptLogException extends IOException {
    private final Path file;
    private final long offset;

    public CorruptLogException(Path file, long offset, String problem) {
        super(file + " at byte offset " + offset + ": " + problem
                + "; refusing to open rather than lose the data after it (restore the file or move it aside)");
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
