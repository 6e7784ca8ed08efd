package io.strata.layers.directory;

import com.apple.foundationdb.tuple.ByteArrayUtil;

import java.util.List;

/** The directory was created with another layer (fdb-java: {@code MismatchedLayerException}). */
public class MismatchedLayerException extends DirectoryException {
    private final byte[] stored;
    private final byte[] opened;

    public MismatchedLayerException(List<String> path, byte[] stored, byte[] opened) {
        super("Mismatched layer: stored: " + printable(stored) + ", opened: " + printable(opened), path);
        this.stored = stored == null ? null : stored.clone();
        this.opened = opened == null ? null : opened.clone();
    }

    private static String printable(byte[] bytes) {
        return bytes == null ? "null" : ByteArrayUtil.printable(bytes);
    }

    /** The layer the directory was created with (null if none was stored). */
    public byte[] getStored() {
        return stored == null ? null : stored.clone();
    }

    /** The layer it was opened with. */
    public byte[] getOpened() {
        return opened == null ? null : opened.clone();
    }
}
