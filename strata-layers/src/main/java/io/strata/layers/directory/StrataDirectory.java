package io.strata.layers.directory;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransactionContext;
import com.apple.foundationdb.TransactionContext;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A directory opened or created by a {@link StrataDirectoryLayer}: its absolute path, its
 * layer, its content prefix (as a {@link Subspace}), and the operations of fdb-java's
 * {@code DirectorySubspace} on paths relative to it. fdb-java's {@code Directory} interface
 * returns its own package-private {@code DirectorySubspace}, so this class cannot implement
 * it; it offers the same methods with the same meaning instead.
 *
 * <p><b>Relative operations.</b> {@code createOrOpen}, {@code open}, {@code create},
 * {@code list}, {@code exists}, {@code move}, {@code remove} and {@code removeIfExists} take
 * a subpath of this directory (empty for the directory itself) and run on the directory
 * layer that opened it, with the same conflicts, errors and ordering guarantees as that
 * layer's own methods (and its cache, if it has one). {@link #moveTo} takes an absolute path
 * and, as fdb-java's, refuses to move a directory out of its partition.
 *
 * <p><b>Partitions.</b> As with fdb-java's {@code DirectoryPartition}, a partition's root
 * cannot be used as a subspace: {@code getKey}, {@code pack}, {@code unpack}, {@code range},
 * {@code contains}, {@code get} and {@code subspace} throw {@link UnsupportedOperationException}
 * (create a subdirectory to hold content). Its own directory operations work.
 *
 * <p>Instances are immutable and thread-safe. A directory is a snapshot of what the layer
 * found: after a move or remove (by anyone) its prefix no longer names that path; open it
 * again to see the current state.
 */
public final class StrataDirectory extends Subspace {
    private final StrataDirectoryLayer directoryLayer;
    private final List<String> path;
    private final byte[] prefix;
    private final byte[] layer;

    StrataDirectory(StrataDirectoryLayer directoryLayer, List<String> path, byte[] prefix, byte[] layer) {
        super(prefix);
        this.directoryLayer = directoryLayer;
        this.path = List.copyOf(path);
        this.prefix = prefix.clone();
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

    /** The directory layer that opened this directory; every relative operation runs on it. */
    public StrataDirectoryLayer getDirectoryLayer() {
        return directoryLayer;
    }

    /** Whether this directory is a partition (its layer is {@code "partition"}). */
    public boolean isPartition() {
        return Arrays.equals(layer, StrataDirectoryLayer.PARTITION_LAYER);
    }

    // ---------------------------------------------------------------- operations relative to this directory

    /** {@link StrataDirectoryLayer#createOrOpen(TransactionContext, List)} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> createOrOpen(TransactionContext tcx, List<String> subpath) {
        return directoryLayer.createOrOpen(tcx, below(subpath));
    }

    /** {@link StrataDirectoryLayer#createOrOpen(TransactionContext, List, byte[])} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> createOrOpen(TransactionContext tcx, List<String> subpath, byte[] otherLayer) {
        return directoryLayer.createOrOpen(tcx, below(subpath), otherLayer);
    }

    /** {@link StrataDirectoryLayer#open(ReadTransactionContext, List)} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> open(ReadTransactionContext tcx, List<String> subpath) {
        return directoryLayer.open(tcx, below(subpath));
    }

    /** {@link StrataDirectoryLayer#open(ReadTransactionContext, List, byte[])} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> open(ReadTransactionContext tcx, List<String> subpath, byte[] otherLayer) {
        return directoryLayer.open(tcx, below(subpath), otherLayer);
    }

    /** {@link StrataDirectoryLayer#create(TransactionContext, List)} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> subpath) {
        return directoryLayer.create(tcx, below(subpath));
    }

    /** {@link StrataDirectoryLayer#create(TransactionContext, List, byte[])} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> subpath, byte[] otherLayer) {
        return directoryLayer.create(tcx, below(subpath), otherLayer);
    }

    /** {@link StrataDirectoryLayer#create(TransactionContext, List, byte[], byte[])} of {@code subpath} below this directory. */
    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> subpath, byte[] otherLayer,
                                                     byte[] manualPrefix) {
        return directoryLayer.create(tcx, below(subpath), otherLayer, manualPrefix);
    }

    /** The names of this directory's subdirectories, in key order. */
    public CompletableFuture<List<String>> list(ReadTransactionContext tcx) {
        return list(tcx, List.of());
    }

    /** The names of the subdirectories of {@code subpath} below this directory, in key order. */
    public CompletableFuture<List<String>> list(ReadTransactionContext tcx, List<String> subpath) {
        return directoryLayer.list(tcx, below(subpath));
    }

    /** Whether this directory still exists at its path. */
    public CompletableFuture<Boolean> exists(ReadTransactionContext tcx) {
        return exists(tcx, List.of());
    }

    /** Whether a directory exists at {@code subpath} below this directory. */
    public CompletableFuture<Boolean> exists(ReadTransactionContext tcx, List<String> subpath) {
        return directoryLayer.exists(tcx, below(subpath));
    }

    /** Moves the directory at {@code oldSubpath} below this one to {@code newSubpath} below this one. */
    public CompletableFuture<StrataDirectory> move(TransactionContext tcx, List<String> oldSubpath, List<String> newSubpath) {
        return directoryLayer.move(tcx, below(oldSubpath), below(newSubpath));
    }

    /**
     * Moves this directory to {@code newAbsolutePath}, keeping its prefix, under the rules of
     * {@link StrataDirectoryLayer#move}: {@link DirectoryMoveException} if that would take it
     * out of (or into another) partition.
     */
    public CompletableFuture<StrataDirectory> moveTo(TransactionContext tcx, List<String> newAbsolutePath) {
        return directoryLayer.move(tcx, path, newAbsolutePath);
    }

    /** Removes this directory, its subdirectories and all their contents; {@link NoSuchDirectoryException} if gone. */
    public CompletableFuture<Void> remove(TransactionContext tcx) {
        return remove(tcx, List.of());
    }

    /** Removes the directory at {@code subpath} below this one, with its subdirectories and contents. */
    public CompletableFuture<Void> remove(TransactionContext tcx, List<String> subpath) {
        return directoryLayer.remove(tcx, below(subpath));
    }

    /** As {@link #remove(TransactionContext)}, but false instead of failing when it is already gone. */
    public CompletableFuture<Boolean> removeIfExists(TransactionContext tcx) {
        return removeIfExists(tcx, List.of());
    }

    /** As {@link #remove(TransactionContext, List)}, but false instead of failing when nothing is there. */
    public CompletableFuture<Boolean> removeIfExists(TransactionContext tcx, List<String> subpath) {
        return directoryLayer.removeIfExists(tcx, below(subpath));
    }

    private List<String> below(List<String> subpath) {
        List<String> joined = new ArrayList<>(path.size() + subpath.size());
        joined.addAll(path);
        joined.addAll(subpath);
        return joined;
    }

    // ---------------------------------------------------------------- a partition is not a subspace

    @Override
    public byte[] getKey() {
        refuseIfPartition("Cannot get key for the root of a directory partition.");
        return super.getKey();
    }

    @Override
    public Subspace get(Object o) {
        refuseIfPartition("Cannot open subspace in the root of a directory partition.");
        return super.get(o);
    }

    @Override
    public Subspace get(Tuple name) {
        refuseIfPartition("Cannot open subspace in the root of a directory partition.");
        return super.get(name);
    }

    @Override
    public Subspace subspace(Tuple tuple) {
        refuseIfPartition("Cannot open subspace in the root of a directory partition.");
        return super.subspace(tuple);
    }

    @Override
    public byte[] pack() {
        refuseIfPartition("Cannot pack keys using the root of a directory partition.");
        return super.pack();
    }

    @Override
    public byte[] pack(Object o) {
        refuseIfPartition("Cannot pack keys using the root of a directory partition.");
        return super.pack(o);
    }

    @Override
    public byte[] pack(Tuple tuple) {
        refuseIfPartition("Cannot pack keys using the root of a directory partition.");
        return super.pack(tuple);
    }

    @Override
    public Tuple unpack(byte[] key) {
        refuseIfPartition("Cannot unpack keys using the root of a directory partition.");
        return super.unpack(key);
    }

    @Override
    public Range range() {
        refuseIfPartition("Cannot get range for the root of a directory partition.");
        return super.range();
    }

    @Override
    public Range range(Tuple tuple) {
        refuseIfPartition("Cannot get range for the root of a directory partition.");
        return super.range(tuple);
    }

    @Override
    public boolean contains(byte[] key) {
        refuseIfPartition("Cannot check whether a key belongs to the root of a directory partition.");
        return super.contains(key);
    }

    private void refuseIfPartition(String message) {
        if (isPartition()) {
            throw new UnsupportedOperationException(message);
        }
    }

    /** The content prefix, for the layer's own use (a partition's included). */
    byte[] prefix() {
        return prefix.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StrataDirectory other && Arrays.equals(prefix, other.prefix)
                && path.equals(other.path) && Arrays.equals(layer, other.layer);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(prefix) * 31 + path.hashCode();
    }

    @Override
    public String toString() {
        return "StrataDirectory(path=" + String.join("/", path) + ", prefix=" + ByteArrayUtil.printable(prefix)
                + ", layer=" + ByteArrayUtil.printable(layer) + ")";
    }
}
