package io.strata.layers.directory;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;

import java.util.Arrays;
import java.util.List;

/**
 * A directory opened or created by {@link StrataDirectoryLayer}: its absolute path, its layer,
 * and (as a {@link Subspace}) its content prefix. fdb-java's {@code DirectorySubspace} has
 * package-private constructors only, so this small class stands in for it.
 */
public final class StrataDirectory extends Subspace {
    private final List<String> path;
    private final byte[] layer;

    StrataDirectory(List<String> path, byte[] prefix, byte[] layer) {
        super(prefix);
        this.path = List.copyOf(path);
        this.layer = layer == null ? new byte[0] : layer.clone();
    }

    /** The absolute path of the directory. */
    public List<String> getPath() {
        return path;
    }

    /** The layer the directory was created with (empty if none). */
    public byte[] getLayer() {
        return layer.clone();
    }

    /** Whether this directory is a partition (its layer is {@code "partition"}). */
    public boolean isPartition() {
        return Arrays.equals(layer, StrataDirectoryLayer.PARTITION_LAYER);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StrataDirectory other && super.equals(o)
                && path.equals(other.path) && Arrays.equals(layer, other.layer);
    }

    @Override
    public int hashCode() {
        return super.hashCode() * 31 + path.hashCode();
    }

    @Override
    public String toString() {
        return "StrataDirectory(path=" + String.join("/", path) + ", prefix=" + ByteArrayUtil.printable(getKey())
                + ", layer=" + ByteArrayUtil.printable(layer) + ")";
    }
}
