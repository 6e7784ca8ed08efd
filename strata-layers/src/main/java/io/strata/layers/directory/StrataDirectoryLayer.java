package io.strata.layers.directory;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.ReadTransactionContext;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.TransactionContext;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import io.strata.layers.allocator.HighContentionAllocator;
import io.strata.layers.ordering.PerTransactionOrder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A directory layer byte-compatible with fdb-java's {@code DirectoryLayer}: a directory created
 * by either one is opened, listed, moved and removed by the other.
 *
 * <h2>Key layout (identical to fdb-java's)</h2>
 * <pre>
 * node = nodeSubspace (default \xFE); a directory with prefix P has the node node[P]
 * root node = node[node.getKey()]
 *   root["version"]         -&gt; 1, 0, 0 as three little-endian int32
 *   root["hca"]             -&gt; the {@link HighContentionAllocator}'s state
 * node[P][0][name]          -&gt; the child directory's prefix
 * node[P]["layer"]          -&gt; the directory's layer bytes
 * </pre>
 * Automatic prefixes are {@code contentSubspace.getKey()} followed by the allocator's result.
 *
 * <h2>Partitions</h2>
 * A directory with the layer {@code "partition"} holds its own directory layer, as in
 * fdb-java: node subspace {@code prefix + \xFE}, content subspace {@code prefix}, no manual
 * prefixes. Paths that go through a partition are handed to it; moves between partitions
 * fail with {@link DirectoryMoveException}. Listing a partition lists its own directories.
 *
 * <h2>Differences from fdb-java</h2>
 * Checking that a manual prefix is free reads serializably only what decides the answer
 * (the nodes that could contain the prefix, and the nodes it could contain), where fdb-java's
 * serializable reverse scan for the node below the prefix conflicts on every key from the
 * nearest node key below up to the prefix: a manual prefix created concurrently in that gap,
 * even one overlapping nothing, aborts it. Operations issued at
 * once on one transaction (without waiting for each other) run one after the other, in the
 * order issued, so they see each other and never create one path twice; fdb-java's run
 * interleaved. The ordering is per layer instance: share the instance. Errors are this
 * package's copies of fdb-java's exceptions, whose constructors are package-private.
 *
 * <h2>Cache</h2>
 * Every operation that changes directory metadata (create, a createOrOpen that creates, move,
 * remove, a removeIfExists that removes, inside partitions too) bumps FoundationDB's metadata
 * version key {@code \xff/metadataVersion} in its transaction, with or without the cache
 * (a versionstamped write, which takes no read conflict; the key is a system key outside the
 * node and content subspaces, so the directory tree's bytes stay those fdb-java writes). A layer built with
 * {@link #withCache()} also keeps the directories it opened, tagged with the metadata version
 * they were read at: {@code open} and a {@code createOrOpen} that opens first read the
 * metadata version (a normal get), and if the cache was filled at that same value they return
 * the cached directory with no directory reads at all; otherwise they take the normal read
 * path and fill the cache with what they read, tagged with that value. The cache is cleared
 * whenever it is filled at a newer value, so it holds one version's directories only, and at
 * most {@value #CACHE_LIMIT} of them (cleared when full).
 *
 * <p>Why this never serves a stale directory: a transaction's reads see the database at its
 * read version, where the metadata version has one value V. Since every change made by this
 * layer writes a new metadata version, the directory tree at V is the one the cache was
 * filled from (a cache entry is only filled from reads made at V, by a transaction that had
 * not itself changed the tree, i.e. from committed state). The get of the metadata version
 * puts a read conflict on it, so if any process using this layer moves or removes a directory
 * and commits after our read version, our commit fails with 1020 (not_committed) and the
 * retry reads the new value, misses the cache and reads the tree again. A transaction that
 * has bumped the metadata version itself cannot read it (1036, accessed_unreadable, which
 * would fail its commit too): the layer remembers its own bumps and does not read the key
 * there ({@link MetadataVersionBumps}); such a transaction's opens take the uncached path, and
 * never fill the cache.
 *
 * <p>Costs and limits, plainly: with the cache on, every open and createOrOpen conflicts
 * with every concurrent directory change made through this layer, even on unrelated paths.
 * Opens through {@code tr.snapshot()} read the metadata version as a snapshot read and so
 * take no conflict on it, just as their uncached directory reads would take none. Writers
 * that do not bump the metadata version, in particular fdb-java's own {@code DirectoryLayer},
 * and anyone writing the node subspace by hand, are NOT seen by the cache: a directory moved
 * or removed by them is served from the cache until something else bumps the metadata
 * version. Only use the cache when every writer of the directory tree is this layer. Only
 * successful opens are cached (a missing directory is always looked up).
 *
 * <p>Thread-safe.
 */
public final class StrataDirectoryLayer {
    /** The layer of a directory partition. */
    public static final byte[] PARTITION_LAYER = "partition".getBytes(StandardCharsets.UTF_8);
    /** fdb-java's default node subspace, raw prefix {@code \xFE}. */
    public static final Subspace DEFAULT_NODE_SUBSPACE = new Subspace(new byte[] {(byte) 0xFE});
    /** fdb-java's default content subspace: no prefix. */
    public static final Subspace DEFAULT_CONTENT_SUBSPACE = new Subspace();

    private static final byte[] EMPTY = new byte[0];
    private static final byte[] LAYER_KEY = "layer".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VERSION_KEY = "version".getBytes(StandardCharsets.UTF_8);
    private static final long SUBDIRS = 0;
    private static final int[] VERSION = {1, 0, 0};
    /** FoundationDB's metadata version key, {@code \xff/metadataVersion}. */
    static final byte[] METADATA_VERSION_KEY = ByteArrayUtil.join(new byte[] {(byte) 0xFF},
            "/metadataVersion".getBytes(StandardCharsets.US_ASCII));
    /** The only parameter the metadata version key accepts: a versionstamp placeholder at offset 0. */
    private static final byte[] METADATA_VERSION_PARAM = new byte[14];
    /** The most directories the cache holds; it is cleared when full. */
    static final int CACHE_LIMIT = 4096;
    private static final int ACCESSED_UNREADABLE = 1036;

    private final Subspace nodeSubspace;
    private final Subspace contentSubspace;
    private final Subspace rootNode;
    private final HighContentionAllocator allocator;
    private final boolean allowManualPrefixes;
    /** The absolute path of this layer's root: empty, or a partition's path. */
    private final List<String> basePath;
    /** Operations issued at once on one transaction run one after the other; see {@link #inOrder}. */
    private final PerTransactionOrder order = new PerTransactionOrder();
    /** The cache of opened directories, or null when disabled; see the class Javadoc, "Cache". */
    private final DirectoryCache cache;
    /**
     * The layer the user holds: this one, or for a partition's inner layer the layer that
     * walked into it. Directories carry it, so their relative operations take absolute paths
     * from the same root, with its ordering and its cache.
     */
    private final StrataDirectoryLayer owner;

    /** The default directory layer: node subspace {@code \xFE}, empty content subspace, no manual prefixes. */
    public StrataDirectoryLayer() {
        this(DEFAULT_NODE_SUBSPACE, DEFAULT_CONTENT_SUBSPACE, false);
    }

    public StrataDirectoryLayer(boolean allowManualPrefixes) {
        this(DEFAULT_NODE_SUBSPACE, DEFAULT_CONTENT_SUBSPACE, allowManualPrefixes);
    }

    public StrataDirectoryLayer(Subspace nodeSubspace, Subspace contentSubspace) {
        this(nodeSubspace, contentSubspace, false);
    }

    public StrataDirectoryLayer(Subspace nodeSubspace, Subspace contentSubspace, boolean allowManualPrefixes) {
        this(nodeSubspace, contentSubspace, allowManualPrefixes, List.of(), false, null);
    }

    private StrataDirectoryLayer(Subspace nodeSubspace, Subspace contentSubspace, boolean allowManualPrefixes,
                                 List<String> basePath, boolean cached, StrataDirectoryLayer owner) {
        this.owner = owner == null ? this : owner;
        this.cache = cached ? new DirectoryCache() : null;
        this.basePath = List.copyOf(basePath);
        this.nodeSubspace = nodeSubspace;
        this.contentSubspace = contentSubspace;
        this.rootNode = nodeSubspace.get(nodeSubspace.getKey());
        this.allocator = HighContentionAllocator.forDirectoryLayer(nodeSubspace);
        this.allowManualPrefixes = allowManualPrefixes;
    }

    /**
     * A layer like this one (same subspaces and manual-prefix setting) that caches the
     * directories it opens, validated by the metadata version: see the class Javadoc, "Cache".
     * Read its limits first: changes by writers that do not bump the metadata version are not seen.
     */
    public StrataDirectoryLayer withCache() {
        return new StrataDirectoryLayer(nodeSubspace, contentSubspace, allowManualPrefixes, basePath, true, null);
    }

    /** Whether this layer caches opened directories ({@link #withCache()}). */
    public boolean isCached() {
        return cache != null;
    }

    public Subspace getNodeSubspace() {
        return nodeSubspace;
    }

    public Subspace getContentSubspace() {
        return contentSubspace;
    }

    // ---------------------------------------------------------------- public operations

    public CompletableFuture<StrataDirectory> createOrOpen(TransactionContext tcx, List<String> path) {
        return createOrOpen(tcx, path, EMPTY);
    }

    /**
     * Opens the directory at {@code path}, creating it and its missing parents if needed. A
     * new directory records {@code layer}; an existing one must have been created with it
     * (an empty {@code layer} matches any), else {@link MismatchedLayerException}.
     */
    public CompletableFuture<StrataDirectory> createOrOpen(TransactionContext tcx, List<String> path, byte[] layer) {
        List<String> p = List.copyOf(path);
        return tcx.runAsync(tr -> inOrder(tr, () -> cachedOpen(tr, tr, p, layer, true)));
    }

    public CompletableFuture<StrataDirectory> open(ReadTransactionContext tcx, List<String> path) {
        return open(tcx, path, EMPTY);
    }

    /** Opens an existing directory: {@link NoSuchDirectoryException} if missing, {@link MismatchedLayerException} on another layer. */
    public CompletableFuture<StrataDirectory> open(ReadTransactionContext tcx, List<String> path, byte[] layer) {
        List<String> p = List.copyOf(path);
        return tcx.readAsync(rtr -> inOrder(rtr, () -> cachedOpen(rtr, null, p, layer, false)));
    }

    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> path) {
        return create(tcx, path, EMPTY, null);
    }

    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> path, byte[] layer) {
        return create(tcx, path, layer, null);
    }

    /**
     * Creates a directory (and its missing parents): {@link DirectoryAlreadyExistsException}
     * if it exists. A non-null {@code prefix} is used instead of an allocated one; it needs
     * manual prefixes enabled and must neither contain nor be contained by a prefix in use
     * ({@link IllegalArgumentException} otherwise).
     */
    public CompletableFuture<StrataDirectory> create(TransactionContext tcx, List<String> path, byte[] layer, byte[] prefix) {
        List<String> p = List.copyOf(path);
        return tcx.runAsync(tr -> inOrder(tr, () -> createOrOpenInternal(tr, tr, p, layer, prefix, true, false)));
    }

    /** Whether a directory exists at {@code path} (the root always does). */
    public CompletableFuture<Boolean> exists(ReadTransactionContext tcx, List<String> path) {
        List<String> p = List.copyOf(path);
        return tcx.readAsync(tr -> inOrder(tr, () -> existsInternal(tr, p)));
    }

    private CompletableFuture<Boolean> existsInternal(ReadTransaction tr, List<String> p) {
        return checkVersion(tr).thenCompose(ignore -> find(tr, p)).thenCompose(node -> {
            if (node.isInPartition(false)) {
                return node.partition().existsInternal(tr, node.partitionSubpath());
            }
            return CompletableFuture.completedFuture(node.exists());
        });
    }

    /** The names of the subdirectories of {@code path}, in key order. */
    public CompletableFuture<List<String>> list(ReadTransactionContext tcx, List<String> path) {
        List<String> p = List.copyOf(path);
        return tcx.readAsync(tr -> inOrder(tr, () -> listInternal(tr, p)));
    }

    private CompletableFuture<List<String>> listInternal(ReadTransaction tr, List<String> p) {
        return checkVersion(tr).thenCompose(ignore -> find(tr, p)).thenCompose(node -> {
            if (!node.exists()) {
                throw new NoSuchDirectoryException(absolute(p));
            }
            if (node.isInPartition(true)) {
                return node.partition().listInternal(tr, node.partitionSubpath());
            }
            Subspace subdirs = nodeWithPrefix(node.prefix).get(SUBDIRS);
            return tr.getRange(subdirs.range()).asList().thenApply(kvs -> {
                List<String> names = new ArrayList<>(kvs.size());
                for (KeyValue kv : kvs) {
                    names.add(subdirs.unpack(kv.getKey()).getString(0));
                }
                return names;
            });
        });
    }

    /** Removes the directory at {@code path}, its subdirectories and all their contents: {@link NoSuchDirectoryException} if missing. */
    public CompletableFuture<Void> remove(TransactionContext tcx, List<String> path) {
        return removeAsync(tcx, path, true).thenApply(ignore -> null);
    }

    /** As {@link #remove}, but returns false instead of failing when nothing exists at {@code path}. */
    public CompletableFuture<Boolean> removeIfExists(TransactionContext tcx, List<String> path) {
        return removeAsync(tcx, path, false);
    }

    /**
     * Moves the directory at {@code oldPath} to {@code newPath}, keeping its prefix. The new
     * parent must exist, nothing may exist at {@code newPath}, and a directory cannot move
     * below itself.
     */
    public CompletableFuture<StrataDirectory> move(TransactionContext tcx, List<String> oldPath, List<String> newPath) {
        List<String> from = List.copyOf(oldPath);
        List<String> to = List.copyOf(newPath);
        return tcx.runAsync(tr -> inOrder(tr, () -> moveInternal(tr, from, to)));
    }

    private CompletableFuture<StrataDirectory> moveInternal(Transaction tr, List<String> from, List<String> to) {
        return checkOrWriteVersion(tr).thenCompose(ignore -> {
            if (from.size() <= to.size() && from.equals(to.subList(0, from.size()))) {
                throw new DirectoryMoveException("The destination directory cannot be a subdirectory of the source directory.",
                        absolute(from), absolute(to));
            }
            return find(tr, from).thenCombine(find(tr, to), (oldNode, newNode) -> new Node[] {oldNode, newNode});
        }).thenCompose(nodes -> {
            Node oldNode = nodes[0];
            Node newNode = nodes[1];
            if (!oldNode.exists()) {
                throw new NoSuchDirectoryException(absolute(from));
            }
            if (oldNode.isInPartition(false) || newNode.isInPartition(false)) {
                if (!oldNode.isInPartition(false) || !newNode.isInPartition(false) || !oldNode.path().equals(newNode.path())) {
                    throw new DirectoryMoveException("Cannot move between partitions.", absolute(from), absolute(to));
                }
                return newNode.partition().moveInternal(tr, oldNode.partitionSubpath(), newNode.partitionSubpath());
            }
            if (newNode.exists()) {
                throw new DirectoryAlreadyExistsException(absolute(to));
            }
            List<String> parentPath = to.subList(0, to.size() - 1);
            return find(tr, parentPath).thenCompose(parent -> {
                if (!parent.exists()) {
                    throw new NoSuchDirectoryException(absolute(parentPath));
                }
                tr.set(subdirKey(parent.prefix, last(to)), oldNode.prefix);
                bumpMetadataVersion(tr);
                return removeFromParent(tr, from).thenApply(ignore -> directory(to, oldNode.prefix, oldNode.layer));
            });
        });
    }

    // ---------------------------------------------------------------- internals

    /**
     * Runs {@code operation} once every operation issued earlier by this layer on the same
     * transaction object has completed (successfully or not), so that operations issued at
     * once in one transaction behave as if issued one after the other: each sees the
     * previous ones' writes, and two never both find a path missing and create it twice.
     * Nothing in this class blocks on a later operation from inside an earlier one's
     * callbacks, which {@link PerTransactionOrder} forbids.
     */
    private <T> CompletableFuture<T> inOrder(Object transaction, Supplier<CompletableFuture<T>> operation) {
        return order.run(transaction, operation);
    }

    /**
     * A node found by walking {@code targetPath}: {@code path} is the part walked. The prefix
     * is null when the path does not exist (the root's is the node subspace key). The walk
     * stops at a partition: the rest of the path is the partition's business.
     */
    private final class Node {
        final byte[] prefix;
        final byte[] layer;
        final List<String> path;
        final List<String> targetPath;

        Node(byte[] prefix, byte[] layer, List<String> path, List<String> targetPath) {
            this.prefix = prefix;
            this.layer = layer;
            this.path = path;
            this.targetPath = targetPath;
        }

        boolean exists() {
            return prefix != null;
        }

        List<String> path() {
            return path;
        }

        /** Whether the target lies in the partition this node is (or is, with {@code includeEmptySubpath}). */
        boolean isInPartition(boolean includeEmptySubpath) {
            return exists() && Arrays.equals(layer, PARTITION_LAYER) && (includeEmptySubpath || targetPath.size() > path.size());
        }

        List<String> partitionSubpath() {
            return targetPath.subList(path.size(), targetPath.size());
        }

        /** The directory layer inside this partition node, as fdb-java's {@code DirectoryPartition} builds it. */
        StrataDirectoryLayer partition() {
            return new StrataDirectoryLayer(new Subspace(ByteArrayUtil.join(prefix, DEFAULT_NODE_SUBSPACE.getKey())),
                    new Subspace(prefix), false, absolute(path), false, owner);
        }
    }

    private List<String> absolute(List<String> path) {
        if (basePath.isEmpty()) {
            return path;
        }
        List<String> joined = new ArrayList<>(basePath);
        joined.addAll(path);
        return joined;
    }

    private Subspace nodeWithPrefix(byte[] prefix) {
        return nodeSubspace.get(prefix);
    }

    private byte[] subdirKey(byte[] parentPrefix, String name) {
        return nodeWithPrefix(parentPrefix).get(SUBDIRS).get(name).getKey();
    }

    private static String last(List<String> path) {
        return path.get(path.size() - 1);
    }

    private StrataDirectory directory(List<String> path, byte[] prefix, byte[] layer) {
        return new StrataDirectory(owner, absolute(path), prefix, layer);
    }

    /**
     * Walks {@code path} from the root, reading each step's subdirectory entry and layer
     * (the reads fdb-java makes), stopping at a partition: its subdirectories live in the
     * partition's own directory layer.
     */
    private CompletableFuture<Node> find(ReadTransaction tr, List<String> path) {
        return step(tr, path, 0, new Node(nodeSubspace.getKey(), null, List.of(), path));
    }

    private CompletableFuture<Node> step(ReadTransaction tr, List<String> path, int index, Node node) {
        if (index == path.size() || (index > 0 && Arrays.equals(node.layer, PARTITION_LAYER))) {
            return CompletableFuture.completedFuture(node);
        }
        List<String> walked = path.subList(0, index + 1);
        return tr.get(subdirKey(node.prefix, path.get(index))).thenCompose(child -> {
            if (child == null) {
                return CompletableFuture.completedFuture(new Node(null, null, walked, path));
            }
            return tr.get(nodeWithPrefix(child).get(LAYER_KEY).getKey())
                    .thenCompose(layer -> step(tr, path, index + 1, new Node(child, layer, walked, path)));
        });
    }

    private CompletableFuture<StrataDirectory> createOrOpenInternal(ReadTransaction rtr, Transaction tr, List<String> path,
                                                                    byte[] layer, byte[] prefix,
                                                                    boolean allowCreate, boolean allowOpen) {
        byte[] wanted = layer == null ? EMPTY : layer;
        if (prefix != null && !allowManualPrefixes) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(basePath.isEmpty()
                    ? "Cannot specify a prefix unless manual prefixes are enabled."
                    : "Cannot specify a prefix in a partition."));
        }
        return checkVersion(rtr).thenCompose(ignore -> {
            if (path.isEmpty()) {
                throw new IllegalArgumentException("The root directory may not be opened.");
            }
            return find(rtr, path);
        }).thenCompose(existing -> {
            if (existing.exists()) {
                if (existing.isInPartition(false)) {
                    return existing.partition().createOrOpenInternal(rtr, tr, existing.partitionSubpath(),
                            layer, prefix, allowCreate, allowOpen);
                }
                if (!allowOpen) {
                    throw new DirectoryAlreadyExistsException(absolute(path));
                }
                if (wanted.length > 0 && !Arrays.equals(wanted, existing.layer)) {
                    throw new MismatchedLayerException(absolute(path), existing.layer, wanted);
                }
                return CompletableFuture.completedFuture(directory(path, existing.prefix, existing.layer));
            }
            if (!allowCreate) {
                throw new NoSuchDirectoryException(absolute(path));
            }
            return createInternal(tr, path, wanted, prefix);
        });
    }

    private CompletableFuture<StrataDirectory> createInternal(Transaction tr, List<String> path, byte[] layer, byte[] prefix) {
        return checkOrWriteVersion(tr).thenCompose(ignore -> {
            if (prefix != null) {
                return CompletableFuture.completedFuture(prefix);
            }
            return allocator.allocate(tr).thenCompose(allocated -> {
                byte[] full = ByteArrayUtil.join(contentSubspace.getKey(), allocated);
                return tr.getRange(Range.startsWith(full), 1).asList().thenApply(kvs -> {
                    if (!kvs.isEmpty()) {
                        throw new IllegalStateException("The database has keys stored at the prefix chosen by the automatic "
                                + "prefix allocator: " + ByteArrayUtil.printable(full) + ".");
                    }
                    return full;
                });
            });
        }).thenCompose(actual -> isPrefixFree(tr, actual, prefix != null).thenCompose(free -> {
            if (!free) {
                if (prefix == null) {
                    throw new IllegalStateException("The directory layer has manually allocated prefixes that conflict "
                            + "with the automatic prefix allocator.");
                }
                throw new IllegalArgumentException("Prefix already in use: " + ByteArrayUtil.printable(actual) + ".");
            }
            CompletableFuture<byte[]> parent = path.size() > 1
                    ? createOrOpenInternal(tr, tr, path.subList(0, path.size() - 1), EMPTY, null, true, true)
                            .thenApply(StrataDirectory::getKey)
                    : CompletableFuture.completedFuture(nodeSubspace.getKey());
            return parent.thenApply(parentPrefix -> {
                tr.set(subdirKey(parentPrefix, last(path)), actual);
                tr.set(nodeWithPrefix(actual).get(LAYER_KEY).getKey(), layer);
                bumpMetadataVersion(tr);
                return directory(path, actual, layer);
            });
        }));
    }

    /**
     * Whether {@code prefix} neither contains nor is contained by a prefix in use (the root
     * node's included). Automatic prefixes are checked by snapshot reads, as fdb-java does:
     * the allocator already guarantees them. A manual prefix is checked serializably, but
     * with read conflicts only on what decides the answer: the nodes of the prefix's own
     * prefixes (one could be created concurrently) and the nodes under the prefix.
     */
    private CompletableFuture<Boolean> isPrefixFree(Transaction tr, byte[] prefix, boolean serializable) {
        if (prefix == null || prefix.length == 0) {
            return CompletableFuture.completedFuture(false);
        }
        if (ByteArrayUtil.startsWith(prefix, nodeSubspace.getKey())) {
            return CompletableFuture.completedFuture(false);
        }
        byte[] below = ByteArrayUtil.join(nodeSubspace.pack(prefix), new byte[] {0x00});
        CompletableFuture<List<KeyValue>> before = tr.snapshot()
                .getRange(nodeSubspace.range().begin, below, 1, true).asList();
        byte[] begin = nodeSubspace.pack(prefix);
        byte[] end = nodeSubspace.pack(ByteArrayUtil.strinc(prefix));
        ReadTransaction reader = serializable ? tr : tr.snapshot();
        CompletableFuture<List<KeyValue>> inside = reader.getRange(begin, end, 1).asList();
        if (serializable) {
            // A node whose prefix is a proper prefix of ours would contain it: conflict on each such node's keys.
            for (int length = 1; length < prefix.length; length++) {
                Range ancestor = Range.startsWith(nodeSubspace.pack(Arrays.copyOf(prefix, length)));
                tr.addReadConflictRange(ancestor.begin, ancestor.end);
            }
        }
        return before.thenCombine(inside, (beforeKvs, insideKvs) -> {
            if (!beforeKvs.isEmpty()) {
                byte[] previous = nodeSubspace.unpack(beforeKvs.get(0).getKey()).getBytes(0);
                if (ByteArrayUtil.startsWith(prefix, previous)) {
                    return false;
                }
            }
            return insideKvs.isEmpty();
        });
    }

    private CompletableFuture<Boolean> removeAsync(TransactionContext tcx, List<String> path, boolean mustExist) {
        List<String> p = List.copyOf(path);
        return tcx.runAsync(tr -> inOrder(tr, () -> removeInternal(tr, p, mustExist)));
    }

    private CompletableFuture<Boolean> removeInternal(Transaction tr, List<String> p, boolean mustExist) {
        return checkOrWriteVersion(tr).thenCompose(ignore -> {
            if (p.isEmpty()) {
                throw new DirectoryException("The root directory cannot be removed.", absolute(p));
            }
            return find(tr, p);
        }).thenCompose(node -> {
            if (!node.exists()) {
                if (mustExist) {
                    throw new NoSuchDirectoryException(absolute(p));
                }
                return CompletableFuture.completedFuture(false);
            }
            if (node.isInPartition(false)) {
                return node.partition().removeInternal(tr, node.partitionSubpath(), mustExist);
            }
            bumpMetadataVersion(tr);
            return removeRecursive(tr, node.prefix)
                    .thenCombine(removeFromParent(tr, p), (a, b) -> true);
        });
    }

    private CompletableFuture<Void> removeFromParent(Transaction tr, List<String> path) {
        return find(tr, path.subList(0, path.size() - 1))
                .thenAccept(parent -> tr.clear(subdirKey(parent.prefix, last(path))));
    }

    /** Clears a directory's contents and node, then its subdirectories' (read before the clear). */
    private CompletableFuture<Void> removeRecursive(Transaction tr, byte[] prefix) {
        Subspace node = nodeWithPrefix(prefix);
        return tr.getRange(node.get(SUBDIRS).range()).asList().thenCompose(children -> {
            tr.clear(Range.startsWith(prefix));
            tr.clear(node.range());
            CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
            for (KeyValue child : children) {
                all = all.thenCompose(ignore -> removeRecursive(tr, child.getValue()));
            }
            return all;
        });
    }

    // ---------------------------------------------------------------- cache

    /** Marks a change of directory metadata: a new metadata version at commit. */
    private static void bumpMetadataVersion(Transaction tr) {
        tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, METADATA_VERSION_KEY, METADATA_VERSION_PARAM);
        MetadataVersionBumps.record(tr);
    }

    /**
     * open ({@code tr} null) or createOrOpen through the cache when there is one: read the
     * metadata version; on a hit at that value return the cached directory; else take the
     * normal path and, if it only opened, fill the cache at that value. A transaction that
     * bumped the metadata version itself (1036 on the read) takes the normal path, uncached.
     */
    private CompletableFuture<StrataDirectory> cachedOpen(ReadTransaction rtr, Transaction tr, List<String> path,
                                                          byte[] layer, boolean allowCreate) {
        if (cache == null || path.isEmpty()) {
            return createOrOpenInternal(rtr, tr, path, layer, null, allowCreate, true);
        }
        byte[] wanted = layer == null ? EMPTY : layer;
        return readMetadataVersion(rtr).thenCompose(version -> {
            if (version == null) {
                return createOrOpenInternal(rtr, tr, path, layer, null, allowCreate, true);
            }
            StrataDirectory hit = cache.get(version, path);
            if (hit != null) {
                byte[] existing = hit.getLayer();
                if (wanted.length > 0 && !Arrays.equals(wanted, existing)) {
                    throw new MismatchedLayerException(absolute(path), existing, wanted);
                }
                return CompletableFuture.completedFuture(hit);
            }
            // Whether this operation created anything: only then does it write the metadata version.
            return createOrOpenInternal(rtr, tr, path, layer, null, allowCreate, true).thenCompose(directory -> {
                if (!allowCreate) {
                    cache.put(version, path, directory);
                    return CompletableFuture.completedFuture(directory);
                }
                // A createOrOpen that created wrote the metadata version: its result is not committed state.
                return readMetadataVersion(rtr).thenApply(after -> {
                    if (after != null) {
                        cache.put(version, path, directory);
                    }
                    return directory;
                });
            });
        });
    }

    /**
     * The metadata version (empty if never written), or null if {@code tr} wrote it itself: then
     * it is not read at all, as the read would fail (1036) and fail the commit with it
     * ({@link MetadataVersionBumps}).
     */
    private static CompletableFuture<byte[]> readMetadataVersion(ReadTransaction tr) {
        if (MetadataVersionBumps.bumped(tr)) {
            return CompletableFuture.completedFuture(null);
        }
        return tr.get(METADATA_VERSION_KEY).handle((value, error) -> {
            if (error == null) {
                return value == null ? EMPTY : value;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof FDBException fdb && fdb.getCode() == ACCESSED_UNREADABLE) {
                return null;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new CompletionException(cause);
        });
    }

    /** Opened directories by path, all read at one metadata version (compared as bytes: versionstamps only grow). */
    private static final class DirectoryCache {
        private byte[] version;
        private final Map<List<String>, StrataDirectory> directories = new HashMap<>();

        synchronized StrataDirectory get(byte[] at, List<String> path) {
            return version != null && Arrays.equals(version, at) ? directories.get(path) : null;
        }

        synchronized void put(byte[] at, List<String> path, StrataDirectory directory) {
            if (version == null || ByteArrayUtil.compareUnsigned(at, version) > 0) {
                version = at;
                directories.clear();
            } else if (!Arrays.equals(at, version)) {
                return; // read at an older metadata version than the cache's: keep the newer one
            }
            if (directories.size() >= CACHE_LIMIT) {
                directories.clear();
            }
            directories.put(path, directory);
        }
    }

    // ---------------------------------------------------------------- version

    private CompletableFuture<Void> checkVersion(ReadTransaction tr) {
        return tr.get(rootNode.pack(VERSION_KEY)).thenApply(bytes -> {
            checkReadable(bytes);
            return null;
        });
    }

    private CompletableFuture<Void> checkOrWriteVersion(Transaction tr) {
        return tr.get(rootNode.pack(VERSION_KEY)).thenApply(bytes -> {
            if (bytes == null) {
                ByteBuffer buffer = ByteBuffer.allocate(VERSION.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                for (int v : VERSION) {
                    buffer.putInt(v);
                }
                tr.set(rootNode.pack(VERSION_KEY), buffer.array());
                return null;
            }
            int[] stored = checkReadable(bytes);
            if (stored[1] > VERSION[1]) {
                throw new DirectoryVersionException("Directory with " + describe(stored)
                        + " is read-only when opened with directory layer " + VERSION[0] + "." + VERSION[1] + "." + VERSION[2] + ".");
            }
            return null;
        });
    }

    /** Decodes the stored version and fails if its major version is newer than ours; null means no version yet. */
    private static int[] checkReadable(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] stored = {buffer.getInt(), buffer.getInt(), buffer.getInt()};
        if (stored[0] > VERSION[0]) {
            throw new DirectoryVersionException("Cannot load directory with " + describe(stored)
                    + " using directory layer " + VERSION[0] + "." + VERSION[1] + "." + VERSION[2] + ".");
        }
        return stored;
    }

    private static String describe(int[] version) {
        return "version " + version[0] + "." + version[1] + "." + version[2];
    }
}
