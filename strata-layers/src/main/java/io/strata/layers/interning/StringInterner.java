package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Interns strings (byte strings, or Java strings as UTF-8) into uint64 IDs: the same string
 * gets the same ID forever, and one ID never names two strings. IDs come from a pluggable
 * {@link IdAllocator} ({@link ShardedSequenceAllocator}, the seed's random sharded
 * sequences; {@link HcaIdAllocator}; {@link SingleCounterAllocator}) or from versionstamps
 * ({@link VersionstampIdAllocator}). IDs are Java {@code long}s holding unsigned values.
 *
 * <h2>Key layout</h2>
 * Under the subspace {@code S} ({@code InternerLayout}):
 * <pre>
 * S.pack((0)) ++ string bytes       -&gt; ID (8 bytes big-endian), or a 12-byte stamp (versionstamp IDs)
 * S.pack((1)) ++ firstId (8 bytes)  -&gt; reverse block: the strings of IDs firstId, firstId + 1, ...
 * S.pack((2)) ...                   -&gt; the allocator's counters (its own subspace: {@link #countersOf})
 * S.pack((3)) ++ stamp              -&gt; string bytes (versionstamp IDs)
 * </pre>
 * A reverse block holds the strings of a run of consecutive IDs allocated in one
 * transaction, each entry a varint length then the bytes (the format, byte by byte, is in
 * {@code InternerLayout}); a run is cut into several blocks so that no value exceeds
 * FoundationDB's 100,000 bytes. So a batch of {@code n} new strings whose IDs are one run
 * (sharded sequences, one counter) writes {@code n} forward keys and one block, not
 * {@code 2n} keys; the HCA's scattered IDs make runs of one, a block per string. A lookup
 * reads the block with the greatest first ID {@code <= id} (a reverse range read of limit
 * 1) and finds {@code id} at index {@code id - firstId}, or nowhere if the block is
 * shorter. Versionstamp IDs keep one reverse key per stamp ({@code (3)}).
 *
 * <p>Strings are appended raw, not tuple-encoded: one copy per key and no escaping. A
 * forward key must respect FoundationDB's 10,000-byte key limit, so a string may have at
 * most {@link #maxStringBytes()} bytes (9,999 less the subspace prefix); a longer one, a
 * {@code null}, or a Java string that is not valid Unicode (an unpaired surrogate, which
 * UTF-8 cannot carry, so two such strings could otherwise share bytes) is rejected with
 * {@link IllegalArgumentException} or {@link NullPointerException} before anything is read
 * or written: a bad element fails its whole batch and loses nothing.
 *
 * <p>One subspace, one allocator, forever: the allocators' ID spaces overlap, so a subspace
 * written with one must never be given another (a forward value of the wrong width is
 * reported as {@link IllegalStateException}). The interner never deletes a mapping.
 *
 * <p>Reverse blocks are a format change: a subspace written by the earlier layout (one
 * reverse key per ID) cannot be read by this interner; Strata is pre-1.0 and does not
 * migrate it.
 *
 * <h2>Interning a batch</h2>
 * Duplicates in the batch are merged. Every distinct string not in the cache has its forward
 * key read, all reads issued before any is awaited. The strings found absent get IDs from
 * one {@link IdAllocator#allocate} call (one counter read and write for the whole batch with
 * sharded sequences); the forward key of each new mapping is written, and the reverse
 * blocks of the fresh IDs, one per maximal run of consecutive IDs in the allocator's order
 * (the ID after {@code 0xFFFF_FFFF_FFFF_FFFF} does not continue a run). IDs come back in
 * input order.
 *
 * <h2>Why one string never gets two IDs, and one ID never names two strings</h2>
 * <ul>
 *   <li><b>One string, one ID.</b> The forward key is read at snapshot, and one found absent
 *       gets a read conflict on it — as a serializable read has; one found present needs none,
 *       since a mapping is never deleted or rewritten (so an SADD of many members that are
 *       already interned adds no read conflict ranges to its transaction). Suppose
 *       T1 and T2 both commit a mapping for string s, T1 first. If T1 committed after T2's
 *       read version, T2's read conflict range on s's forward key meets T1's write to it, and
 *       T2 fails with {@code not_committed}: contradiction. Otherwise T2 read a snapshot
 *       containing T1's mapping, found s present and wrote nothing for it: contradiction.
 *       Within one transaction, duplicates in a batch are merged and a later call reads the
 *       earlier call's write (read-your-writes).</li>
 *   <li><b>One ID, one string.</b> The allocator's contract: no two committed transactions
 *       receive the same ID (for versionstamps: the 12-byte stamp is unique per commit and
 *       index, and the packing into 64 bits is injective on the stamps it accepts). A
 *       transaction writes each allocated ID into exactly one mapping, and into exactly one
 *       entry of one reverse block. A block covers exactly IDs its own transaction
 *       allocated, so no two committed blocks' ID ranges overlap (nor their keys, the first
 *       IDs): the block with the greatest first ID {@code <= id} is the only one that can
 *       hold {@code id}, and if its range ends before {@code id}, no string has ID
 *       {@code id} (an ID never handed out, such as one the HCA never picked, or handed
 *       out and never written, such as one burned by a failed attempt, falls in such a
 *       gap).</li>
 *   <li><b>{@code commit_unknown_result} (1021).</b> If the attempt did commit, its mappings
 *       exist; the retry re-reads the forward keys, finds them and returns those IDs (its
 *       allocations, if any, were for other strings). If it did not commit, nothing of it
 *       exists and the retry allocates afresh. Either way the caller receives the IDs of the
 *       attempt that committed, which is what {@code db.run} returns; callers running their
 *       own loop must do the same.</li>
 *   <li><b>Reverse entries agree with forward keys</b>, since the forward key of a mapping
 *       and the block holding its reverse entry are written in the same transaction, and
 *       neither forward keys nor blocks are ever rewritten (versionstamp mappings that do
 *       not fit 64 bits are the exception: they have no ID, and are replaced as a whole).</li>
 *   <li><b>Serializable lookups.</b> A lookup's reverse range read, cut by its limit of
 *       one, conflicts (in FoundationDB, and in Strata's engine) on
 *       {@code [the block's key, reverse(id) ++ 0x00)}: a transaction interning into any
 *       other block does not meet it, a write of that block's key, or of a new block in the
 *       gap holding {@code id}, does. Database-level lookups are snapshot reads.</li>
 * </ul>
 *
 * <h2>Cache</h2>
 * With a capacity above zero, a bounded {@code InternerCache} answers for hot strings and
 * IDs without reading. It is filled only with committed mappings (see its Javadoc), which
 * are immutable, so it can never serve a wrong mapping; a cache hit inside a transaction
 * skips the forward read, which is safe for the same reason. One interner instance must be
 * used with one database.
 *
 * <p>Thread-safe.
 */
public final class StringInterner {
    /** Interning attempts in a Database-level call when versionstamps do not fit (see {@link VersionstampIdAllocator}). */
    static final int UNFIT_ATTEMPTS = 16;

    private final InternerLayout layout;
    private final IdAllocator allocator;
    private final VersionstampIdAllocator stamps;
    private final InternerCache cache;

    /** An interner without a cache. */
    public StringInterner(Subspace subspace, Function<Subspace, ? extends IdAllocator> allocatorOn) {
        this(subspace, allocatorOn, 0);
    }

    /**
     * An interner on {@code subspace}, IDs from the allocator that {@code allocatorOn} builds
     * on the subspace it is given ({@link #countersOf countersOf(subspace)}: the interner, not
     * the caller, places the counters, so that no counter key can ever be a mapping key), for
     * example {@code SingleCounterAllocator::new} or {@code HcaIdAllocator::new}; caching up to
     * {@code cacheCapacity} mappings (0: no cache).
     */
    public StringInterner(Subspace subspace, Function<Subspace, ? extends IdAllocator> allocatorOn, int cacheCapacity) {
        this(subspace, Objects.requireNonNull(allocatorOn.apply(countersOf(subspace))), null, cacheCapacity);
    }

    /** An interner whose IDs are versionstamps packed by {@code stamps}. */
    public static StringInterner withVersionstamps(Subspace subspace, VersionstampIdAllocator stamps, int cacheCapacity) {
        return new StringInterner(subspace, null, Objects.requireNonNull(stamps), cacheCapacity);
    }

    /** An interner with the seed's random sharded sequences. */
    public static StringInterner sharded(Subspace subspace, int sequenceBits, int counterBits, int cacheCapacity) {
        return new StringInterner(subspace, counters -> new ShardedSequenceAllocator(counters, sequenceBits, counterBits),
                cacheCapacity);
    }

    private StringInterner(Subspace subspace, IdAllocator allocator, VersionstampIdAllocator stamps, int cacheCapacity) {
        if (cacheCapacity < 0) {
            throw new IllegalArgumentException("cacheCapacity < 0");
        }
        this.layout = new InternerLayout(Objects.requireNonNull(subspace));
        this.allocator = allocator;
        this.stamps = stamps;
        this.cache = cacheCapacity == 0 ? null : new InternerCache(cacheCapacity);
    }

    /** Where the allocator of an interner on {@code subspace} keeps its state: {@code subspace[2]}. */
    public static Subspace countersOf(Subspace subspace) {
        return subspace.get(2);
    }

    /** The subspace holding this interner's mappings and counters. */
    public Subspace subspace() {
        return layout.subspace;
    }

    /**
     * Whether IDs are known only once the interning transaction commits (versionstamp IDs);
     * then an ID cannot be used in the transaction that interned its string.
     */
    public boolean idsKnownOnlyAtCommit() {
        return stamps != null;
    }

    /** The longest string, in bytes, this interner accepts. */
    public int maxStringBytes() {
        return layout.maxStringBytes();
    }

    /** Mappings held by the cache (for tests). */
    int cacheSize() {
        return cache == null ? 0 : cache.size();
    }

    // ---------------------------------------------------------------- in a transaction

    /**
     * A staged batch: its writes are issued; {@link #ids()} are its IDs in input order,
     * complete at once, or after the commit with versionstamp IDs.
     */
    public static final class Staged {
        private final CompletableFuture<long[]> ids;

        Staged(CompletableFuture<long[]> ids) {
            this.ids = ids;
        }

        /**
         * The IDs in input order. With versionstamp IDs, completes only once the transaction
         * committed (do not wait for it before committing), and fails if it did not commit
         * or with {@link UnfitVersionstampException}.
         */
        public CompletableFuture<long[]> ids() {
            return ids;
        }
    }

    /**
     * Interns {@code strings} in {@code tr}: reads and writes are issued when the returned
     * future completes; then commit, and use the IDs only if the commit succeeded.
     */
    public CompletableFuture<Staged> stage(Transaction tr, Collection<byte[]> strings) {
        byte[][] batch = validate(strings);
        return stage(tr, batch);
    }

    /**
     * The IDs of {@code strings} in input order, interning those not yet interned. With
     * versionstamp IDs, completes only after {@code tr} commits: use {@link #stage} instead
     * to know when to commit.
     */
    public CompletableFuture<long[]> internAll(Transaction tr, Collection<byte[]> strings) {
        return stage(tr, strings).thenCompose(Staged::ids);
    }

    /** {@link #internAll(Transaction, Collection)} of Java strings, as UTF-8. */
    public CompletableFuture<long[]> internAllStrings(Transaction tr, Collection<String> strings) {
        return internAll(tr, utf8(strings));
    }

    /** The ID of {@code string}, interning it if new. See {@link #internAll(Transaction, Collection)}. */
    public CompletableFuture<Long> intern(Transaction tr, byte[] string) {
        return internAll(tr, List.of(string)).thenApply(ids -> ids[0]);
    }

    public CompletableFuture<Long> intern(Transaction tr, String string) {
        return intern(tr, utf8(string));
    }

    /** The ID of {@code string} if it is interned; never allocates, never writes. */
    public CompletableFuture<OptionalLong> find(ReadTransaction tr, byte[] string) {
        return findAll(tr, List.of(string)).thenApply(r -> r.get(0));
    }

    public CompletableFuture<OptionalLong> find(ReadTransaction tr, String string) {
        return find(tr, utf8(string));
    }

    /** {@link #find} of each string, reads issued together, results in input order. */
    public CompletableFuture<List<OptionalLong>> findAll(ReadTransaction tr, Collection<byte[]> strings) {
        return findAll(tr, validate(strings), false);
    }

    /** The string named by {@code id}, if any. */
    public CompletableFuture<Optional<byte[]>> lookup(ReadTransaction tr, long id) {
        return lookup(tr, id, false);
    }

    public CompletableFuture<Optional<String>> lookupString(ReadTransaction tr, long id) {
        return lookup(tr, id).thenApply(o -> o.map(b -> new String(b, StandardCharsets.UTF_8)));
    }

    /**
     * {@link #lookup(ReadTransaction, long)} of each ID, results in input order. Each reverse
     * block is read once however many of {@code ids} it names: per run of consecutive IDs,
     * one read for the block holding the first and one for the blocks starting after it, all
     * issued together.
     */
    public CompletableFuture<List<Optional<byte[]>>> lookupAll(ReadTransaction tr, long[] ids) {
        if (stamps == null) {
            return lookupBlocks(tr, ids);
        }
        List<CompletableFuture<Optional<byte[]>>> reads = new ArrayList<>(ids.length);
        for (long id : ids) {
            reads.add(lookup(tr, id));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignore -> {
            List<Optional<byte[]>> out = new ArrayList<>(reads.size());
            for (CompletableFuture<Optional<byte[]>> r : reads) {
                out.add(r.join());
            }
            return out;
        });
    }

    /** {@link #lookupAll(ReadTransaction, long[])} as Java strings (UTF-8). */
    public CompletableFuture<List<Optional<String>>> lookupAllStrings(ReadTransaction tr, long[] ids) {
        return lookupAll(tr, ids).thenApply(found -> {
            List<Optional<String>> out = new ArrayList<>(found.size());
            for (Optional<byte[]> o : found) {
                out.add(o.map(b -> new String(b, StandardCharsets.UTF_8)));
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- on a database, with retries

    /**
     * Interns {@code strings} in its own transaction, retried as {@code db.runAsync} does; the
     * IDs are those of the attempt that committed, and are then cached.
     */
    public CompletableFuture<long[]> internAll(Database db, Collection<byte[]> strings) {
        byte[][] batch = validate(strings);
        return internAttempt(db, batch, 1);
    }

    public CompletableFuture<long[]> internAllStrings(Database db, Collection<String> strings) {
        return internAll(db, utf8(strings));
    }

    public CompletableFuture<Long> intern(Database db, byte[] string) {
        return internAll(db, List.of(string)).thenApply(ids -> ids[0]);
    }

    public CompletableFuture<Long> intern(Database db, String string) {
        return intern(db, utf8(string));
    }

    /**
     * {@link #findAll(ReadTransaction, Collection)} in a read-only transaction (snapshot reads:
     * it writes nothing, so it needs no conflict ranges); what it finds is cached.
     */
    public CompletableFuture<List<OptionalLong>> findAll(Database db, Collection<byte[]> strings) {
        byte[][] batch = validate(strings);
        // Snapshot reads: this transaction writes nothing, so read conflict ranges could never
        // matter, and recording them is a third of a lookup's cost.
        return readOnly(db, tr -> findAll(tr.snapshot(), batch, true));
    }

    public CompletableFuture<OptionalLong> find(Database db, String string) {
        return findAll(db, List.of(utf8(string))).thenApply(r -> r.get(0));
    }

    /** {@link #lookup(ReadTransaction, long)} in a read-only transaction (snapshot read); what it finds is cached. */
    public CompletableFuture<Optional<byte[]>> lookup(Database db, long id) {
        byte[] cached = cache == null ? null : cache.string(id);
        if (cached != null) {
            return CompletableFuture.completedFuture(Optional.of(cached));
        }
        return readOnly(db, tr -> lookup(tr.snapshot(), id, true));
    }

    public CompletableFuture<Optional<String>> lookupString(Database db, long id) {
        return lookup(db, id).thenApply(o -> o.map(b -> new String(b, StandardCharsets.UTF_8)));
    }

    // ---------------------------------------------------------------- implementation

    /**
     * Runs {@code body} in a transaction that is never committed, retrying with
     * {@code onError}: a transaction that wrote nothing has nothing to commit (FoundationDB
     * commits it as a no-op), its reads are already a consistent snapshot at its read
     * version, and skipping the commit skips a hand-off to the executor per call, which is
     * most of the cost of a one-string lookup.
     */
    private static <T> CompletableFuture<T> readOnly(Database db, Function<Transaction, CompletableFuture<T>> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        readAttempt(db.createTransaction(), body, result);
        return result;
    }

    private static <T> void readAttempt(Transaction tr, Function<Transaction, CompletableFuture<T>> body,
                                        CompletableFuture<T> result) {
        CompletableFuture<T> attempt;
        try {
            attempt = body.apply(tr);
        } catch (RuntimeException e) {
            attempt = CompletableFuture.failedFuture(e);
        }
        attempt.whenComplete((value, error) -> {
            if (error == null) {
                tr.close();
                result.complete(value);
                return;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            tr.onError(cause).whenComplete((next, fatal) -> {
                if (fatal != null) {
                    tr.close();
                    result.completeExceptionally(fatal);
                } else {
                    readAttempt(next, body, result);
                }
            });
        });
    }

    private CompletableFuture<long[]> internAttempt(Database db, byte[][] batch, int attempt) {
        return db.runAsync(tr -> stage(tr, batch)).thenCompose(Staged::ids).handle((ids, error) -> {
            if (error == null) {
                if (cache != null) {
                    for (int i = 0; i < batch.length; i++) {
                        cache.put(batch[i], ids[i]); // committed: db.runAsync returned
                    }
                }
                return CompletableFuture.completedFuture(ids);
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            if (cause instanceof UnfitVersionstampException && attempt < UNFIT_ATTEMPTS) {
                return internAttempt(db, batch, attempt + 1);
            }
            return CompletableFuture.<long[]>failedFuture(cause);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<Staged> stage(Transaction tr, byte[][] batch) {
        DistinctStrings distinct = DistinctStrings.of(batch);
        byte[][] strings = distinct.strings;
        int d = strings.length;
        long[] ids = new long[d];
        byte[][] forwardKeys = new byte[d][];
        @SuppressWarnings("unchecked")
        CompletableFuture<byte[]>[] reads = new CompletableFuture[d];
        boolean allDone = true;
        for (int j = 0; j < d; j++) {
            Long cached = cache == null ? null : cache.id(strings[j]);
            if (cached != null) {
                ids[j] = cached;
            } else {
                forwardKeys[j] = layout.forward(strings[j]);
                // A snapshot read: a mapping found is immutable and needs no conflict; one found
                // absent gets its read conflict below, as a serializable read would have.
                reads[j] = tr.snapshot().get(forwardKeys[j]);
                allDone &= reads[j].isDone();
            }
        }
        // Reads that completed at once (an embedded engine answers in the call) need no
        // combined future; on a cluster they are waited for together.
        CompletableFuture<Void> readsDone = allDone ? CompletableFuture.completedFuture(null) : allOf(reads);
        return readsDone.thenCompose(ignore -> {
            int[] missing = new int[d];
            int missingCount = 0;
            for (int j = 0; j < d; j++) {
                if (reads[j] == null) {
                    continue;
                }
                byte[] value = reads[j].join();
                if (value == null) {
                    tr.addReadConflictKey(forwardKeys[j]); // the conflict the argument needs
                    missing[missingCount++] = j;
                } else if (stamps == null) {
                    ids[j] = decodeId(value);
                } else {
                    long id = decodeStamp(value);
                    if (id == NO_ID) {
                        // A committed mapping that never had an ID: replace it whole.
                        tr.addReadConflictKey(forwardKeys[j]);
                        tr.clear(layout.stampedReverse(Bytes.bigEndian(value), u16(value, 8), u16(value, 10)));
                        missing[missingCount++] = j;
                    } else {
                        ids[j] = id;
                    }
                }
            }
            if (missingCount == 0) {
                return CompletableFuture.completedFuture(new Staged(CompletableFuture.completedFuture(distinct.expand(ids))));
            }
            int[] fresh = Arrays.copyOf(missing, missingCount);
            if (stamps == null) {
                return allocator.allocate(tr, fresh.length).thenApply(allocated -> {
                    List<byte[]> named = new ArrayList<>(allocated.length);
                    for (int k = 0; k < allocated.length; k++) {
                        int j = fresh[k];
                        tr.set(forwardKeys[j], Bytes.bigEndian(allocated[k]));
                        named.add(strings[j]);
                        ids[j] = allocated[k];
                    }
                    ReverseBlocks.write(tr, layout, allocated, named);
                    return new Staged(CompletableFuture.completedFuture(distinct.expand(ids)));
                });
            }
            return CompletableFuture.completedFuture(new Staged(stageStamped(tr, distinct, forwardKeys, fresh, ids)));
        });
    }

    private static CompletableFuture<Void> allOf(CompletableFuture<?>[] maybeNull) {
        List<CompletableFuture<?>> pending = new ArrayList<>(maybeNull.length);
        for (CompletableFuture<?> f : maybeNull) {
            if (f != null) {
                pending.add(f);
            }
        }
        return CompletableFuture.allOf(pending.toArray(new CompletableFuture[0]));
    }

    /** Writes versionstamped mappings for the strings at {@code fresh}; the IDs follow the commit. */
    private CompletableFuture<long[]> stageStamped(Transaction tr, DistinctStrings distinct, byte[][] forwardKeys,
                                                   int[] fresh, long[] ids) {
        int first = stamps.reserveIndexes(tr, fresh.length);
        for (int k = 0; k < fresh.length; k++) {
            int j = fresh[k];
            int index = first + k;
            tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, forwardKeys[j], InternerLayout.stampedValueTemplate(index));
            tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, layout.stampedReverseTemplate(index), distinct.strings[j]);
        }
        return tr.getVersionstamp().thenApply(stamp -> {
            long version = Bytes.bigEndian(stamp);
            int order = u16(stamp, 8);
            for (int k = 0; k < fresh.length; k++) {
                int index = first + k;
                if (!stamps.fits(version, order, index)) {
                    throw new UnfitVersionstampException("versionstamp (version " + version + ", batch order " + order
                            + ", index " + index + ") does not fit " + stamps.orderBits() + " order bits and "
                            + stamps.indexBits() + " index bits; intern again to replace the mapping");
                }
                ids[fresh[k]] = stamps.pack(version, order, index);
            }
            return distinct.expand(ids);
        });
    }

    private CompletableFuture<List<OptionalLong>> findAll(ReadTransaction tr, byte[][] batch, boolean committedReads) {
        OptionalLong[] out = new OptionalLong[batch.length];
        @SuppressWarnings("unchecked")
        CompletableFuture<byte[]>[] reads = new CompletableFuture[batch.length];
        boolean allDone = true;
        for (int i = 0; i < batch.length; i++) {
            Long cached = cache == null ? null : cache.id(batch[i]);
            if (cached != null) {
                out[i] = OptionalLong.of(cached);
            } else {
                reads[i] = tr.get(layout.forward(batch[i]));
                allDone &= reads[i].isDone();
            }
        }
        CompletableFuture<Void> readsDone = allDone ? CompletableFuture.completedFuture(null) : allOf(reads);
        return readsDone.thenApply(ignore -> {
            for (int i = 0; i < batch.length; i++) {
                if (reads[i] == null) {
                    continue;
                }
                byte[] value = reads[i].join();
                long id = 0;
                boolean found = value != null;
                if (found && stamps == null) {
                    id = decodeId(value);
                } else if (found) {
                    id = decodeStamp(value);
                    found = id != NO_ID; // a stamp without an ID is not a mapping
                }
                if (!found) {
                    out[i] = OptionalLong.empty();
                } else {
                    out[i] = OptionalLong.of(id);
                    if (committedReads && cache != null) {
                        cache.put(batch[i], id);
                    }
                }
            }
            return Collections.unmodifiableList(Arrays.asList(out)); // no copy, unlike List.of
        });
    }

    private CompletableFuture<Optional<byte[]>> lookup(ReadTransaction tr, long id, boolean committedReads) {
        byte[] cached = cache == null ? null : cache.string(id);
        if (cached != null) {
            return CompletableFuture.completedFuture(Optional.of(cached));
        }
        CompletableFuture<byte[]> read;
        if (stamps != null) {
            read = tr.get(layout.stampedReverse(stamps.version(id), stamps.order(id), stamps.index(id)));
        } else {
            // The block with the greatest first ID <= id. Serializably, FoundationDB records
            // [that block's key, reverse(id) ++ 0x00) as the read conflict range of a reverse
            // read cut by its limit: writes of other blocks do not meet it, only this block's
            // key, or a block written into the gap that holds id.
            read = tr.getRange(layout.reversePrefix, layout.afterReverse(id), 1, true).asList()
                    .thenApply(rows -> rows.isEmpty() ? null : entryOf(rows.get(0), id));
        }
        return read.thenApply(value -> {
            if (value != null && committedReads && cache != null) {
                cache.put(value, id);
            }
            return Optional.ofNullable(value);
        });
    }

    /** The string of {@code id} in the block {@code kv} (whose first ID is {@code <= id}), or null. */
    private byte[] entryOf(KeyValue kv, long id) {
        return ReverseBlocks.entry(kv.getValue(), id - layout.firstIdOf(kv.getKey()));
    }

    private CompletableFuture<List<Optional<byte[]>>> lookupBlocks(ReadTransaction tr, long[] ids) {
        @SuppressWarnings("unchecked")
        Optional<byte[]>[] out = new Optional[ids.length];
        long[] sorted = new long[ids.length];
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            byte[] cached = cache == null ? null : cache.string(ids[i]);
            if (cached != null) {
                out[i] = Optional.of(cached);
            } else {
                sorted[n++] = ids[i];
            }
        }
        sorted = distinctUnsigned(sorted, n);
        // One read round: per run of consecutive IDs [a, b], the block holding a (a reverse
        // read, as in lookup) and every block starting in (a, b] (a forward read).
        List<CompletableFuture<List<KeyValue>>> before = new ArrayList<>();
        List<CompletableFuture<List<KeyValue>>> within = new ArrayList<>();
        List<int[]> runs = new ArrayList<>();
        for (int from = 0; from < sorted.length; ) {
            int to = from + 1;
            while (to < sorted.length && sorted[to - 1] != -1L && sorted[to] == sorted[to - 1] + 1) {
                to++;
            }
            long a = sorted[from];
            long b = sorted[to - 1];
            runs.add(new int[] {from, to});
            before.add(tr.getRange(layout.reversePrefix, layout.afterReverse(a), 1, true).asList());
            within.add(a == b ? CompletableFuture.completedFuture(List.of())
                    : tr.getRange(layout.afterReverse(a), layout.afterReverse(b)).asList());
            from = to;
        }
        List<CompletableFuture<?>> all = new ArrayList<>(before);
        all.addAll(within);
        long[] ordered = sorted;
        return CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).thenApply(ignore -> {
            Map<Long, byte[]> found = new HashMap<>(ordered.length * 2);
            for (int r = 0; r < runs.size(); r++) {
                List<KeyValue> blocks = new ArrayList<>(before.get(r).join());
                blocks.addAll(within.get(r).join());
                int block = -1;
                long first = 0;
                List<byte[]> entries = null;
                for (int k = runs.get(r)[0]; k < runs.get(r)[1]; k++) {
                    long id = ordered[k];
                    while (block + 1 < blocks.size()
                            && Long.compareUnsigned(layout.firstIdOf(blocks.get(block + 1).getKey()), id) <= 0) {
                        block++;
                        first = layout.firstIdOf(blocks.get(block).getKey());
                        entries = null;
                    }
                    if (block < 0) {
                        continue; // before the first block: named by nothing
                    }
                    if (entries == null) {
                        entries = ReverseBlocks.entries(blocks.get(block).getValue()); // decoded once per block
                    }
                    long index = id - first;
                    if (Long.compareUnsigned(index, entries.size()) < 0) {
                        found.put(id, entries.get((int) index));
                    }
                }
            }
            for (int i = 0; i < ids.length; i++) {
                if (out[i] == null) {
                    byte[] s = found.get(ids[i]);
                    out[i] = s == null ? Optional.empty() : Optional.of(s.clone());
                }
            }
            return Collections.unmodifiableList(Arrays.asList(out)); // no copy, unlike List.of
        });
    }

    /** The first {@code n} of {@code ids}, sorted in unsigned order, without repeats. */
    private static long[] distinctUnsigned(long[] ids, int n) {
        long[] flipped = new long[n];
        for (int i = 0; i < n; i++) {
            flipped[i] = ids[i] ^ Long.MIN_VALUE; // signed order of the flipped = unsigned order
        }
        Arrays.sort(flipped);
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || flipped[i] != flipped[m - 1]) {
                flipped[m++] = flipped[i];
            }
        }
        long[] out = new long[m];
        for (int i = 0; i < m; i++) {
            out[i] = flipped[i] ^ Long.MIN_VALUE;
        }
        return out;
    }

    /**
     * Marks "no ID" in the versionstamp decoding only. Packed stamps never equal it: a packed
     * ID of all ones would need a version of 2^versionBits - 1, far beyond any real version.
     */
    private static final long NO_ID = -1L;

    private static long decodeId(byte[] value) {
        if (value.length != 8) {
            throw new IllegalStateException("forward value of " + value.length
                    + " bytes, not an 8-byte ID: was this subspace written with versionstamp IDs?");
        }
        return Bytes.bigEndian(value);
    }

    private long decodeStamp(byte[] value) {
        if (value.length != InternerLayout.STAMP_LENGTH) {
            throw new IllegalStateException("forward value of " + value.length
                    + " bytes, not a 12-byte stamp: was this subspace written with another allocator?");
        }
        long version = Bytes.bigEndian(value);
        int order = u16(value, 8);
        int index = u16(value, 10);
        return stamps.fits(version, order, index) ? stamps.pack(version, order, index) : NO_ID;
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private byte[][] validate(Collection<byte[]> strings) {
        byte[][] batch = strings.toArray(new byte[0][]);
        int max = layout.maxStringBytes();
        for (int i = 0; i < batch.length; i++) {
            if (batch[i] == null) {
                // Not requireNonNull(x, message): that would build the message for every string.
                throw new NullPointerException("null string at position " + i);
            }
            if (batch[i].length > max) {
                throw new IllegalArgumentException("string at position " + i + " has " + batch[i].length
                        + " bytes; this interner's keys allow at most " + max + " (FoundationDB's key limit is 10,000)");
            }
        }
        return batch;
    }

    private static boolean hasSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static List<byte[]> utf8(Collection<String> strings) {
        List<byte[]> out = new ArrayList<>(strings.size());
        for (String s : strings) {
            out.add(utf8(s));
        }
        return out;
    }

    /** Strict UTF-8: an unpaired surrogate is an error, not a '?' that another string could share. */
    static byte[] utf8(String s) {
        Objects.requireNonNull(s, "null string");
        if (!hasSurrogate(s)) {
            return s.getBytes(StandardCharsets.UTF_8); // nothing to replace: the fast intrinsic
        }
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            ByteBuffer b = encoder.encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not valid Unicode (an unpaired surrogate?): cannot be encoded as UTF-8", e);
        }
    }
}
