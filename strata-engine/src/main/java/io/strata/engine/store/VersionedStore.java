package io.strata.engine.store;

import io.strata.engine.util.ByteKeys;

import java.util.Iterator;
import java.util.Map;

/**
 * The multi-version key-value store: every version of a key written in the last five
 * seconds, and only the newest version before that.
 *
 * <h2>Design</h2>
 * {@link VersionChain}s, each a newest-first linked list of (version, value) where a null
 * value is a tombstone, held by two indexes: {@link SortedIndex}, a B+tree, for range reads
 * and range clears, and {@link ChainIndex}, a hash table, for point reads and for finding a
 * written key's chain. A reader at read version {@code rv} walks the chain to the first
 * entry with {@code version <= rv}. This is what a FoundationDB storage server keeps in
 * memory for the MVCC window ({@code VersionedMap}); the engine keeps all data this way.
 *
 * <h2>Concurrency</h2>
 * One writer, many readers. Only the commit sequencer calls the mutating methods, always
 * with a version greater than any visible one, and publishes the version (see
 * {@code CommitPipeline}) only after the whole batch is applied; readers never lock and
 * never see a half-applied batch because they ignore entries newer than their read
 * version. Chains are prepended with a release write, so a reader sees either the old
 * head or the new one, both consistent. A new key's chain enters the hash index, then the
 * B+tree, before any later write to it; each index's own Javadoc argues why its readers
 * never miss a chain that was there when their version was published.
 *
 * <h2>Pruning</h2>
 * Every write but a key's first records its chain (which knows its key) and the node it
 * created in a FIFO owned by the writer ({@link PruneQueue}), in version order. {@link #pruneBefore} takes the entries below the window's floor; for each,
 * no admitted reader can walk past that node any more, so the chain is cut right after it —
 * O(1), no walk — and a chain left with only an old tombstone is removed from the indexes. Cost
 * is proportional to the writes that left the window, never to the data size or to how
 * many versions a hot key has.
 * Readers with a read version below the floor must be refused ({@code transaction_too_old}):
 * {@link #oldestReadableVersion()} tells the floor, and readers re-check it after reading,
 * so a read that raced with pruning is refused rather than answered wrongly.
 *
 * <h2>Range clears</h2>
 * A range clear writes a tombstone on every present key of the range, so it walks the
 * range, and the walk also passes the tombstones still inside the window. A layer that
 * clears a growing prefix over and over — the HCA clears its reservations below the window
 * start at every advance, and its counters below it — would walk the same tombstones each
 * time. So the store remembers a few intervals known to hold no present key (each the union
 * of recent clears that meet or touch; a {@link #set} inside one splits it around its key),
 * and a clear walks only what lies outside them.
 *
 * <h2>Over a disk store ({@link io.strata.Storage#SSD})</h2>
 * Memory then holds only the window — every write newer than the version the
 * {@link DiskStore} is at — and the disk holds the newest version of every key as of that
 * version, as a FoundationDB storage server keeps its window in memory over its disk engine.
 * <ul>
 *   <li><b>Writes</b> go to memory as above; every write, a key's first included, enters the
 *       pruning FIFO. A clear of a key not in memory writes a tombstone chain (the key may be
 *       on disk). A range clear writes tombstones on the chains of its range in memory and,
 *       when the disk holds a key of the range, is remembered whole in {@link RangeClears}.</li>
 *   <li><b>Leaving the window</b>: {@link #pruneBefore} hands the writes below the floor, and
 *       the range clears, to the {@link CatchUp} thread, which writes them to the disk in
 *       version order. Once written (and past the grace period of {@link ReaderEpochs}) they
 *       come back and the sequencer drops them: a range clear is forgotten, a chain is cut
 *       behind the node as above, and a chain whose newest node was written is removed —
 *       the key now lives on disk only. A batch's range clears go before its chains.</li>
 *   <li><b>A point read</b> at {@code rv} walks the key's chain; when no node is at or below
 *       {@code rv}, a range clear at or below {@code rv} covering the key means absent, else
 *       the disk answers. Why that is right while the catch-up runs: memory always holds every
 *       write newer than the disk's version (nothing is dropped before it is on disk), and the
 *       disk's version is below the floor, so at or below {@code rv}. If the chain walk missed
 *       a write because it was dropped meanwhile, the disk already has it; if it saw a range
 *       clear, every later write to the key is still in memory (drops go in version order,
 *       clears first), so the walk would have found it.</li>
 *   <li><b>A range read</b> opens a disk cursor, which sees the disk as it was when opened, and
 *       merges it with the chains of the range. Chains dropped while it walks would be lost to
 *       it, so it holds a {@link ReaderEpochs} registration until closed, and reads the disk's
 *       version {@code A} after registering: nothing written after {@code A} is dropped before
 *       it closes, and a disk key with no chain node at or below {@code rv} is absent when a
 *       range clear in {@code (A, rv]} covers it (older ones the cursor already shows).</li>
 * </ul>
 *
 * <p>FoundationDB differs in pruning by version ranges per storage server; the answers are
 * the same.
 */
public final class VersionedStore implements AutoCloseable {
    private final SortedIndex sorted = new SortedIndex();
    /**
     * The same chains by hash, for point reads: one probe instead of a skip-list descent of
     * a tree descent. Always holds exactly the chains of {@link #sorted}.
     */
    private final ChainIndex index = new ChainIndex();


    /**
     * Writer-owned: every write, oldest first, for pruning: the chain (which knows its key)
     * and the node the write created, so that pruning needs no lookup per write (a fifth of
     * the sequencer's time when every write is a new key).
     */
    private final PruneQueue dirty = new PruneQueue();

    /**
     * Writer-owned: intervals {@code [absentBegins[i], absentEnds[i])}, {@code i < absentCount},
     * that hold no present key at the newest version. See "Range clears". A handful is
     * enough: a layer clears a few growing prefixes (the HCA two), and every {@link #set}
     * checks them all.
     */
    private static final int ABSENT_INTERVALS = 4;
    private final byte[][] absentBegins = new byte[ABSENT_INTERVALS][];
    private final byte[][] absentEnds = new byte[ABSENT_INTERVALS][];
    private int absentCount;
    /** The interval {@link #clearRange} replaces next when none can be extended. */
    private int absentVictim;

    /** Keeps {@link #prefetch}'s loads from being optimised away; never read. */
    @SuppressWarnings("unused")
    private int prefetchSink;

    /**
     * Writer-owned: the heap the store's keys, values and nodes take, as {@link HeapSizes}
     * estimates it — every version in the window and the newest one of every present key or
     * recent tombstone. Read by the writer ({@code CommitPipeline}'s memory limit); others
     * read it through {@link #bytes()}, which may lag.
     */
    private long bytes;
    private volatile long bytesPublished;

    /** The disk store under the window, or null when everything is in memory. */
    private final DiskStore disk;
    /** Over a disk store: range clears not yet dropped after the catch-up wrote them; else null. */
    private final RangeClears diskClears;
    private final ReaderEpochs epochs;
    private final CatchUp catchUp;
    /** Writer-owned, over a disk store: range clears not yet handed to the catch-up, oldest first. */
    private final java.util.ArrayDeque<RangeClears.Clear> clearsToHandOver;

    private volatile long oldestReadableVersion = Long.MIN_VALUE;
    /** A version a checkpoint is reading: pruning keeps it readable until unpinned. */
    private volatile long pinned = Long.MAX_VALUE;

    /**
     * The memory engine's store ({@link io.strata.Storage#MEMORY}): the window over a
     * {@link PackedStore}, which the catch-up thread named {@code name} keeps up to date.
     */
    public static VersionedStore packed(String name) {
        return new VersionedStore(new PackedStore(), name);
    }

    /**
     * A store held wholly in the window's structures, every key a chain however old: the
     * reference the window's own tests use, and what the memory engine was before
     * {@link #packed}.
     */
    public VersionedStore() {
        this.disk = null;
        this.diskClears = null;
        this.epochs = null;
        this.catchUp = null;
        this.clearsToHandOver = null;
    }

    /**
     * A store whose newest versions live in {@code disk} ({@link io.strata.Storage#SSD}),
     * which it closes; the window starts empty over the disk's {@link DiskStore#appliedVersion}.
     * Starts the catch-up thread named {@code name}.
     */
    public VersionedStore(DiskStore disk, String name) {
        this.disk = disk;
        this.diskClears = new RangeClears();
        this.epochs = new ReaderEpochs();
        // The packed store gathers 20 ms of writes per round (see CatchUp's gatherNanos).
        this.catchUp = disk.durable()
                ? new CatchUp(disk, epochs, name, 0, CatchUp.MAX_BYTES_PER_WRITE)
                : new CatchUp(disk, epochs, name, PACKED_GATHER_MILLIS, PACKED_BYTES_PER_ROUND);
        this.clearsToHandOver = new java.util.ArrayDeque<>();
    }

    /**
     * Where recovery replays the log: this store's own writes, or, over a disk store, the
     * disk store directly ({@link DiskRecovery}). Before the engine starts only.
     */
    public RecoveryWrites recoveryWrites() {
        if (disk != null) {
            return new DiskRecovery(disk);
        }
        VersionedStore store = this;
        return new RecoveryWrites() {
            @Override
            public void set(byte[] key, byte[] value, long version) {
                store.set(key, value, version);
            }

            @Override
            public void clear(byte[] key, long version) {
                store.clear(key, version);
            }

            @Override
            public void clearRange(byte[] begin, byte[] end, long version) {
                store.clearRange(begin, end, version);
            }

            @Override
            public void endOfRecord(long version) {
            }

            @Override
            public void finish() {
            }
        };
    }

    /** Whether the newest versions live in a disk store ({@link io.strata.Storage#SSD}). */
    public boolean onDisk() {
        return disk != null && disk.durable();
    }

    /** Over a disk store, the version it has every write up to; else {@code Long.MAX_VALUE}. */
    public long diskVersion() {
        return disk == null ? Long.MAX_VALUE : disk.appliedVersion();
    }

    /** Over a disk store, makes what it has survive a crash (see {@link DiskStore#makeDurable}). */
    public void makeDiskDurable() throws java.io.IOException {
        if (disk != null) {
            disk.makeDurable();
        }
    }

    /**
     * Over the packed store: waits, at most {@code timeoutMillis}, until the catch-up has
     * written everything handed to it, then drops it from the window — so that what left the
     * window is counted at its packed size (and what was cleared not at all) before the memory
     * limit refuses a commit. Returns at once over a disk store or none. Writer only.
     */
    public void catchUpForMemoryLimit(long timeoutMillis) throws InterruptedException {
        if (disk == null || disk.durable()) {
            return;
        }
        catchUp.hurry();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!catchUp.idle() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        dropWrittenToDisk();
    }

    /** How long the catch-up gathers writes for the packed store before a round. */
    static final long PACKED_GATHER_MILLIS = 20;
    /** How much a round of the catch-up writes to the packed store at most, about. */
    static final long PACKED_BYTES_PER_ROUND = 64L << 20;

    /** Over a disk store, whether the catch-up has written everything handed to it. */
    public boolean caughtUp() {
        return catchUp == null || catchUp.idle();
    }

    /**
     * Over a disk store, once no more writes or reads come (the engine is closing): hands the
     * whole window to the catch-up, waits until it is written (at most {@code timeoutMillis})
     * and makes the disk store durable, so that a clean restart replays no log and a new
     * process finds everything on disk. Returns whether all of it was written; nothing
     * otherwise. Writer only.
     */
    public boolean writeWindowToDisk(long timeoutMillis) throws java.io.IOException, InterruptedException {
        if (disk == null) {
            return true;
        }
        long newest = Long.MIN_VALUE;
        if (!dirty.isEmpty()) {
            newest = dirty.newestVersion();
        }
        if (!clearsToHandOver.isEmpty()) {
            newest = Math.max(newest, clearsToHandOver.peekLast().version());
        }
        if (newest != Long.MIN_VALUE) {
            handOver(Long.MAX_VALUE, newest);
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!catchUp.idle()) {
            if (System.nanoTime() > deadline) {
                return false; // the log still has it
            }
            Thread.sleep(1);
        }
        dropWrittenToDisk();
        disk.makeDurable();
        return true;
    }

    /**
     * Over a disk store, after {@link #writeWindowToDisk} at a clean close: waits at most
     * {@code timeoutMillis} for the disk store's background reorganisation to finish
     * ({@link DiskStore#settle}), so the next open's reads do not run beside it. Returns
     * whether it finished.
     */
    public boolean settleDisk(long timeoutMillis) throws InterruptedException {
        return disk == null || disk.settle(timeoutMillis);
    }

    /** Stops the catch-up and closes the disk store; what it had not written is still in the log. */
    @Override
    public void close() {
        if (disk != null) {
            catchUp.close();
            disk.close();
        }
    }

    /** The value of {@code key} at {@code version}, or null when absent. */
    public byte[] get(byte[] key, long version) {
        int hash = ByteKeys.hash(key);
        VersionChain chain = index.get(key, hash);
        if (disk == null) {
            return chain == null ? null : chain.valueAt(version);
        }
        // Over a disk store: see "Over a disk store" for why this order is right.
        if (chain != null) {
            VersionNode n = chain.nodeAt(version);
            if (n != null) {
                return n.value();
            }
        }
        RangeClears.Snapshot clears = diskClears.snapshot();
        if (!clears.isEmpty() && clears.covers(key, Long.MIN_VALUE, version)) {
            return null;
        }
        return disk.get(key, hash);
    }

    /** The newest value of {@code key}, including writes of the batch being applied; writer only. */
    public byte[] latest(byte[] key) {
        VersionChain chain = index.get(key);
        if (chain != null || disk == null) {
            return chain == null ? null : chain.latestValue();
        }
        RangeClears.Snapshot clears = diskClears.snapshot();
        if (!clears.isEmpty() && clears.covers(key, Long.MIN_VALUE, Long.MAX_VALUE)) {
            return null;
        }
        return disk.get(key);
    }

    /** Sets {@code key} to {@code value} at {@code version}; writer only. */
    public void set(byte[] key, byte[] value, long version) {
        set(key, ByteKeys.hash(key), value, version);
    }

    /**
     * {@link #set(byte[], byte[], long)} with {@code hash} as {@link #prefetch} computed it
     * for {@code key}; writer only.
     */
    public void set(byte[] key, int hash, byte[] value, long version) {
        if (absentCount > 0) {
            splitAbsentAt(key);
        }
        VersionChain chain = index.getOrCreate(key, hash, version, value);
        if (index.created) {
            // New: in the hash index first, then the sorted one, as before any write to it.
            // Its first write has nothing older to prune and is not a tombstone, so it needs
            // no pruning entry: the chain leaves the window by its later writes' entries.
            sorted.insert(chain);
            bytes += HeapSizes.CHAIN + HeapSizes.array(key.length) + chain.valueHeapBytes();
            if (disk != null) {
                dirty.add(chain, chain); // over a disk store every write must reach the disk
            }
        } else {
            write(chain, version, value);
        }
    }

    /** A later write of {@code chain}'s key, with its pruning entry and what it adds to {@link #bytes}. */
    private void write(VersionChain chain, long version, byte[] value) {
        VersionNode replaced = chain.newest();
        if (replaced.version == version) {
            // A second write in the same batch: the node it replaces is gone (the chain, when
            // it is that node, stays as the key's entry but drops its value).
            bytes -= replaced.valueHeapBytes() + (replaced == chain ? 0 : HeapSizes.NODE);
        }
        VersionNode n = chain.write(version, value);
        dirty.add(chain, n);
        bytes += HeapSizes.NODE + n.valueHeapBytes();
    }

    /**
     * What the store takes on the heap, estimated (see {@link HeapSizes}): keys, values, the
     * versions of the MVCC window and the objects holding them. As of the last
     * {@link #publishBytes}; any thread.
     */
    public long bytes() {
        return bytesPublished + (disk == null ? 0 : disk.heapBytes());
    }

    /**
     * The newest version whose clears {@link #bytes()} has counted out: a key cleared at
     * {@code v} still counts (its old value, and the clear's own entry) until the window has
     * passed {@code v} and, over a packed or disk store, the catch-up has applied it there.
     * Lets a caller that frees space by clearing (the Redis server's eviction) tell what it
     * cleared and the gauge does not show yet from what it does. Any thread.
     */
    public long settledVersion() {
        long pruned = oldestReadableVersion == Long.MIN_VALUE ? Long.MIN_VALUE : oldestReadableVersion - 1;
        return disk == null ? pruned : Math.min(pruned, droppedVersion);
    }

    /**
     * Over a packed or disk store: the version of the last batch the catch-up wrote and the
     * window then dropped ({@link #dropWritten}), below which {@link #bytes()} counts every
     * version once, at its size there.
     */
    private volatile long droppedVersion = Long.MIN_VALUE;
    /** Writer-owned: {@link #droppedVersion} before {@link #publishBytes} makes the bytes it counts visible with it. */
    private long droppedUnpublished = Long.MIN_VALUE;

    /**
     * What the versions below the window take: over the packed store, its size; otherwise
     * {@link #bytes()}. What stays once the window has passed every write so far — the
     * figure to hold data to, since the window's share comes and goes with the write rate.
     * Any thread.
     */
    public long settledBytes() {
        return disk == null || disk.durable() ? bytes() : disk.heapBytes();
    }

    /** The current {@link #bytes()}, for the writer. */
    public long bytesNow() {
        return bytes + (disk == null ? 0 : disk.heapBytes());
    }

    /** Makes {@link #bytes()} current; writer only, once per batch. */
    public void publishBytes() {
        bytesPublished = bytes;
        droppedVersion = droppedUnpublished;
    }

    /**
     * Readies the writes of a batch: stores {@code ByteKeys.hash(keys[i])} in
     * {@code hashes[i]} for {@code i < count}, then loads the hash-index slot where each key's
     * probe begins. Each of those loads is a likely cache miss (the index is large and
     * reached at random), and here they do not depend on one another, so the processor
     * overlaps them; {@link #set(byte[], int, byte[], long)} then finds the slots in the
     * cache instead of waiting for each in turn. Writer only.
     */
    public void prefetch(byte[][] keys, int[] hashes, int count) {
        for (int i = 0; i < count; i++) {
            hashes[i] = ByteKeys.hash(keys[i]);
        }
        int loaded = 0;
        for (int i = 0; i < count; i++) {
            loaded += index.touch(hashes[i]);
        }
        prefetchSink = loaded;
    }

    /** Clears {@code key} at {@code version}; writer only. */
    public void clear(byte[] key, long version) {
        VersionChain chain = index.get(key);
        if (chain != null) {
            if (!chain.latestIsTombstone()) {
                write(chain, version, null);
            }
        } else if (disk != null) {
            // The key may be on disk: a tombstone chain hides it, and takes the delete there.
            chain = index.getOrCreate(key, ByteKeys.hash(key), version, null);
            sorted.insert(chain);
            bytes += HeapSizes.CHAIN + HeapSizes.array(key.length);
            dirty.add(chain, chain);
        }
    }

    /** Clears every key in {@code [begin, end)} at {@code version}; writer only. */
    public void clearRange(byte[] begin, byte[] end, long version) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return;
        }
        byte[] firstWalked = null;
        for (byte[] from = pastAbsent(begin); ByteKeys.compare(from, end) < 0; from = pastAbsent(from)) {
            byte[] stop = nextAbsentAfter(from, end);
            for (Iterator<VersionChain> it = sorted.ascending(from, stop); it.hasNext(); ) {
                VersionChain chain = it.next();
                if (!chain.latestIsTombstone()) {
                    write(chain, version, null);
                }
            }
            if (firstWalked == null) {
                firstWalked = from;
            }
            from = stop;
        }
        if (firstWalked != null && disk != null && disk.anyKeyIn(firstWalked, end)) {
            // Keys on disk only: remembered as a range until the disk has the clear too (the
            // known-absent parts it spans hold no key to clear, on disk either).
            RangeClears.Clear clear = new RangeClears.Clear(firstWalked, end, version);
            diskClears.add(clear);
            clearsToHandOver.add(clear);
        }
        rememberAbsent(begin, end);
    }

    /** {@code key}, or the end of the known-absent intervals it falls in, one after another. */
    private byte[] pastAbsent(byte[] key) {
        for (boolean moved = true; moved; ) {
            moved = false;
            for (int i = 0; i < absentCount; i++) {
                if (ByteKeys.compare(key, absentBegins[i]) >= 0 && ByteKeys.compare(key, absentEnds[i]) < 0) {
                    key = absentEnds[i];
                    moved = true;
                }
            }
        }
        return key;
    }

    /** The first known-absent interval's start after {@code from} and before {@code end}, else {@code end}. */
    private byte[] nextAbsentAfter(byte[] from, byte[] end) {
        byte[] stop = end;
        for (int i = 0; i < absentCount; i++) {
            if (ByteKeys.compare(absentBegins[i], from) > 0 && ByteKeys.compare(absentBegins[i], stop) < 0) {
                stop = absentBegins[i];
            }
        }
        return stop;
    }

    /** Records {@code [begin, end)} as known absent, merged with every interval it meets or touches. */
    private void rememberAbsent(byte[] begin, byte[] end) {
        for (int i = 0; i < absentCount; i++) {
            if (ByteKeys.compare(absentBegins[i], end) <= 0 && ByteKeys.compare(absentEnds[i], begin) >= 0) {
                begin = ByteKeys.min(begin, absentBegins[i]);
                end = ByteKeys.max(end, absentEnds[i]);
                forgetAbsent(i--);
            }
        }
        addAbsent(begin, end);
    }

    /**
     * Takes {@code key}, about to be written, out of the known-absent intervals holding it:
     * the parts before and after it stay known absent, so that the next clear of a prefix that
     * a late writer wrote one key into walks past that key, not the whole prefix again (the
     * HCA's allocators that read an older window write their reservations below the start
     * the last clear moved past).
     */
    private void splitAbsentAt(byte[] key) {
        for (int i = 0; i < absentCount; i++) {
            if (ByteKeys.compare(key, absentBegins[i]) >= 0 && ByteKeys.compare(key, absentEnds[i]) < 0) {
                byte[] after = ByteKeys.keyAfter(key);
                byte[] end = absentEnds[i];
                if (ByteKeys.compare(absentBegins[i], key) < 0) {
                    absentEnds[i] = key;
                } else {
                    forgetAbsent(i--);
                }
                if (ByteKeys.compare(after, end) < 0 && absentCount < ABSENT_INTERVALS) {
                    // When every slot is taken the part after the key is let go, not an
                    // interval that a growing prefix's next clear starts in.
                    absentBegins[absentCount] = after;
                    absentEnds[absentCount++] = end;
                }
            }
        }
    }

    /** Adds an interval, in place of the next victim (in turn) when all are taken. */
    private void addAbsent(byte[] begin, byte[] end) {
        if (absentCount < ABSENT_INTERVALS) {
            absentBegins[absentCount] = begin;
            absentEnds[absentCount++] = end;
        } else {
            absentBegins[absentVictim] = begin;
            absentEnds[absentVictim] = end;
            absentVictim = (absentVictim + 1) % ABSENT_INTERVALS;
        }
    }

    /** Drops interval {@code i}, moving the last one into its place. */
    private void forgetAbsent(int i) {
        absentCount--;
        absentBegins[i] = absentBegins[absentCount];
        absentEnds[i] = absentEnds[absentCount];
        absentBegins[absentCount] = null;
        absentEnds[absentCount] = null;
        absentVictim = 0;
    }

    /**
     * Forgets versions older than {@code floor}: afterwards reads at {@code version >= floor}
     * answer as before, reads below it must be refused. Writer only.
     */
    public void pruneBefore(long requestedFloor) {
        long floor = Math.min(requestedFloor, pinned);
        if (floor <= oldestReadableVersion) {
            return;
        }
        // Publish the floor first: a reader that checks after reading sees it and refuses.
        oldestReadableVersion = floor;
        if (disk != null) {
            handToDisk(floor);
            return;
        }
        while (!dirty.isEmpty() && dirty.oldestVersion() < floor) {
            VersionChain chain = dirty.oldestChain();
            VersionNode node = dirty.oldestNode();
            // What the cut frees: the one node behind this one (see VersionChain.pruneAfter) —
            // the chain's own first node only gives up its value — and this entry's node when
            // a same-batch write replaced it (counted out then).
            VersionNode behind = node.replaced ? null : node.next;
            if (behind != null) {
                bytes -= behind.valueHeapBytes() + (behind == chain ? 0 : HeapSizes.NODE);
            }
            if (chain.pruneAfter(node)) {
                // Only this chain, if it is still the key's: removal is by identity.
                sorted.remove(chain);
                index.remove(chain);
                bytes -= HeapSizes.CHAIN + HeapSizes.array(chain.key.length) + HeapSizes.NODE;
            }
            dirty.removeOldest();
        }
    }

    /**
     * Over a disk store: drops from memory what the catch-up wrote, then hands it the writes
     * and range clears below {@code floor}. See "Over a disk store".
     */
    private void handToDisk(long floor) {
        dropWrittenToDisk();
        handOver(floor, floor - 1);
    }

    /**
     * Hands the writes and range clears below {@code limit} to the catch-up, in version order,
     * in batches of about {@link CatchUp#MAX_BYTES_PER_WRITE} cut only between versions (a
     * version's range clears go with its writes); the last batch puts the disk at
     * {@code lastVersion}, each other one at the version of its last write.
     */
    private void handOver(long limit, long lastVersion) {
        CatchUp.Batch batch = null;
        while (!dirty.isEmpty() && dirty.oldestVersion() < limit) {
            long v = dirty.oldestVersion();
            if (batch != null && batch.bytes >= CatchUp.MAX_BYTES_PER_WRITE && batch.lastVersion < v) {
                batch.version = batch.lastVersion;
                catchUp.submit(batch);
                batch = null;
            }
            if (batch == null) {
                batch = new CatchUp.Batch(64);
            }
            while (!clearsToHandOver.isEmpty() && clearsToHandOver.peekFirst().version() <= v) {
                batch.clears.add(clearsToHandOver.pollFirst());
            }
            batch.add(dirty.oldestChain(), dirty.oldestNode());
            dirty.removeOldest();
        }
        while (!clearsToHandOver.isEmpty() && clearsToHandOver.peekFirst().version() < limit) {
            if (batch == null) {
                batch = new CatchUp.Batch(0);
            }
            batch.clears.add(clearsToHandOver.pollFirst());
        }
        if (batch != null) {
            batch.version = lastVersion;
            catchUp.submit(batch);
        }
    }

    /**
     * Over a disk store, drops from memory what the catch-up has written (see "Over a disk
     * store"); nothing otherwise. Writer only, between batches.
     */
    public void dropWrittenToDisk() {
        if (disk != null) {
            for (CatchUp.Batch written; (written = catchUp.pollWritten()) != null; ) {
                dropWritten(written);
            }
        }
    }

    /** Drops what a written batch holds: its range clears first, then its nodes (see "Over a disk store"). */
    private void dropWritten(CatchUp.Batch batch) {
        dropNodes(batch);
        droppedUnpublished = batch.version;
    }

    private void dropNodes(CatchUp.Batch batch) {
        diskClears.removeUpTo(batch.version);
        for (int i = 0; i < batch.count; i++) {
            VersionChain chain = batch.chains[i];
            VersionNode node = batch.nodes[i];
            if (node.replaced) {
                continue;
            }
            if (node != chain) {
                VersionNode behind = node.next;
                if (behind != null) {
                    bytes -= behind.valueHeapBytes() + (behind == chain ? 0 : HeapSizes.NODE);
                }
                chain.pruneAfter(node);
            }
            if (chain.newest() == node) {
                // The key's newest write is on disk: the key lives there only now.
                sorted.remove(chain);
                index.remove(chain);
                bytes -= HeapSizes.CHAIN + HeapSizes.array(chain.key.length)
                        + (node == chain ? chain.valueHeapBytes() : HeapSizes.NODE + node.valueHeapBytes());
            }
        }
    }

    /**
     * Keeps {@code version} readable by {@link #range} until {@link #unpin()}, however long
     * the reader takes (a checkpoint being written). Writer only; one pin at a time.
     */
    public void pin(long version) {
        pinned = version;
    }

    /** Ends {@link #pin}: pruning may go past the version again. */
    public void unpin() {
        pinned = Long.MAX_VALUE;
    }

    /** Reads below this version may have lost versions to pruning and must be refused. */
    public long oldestReadableVersion() {
        return oldestReadableVersion;
    }

    /**
     * Present keys of {@code [begin, end)} at {@code version}, ascending or descending; the
     * iterator is weakly consistent with concurrent writes but exact for {@code version}
     * when that version is visible.
     */
    public StoreRange range(byte[] begin, byte[] end, long version, boolean reverse) {
        if (ByteKeys.compare(begin, end) >= 0) {
            return StoreRange.of(java.util.Collections.emptyIterator());
        }
        Iterator<VersionChain> chains = reverse ? sorted.descending(begin, end) : sorted.ascending(begin, end);
        if (disk == null) {
            return new VisibleIterator(chains, version);
        }
        return new DiskRange(epochs, disk, diskClears, begin, end, version, reverse, chains);
    }

    /**
     * Bytes of the keys and values present in {@code [begin, end)} at {@code version}: exact in
     * memory; over a disk store, the disk store's estimate (from its statistics, without
     * reading the range) plus the window's newest values in the range.
     */
    public long estimatedSize(byte[] begin, byte[] end, long version) {
        if (disk != null) {
            if (ByteKeys.compare(begin, end) >= 0) {
                return 0;
            }
            long total = disk.approximateBytes(begin, end);
            for (Iterator<VersionChain> it = sorted.ascending(begin, end); it.hasNext(); ) {
                VersionChain chain = it.next();
                VersionNode n = chain.nodeAt(version);
                byte[] value = n == null ? null : n.value();
                if (value != null) {
                    total += chain.key.length + value.length;
                }
            }
            return total;
        }
        long total = 0;
        try (StoreRange it = range(begin, end, version, false)) {
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                total += e.getKey().length + e.getValue().length;
            }
        }
        return total;
    }

    /**
     * Keys that cut {@code [begin, end)} into pieces of about {@code chunkSize} bytes of keys
     * and values at {@code version}: {@code begin}, then each key where a piece reaches the
     * size, then {@code end} — the shape of FoundationDB's {@code getRangeSplitPoints}. A
     * {@code chunkSize} of 0 makes every present key after {@code begin} a split point, as
     * {@code StorageServerMetrics::getSplitPoints} makes every sampled key after the range's
     * begin one; {@code begin} itself is never repeated.
     *
     * <p>Over a disk store, a range estimated above {@link #splitWalkLimit} bytes is not walked:
     * its points come from the disk store's statistics ({@link DiskSplitPoints}), each a key
     * present at {@code version}, the chunks about {@code chunkSize} — unless that would be more
     * than {@link #MAX_ESTIMATED_SPLIT_POINTS} points, which cost more to search than to walk.
     */
    public java.util.List<byte[]> splitPoints(byte[] begin, byte[] end, long chunkSize, long version) {
        if (disk != null && chunkSize > 0 && ByteKeys.compare(begin, end) < 0) {
            long total = estimatedSize(begin, end, version);
            if (total > splitWalkLimit && total / chunkSize <= MAX_ESTIMATED_SPLIT_POINTS) {
                return DiskSplitPoints.find(this, disk, sorted.ascending(begin, end), begin, end, chunkSize, version);
            }
        }
        java.util.List<byte[]> points = new java.util.ArrayList<>();
        points.add(begin);
        long accumulated = 0;
        try (StoreRange it = range(begin, end, version, false)) {
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                if (accumulated >= chunkSize && !java.util.Arrays.equals(e.getKey(), begin)) {
                    points.add(e.getKey());
                    accumulated = 0;
                }
                accumulated += e.getKey().length + e.getValue().length;
            }
        }
        points.add(end);
        return points;
    }

    /** Ranges up to this many bytes are walked for split points even over a disk store (exact, and cheap enough). */
    private long splitWalkLimit = 64L << 20;
    private static final long MAX_ESTIMATED_SPLIT_POINTS = 10_000;

    /**
     * Over a disk store, the size above which a range is estimated from the disk's statistics
     * rather than walked, for split points and the engine's shard map.
     */
    public long splitWalkLimit() {
        return splitWalkLimit;
    }

    /** Tests: walk only ranges up to {@code bytes} for split points (and the shard map) over a disk store. */
    void splitWalkLimit(long bytes) {
        splitWalkLimit = bytes;
    }

    /** Number of keys held, including tombstones inside the window. */
    public int keyCount() {
        return index.size();
    }

    /** Skips keys absent at the read version; holds nothing, so closing it does nothing. */
    private static final class VisibleIterator implements StoreRange {
        private final Iterator<VersionChain> chains;
        private final long version;
        private Map.Entry<byte[], byte[]> next;

        VisibleIterator(Iterator<VersionChain> chains, long version) {
            this.chains = chains;
            this.version = version;
        }

        @Override
        public boolean hasNext() {
            while (next == null && chains.hasNext()) {
                VersionChain chain = chains.next();
                byte[] value = chain.valueAt(version);
                if (value != null) {
                    next = Map.entry(chain.key, value);
                }
            }
            return next != null;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            Map.Entry<byte[], byte[]> result = next;
            next = null;
            return result;
        }

        @Override
        public void close() {
        }
    }
}
