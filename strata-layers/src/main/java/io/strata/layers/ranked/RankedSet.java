package io.strata.layers.ranked;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.subspace.Subspace;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * An ordered set of byte strings (unsigned lexicographic order, as FoundationDB orders keys)
 * that answers order statistics in O(log n) reads: the rank of an element, the element at a
 * rank, and the number of elements below any key, hence in any key range. It is a counted skip
 * list kept in keys, the design of the Record Layer's {@code RankedSet}, with the changes noted
 * under Concurrency.
 *
 * <h2>Structure</h2>
 * Level 0 holds every element. An element's <em>tower</em> rises to height
 * {@code h(e) = min(levels - 1, nlz(mix(fnv1a64(e))) / fanoutBits)} (see {@code TowerHeights};
 * {@code nlz} counts leading zero bits), so level {@code k} holds the elements of height
 * {@code >= k}, each with probability {@code 2^(-k * fanoutBits)}: a hash, not a coin, so every
 * transaction agrees on the structure without reading it. Every level {@code k >= 1} also has a
 * <em>head</em>, the empty element, before all others. Each key {@code a} of level
 * {@code k >= 1} (head included) stores its count: the number of elements {@code e} with
 * {@code a <= e < next_k(a)}, {@code next_k(a)} being the next key of level {@code k} (or the
 * end). The rank of a key is found from the top level down: sum the counts before the last key
 * below it, go down from that key, and so on; at level 0 count the keys. Each level is walked
 * from a tower to the next taller one, {@code 2^fanoutBits} keys in expectation, so a lookup
 * reads about {@code levels * 2^fanoutBits} keys plus the top level up to the key
 * ({@code n / 2^((levels - 1) * fanoutBits)} keys in expectation): O(log n) while
 * {@code n <= 2^(levels * fanoutBits)}. The default, fanout 16 and 6 levels, stays logarithmic
 * to about 16 million elements and degrades gently beyond (the top level grows by one key per
 * million elements). The height function is not keyed: whoever chooses the elements can make
 * them all flat (slow lookups) or all towers (more conflicts), never wrong answers.
 *
 * <h2>Key layout</h2>
 * {@code P} is the subspace's raw prefix; levels are tuple-encoded integers, elements are
 * appended raw (not tuple-encoded, so key order is element order and nothing is escaped):
 * <pre>
 * P ++ 0x14 ++ e            -&gt; empty                  e is in the set (level 0)
 * P ++ 0x15 ++ k            -&gt; count                  the head of level k (1 &lt;= k &lt; levels); absent = 0
 * P ++ 0x15 ++ k ++ e       -&gt; count                  e's tower reaches level k (e non-empty, h(e) &gt;= k)
 * </pre>
 * A count is 8 bytes, little-endian two's complement: the operand format of atomic
 * {@code ADD}, which is how counts change except when a tower is built ({@code set}). The empty
 * element is allowed: at level 0 it is an ordinary key, and at the other levels it is the head,
 * whose count includes it. Heads are never removed (a set emptied by removals keeps heads with
 * count 0); {@link #clear} removes everything. The height function, {@code fanoutBits} and
 * {@code levels} are part of the format: a subspace must always be opened with the same ones.
 *
 * <h2>Element size</h2>
 * An element, and so any key of the layout, must fit FoundationDB's 10,000-byte key limit at
 * the deepest prefix {@code P ++ 0x15 ++ k}, with one byte to spare for the exclusive end
 * {@code key ++ 0x00} of ranges and conflict ranges: {@link #maxElementBytes()} is
 * {@code 9,997 - P.length}. A longer element is rejected with {@link IllegalArgumentException}
 * (a null one with {@link NullPointerException}) before anything is read; a range bound may be
 * one byte longer ({@code element ++ 0x00}).
 *
 * <h2>Concurrency</h2>
 * A change reads the element's level-0 key <em>serializably</em>, and everything else with
 * snapshot reads, adding afterwards only the read conflict ranges its writes depend on.
 * <ul>
 *   <li><b>{@code add(x)}</b> of an absent element: sets {@code (0, x)}; at each level
 *       {@code k} above {@code h(x)} it ADDs 1 to the predecessor {@code p_k} (the greatest
 *       key of level {@code k} below {@code x}); at each level {@code k <= h(x)} it builds the
 *       tower: it sets {@code (k, x)} to the count {@code c_k} of {@code [x, next_k(x))} and
 *       ADDs {@code -(c_k - 1)} to {@code p_k}, where {@code c_k} is {@code c_(k-1)} plus the
 *       counts of level {@code k-1} from just after {@code x} to the next tower at least
 *       {@code k} tall. It does not read {@code p_k}'s count: it moves the right part of it, by
 *       ADD, so inserts to the left of {@code x} do not conflict with it.
 *       <br>Read conflict ranges: {@code (0, x)}; per level {@code k}, the gap
 *       {@code ((k, p_k), (k, x)]} and the key {@code (0, p_k)} (not {@code (k, p_k)}, which
 *       concurrent changes ADD to); per level {@code k <= h(x)}, level {@code k-1} strictly
 *       between {@code x} and the next tower {@code t} at least {@code k} tall (to the level's
 *       end if none), and the key {@code (0, t)} (again not {@code (k-1, t)}, which changes
 *       after {@code t} ADD to).</li>
 *   <li><b>{@code remove(x)}</b> of a present element: clears {@code (0, x)}; above
 *       {@code h(x)} ADDs -1 to {@code p_k}; at {@code k <= h(x)} reads {@code (k, x)}'s count
 *       {@code v}, clears it and ADDs {@code v - 1} to {@code p_k}. Read conflict ranges:
 *       {@code (0, x)} and the same gaps and predecessor keys; the gap
 *       {@code ((k, p_k), (k, x)]} includes {@code (k, x)}, so {@code v} is the committed
 *       count.</li>
 *   <li><b>Why counts stay exact.</b> Invariant, in every committed state: level {@code k}
 *       holds exactly the elements of height {@code >= k}, and every count is the number of
 *       elements from its key to the next key of its level. A change computes its writes from
 *       its snapshot; it is right if the state it commits on agrees with that snapshot on what
 *       it used. Its conflict ranges say exactly that: no key appeared or vanished between
 *       {@code p_k} and {@code x} and {@code p_k} is still in the set (so {@code p_k} is still
 *       {@code x}'s predecessor and its count covers {@code x}), the level below {@code x}'s
 *       new tower is unchanged up to the next taller tower (so {@code c_k} is still right), a
 *       removed tower's counts are unchanged (so {@code v} is right), and {@code x}'s
 *       membership is as read. The writes left outside the conflict ranges are ADDs, which
 *       commute: two changes that ADD to the same count in either order leave the same sum.</li>
 *   <li><b>Who conflicts with whom.</b> Changes of the same element conflict (both read and
 *       write {@code (0, x)}). Changes of two different elements {@code x < y} conflict only
 *       if {@code x}'s tower has a height {@code h >= 1} and {@code y <= next_h(x)}, the next
 *       tower at least as tall (as the two transactions see the set): {@code y} then lies in
 *       the stretch whose count {@code x}'s tower splits or merges. Flat elements (height 0:
 *       {@code 1 - 2^-fanoutBits} of all, 15 in 16 by default) never conflict with each other,
 *       however close, though they ADD to the same counts near the top (the heads above all):
 *       ADD takes no read conflict range. The Record Layer's tower build reads {@code p_k}'s
 *       count and the level below from {@code p_k} to {@code x}, so it also conflicts with
 *       every change in {@code [p_k, x)}; here that half is gone.</li>
 *   <li><b>{@code commit_unknown_result} (1021).</b> A retry is a new transaction that re-reads
 *       {@code (0, x)} serializably: if the first attempt committed, it finds {@code x} present
 *       (absent, for a remove) and writes nothing, so nothing is counted twice. What changes is
 *       the answer: such a retried {@code add} returns {@code false}.</li>
 *   <li><b>Reads are serializable on meaning, not on structure.</b> {@link #rankOf},
 *       {@link #rank}, {@link #getNth}, {@link #count} and {@link #size} read the levels as
 *       snapshot reads and, on a serializable {@link ReadTransaction}, add one read conflict
 *       range on level 0 covering what the answer depends on: {@code rankOf(key)} the elements
 *       below {@code key}; {@code rank(x)} those up to {@code x} inclusive; {@code getNth}
 *       those up to the one found (the whole set if none); {@code count(begin, end)} exactly
 *       {@code [begin, end)}; {@code size} the whole set. So a serializable {@code count} conflicts only with changes inside its range,
 *       never with count updates elsewhere that happened to touch its path. {@link #contains}
 *       and {@link #scan} are plain reads of level 0. Pass {@code tr.snapshot()} to read
 *       without conflicts.</li>
 * </ul>
 * The snapshot reads rely on FoundationDB's default that snapshot reads see the transaction's
 * own writes: do not set {@code snapshot_ryw_disable} on a transaction that uses a ranked set.
 * Operations on one set within one transaction must be sequenced (wait for one's future before
 * starting the next); each then sees the previous one's writes. Operations on different sets
 * may overlap freely.
 *
 * <h2>Cost</h2>
 * A change issues all its reads at once, one round trip: a serializable get, a reverse range
 * read of one row per level above 0, and, for the rare towers (one element in 16 by default), a
 * walk of about {@code 2^fanoutBits} keys per level of the tower (a removal reads the tower's
 * counts instead). It writes level 0 once and ADDs to one count per level above, plus a set
 * (add) or clear (remove) per level of its tower; each key carries the element, so a change
 * writes about {@code levels * (|P| + 2 + |x| + 8)} bytes. A lookup takes one round trip per
 * level. The heads and the counts near the top are ADDed to by most changes: no conflicts, but
 * on a FoundationDB cluster a hot set's top keys are write hot spots of one storage team.
 *
 * <p>Thread-safe and immutable; it holds only the subspace and the configuration.
 */
public final class RankedSet {
    /** Fanout 16: a tower reaches each further level with probability 1/16. */
    public static final int DEFAULT_FANOUT_BITS = 4;
    /** Levels 0 to 5. */
    public static final int DEFAULT_LEVELS = 6;

    private final RankedSetLayout layout;
    private final int fanoutBits;
    private final ElementChanges changes;
    private final RankQueries queries;
    private final BulkLoad bulkLoad;

    /** The set stored under {@code subspace}, with fanout 16 and 6 levels; empty until something is added. */
    public RankedSet(Subspace subspace) {
        this(subspace, DEFAULT_FANOUT_BITS, DEFAULT_LEVELS);
    }

    /**
     * The set stored under {@code subspace}, each level holding one in {@code 2^fanoutBits} of
     * the level below, with {@code levels} levels (level 0 included). Both are part of the
     * stored format: always open a subspace with the same values.
     *
     * @throws IllegalArgumentException unless {@code 1 <= fanoutBits <= 8},
     *         {@code 2 <= levels} and {@code (levels - 1) * fanoutBits <= 64}, or if the
     *         subspace prefix leaves no room for elements
     */
    public RankedSet(Subspace subspace, int fanoutBits, int levels) {
        if (fanoutBits < 1 || fanoutBits > 8) {
            throw new IllegalArgumentException("fanoutBits must be 1 to 8: " + fanoutBits);
        }
        if (levels < 2 || (levels - 1) * fanoutBits > Long.SIZE) {
            throw new IllegalArgumentException("levels must be at least 2 and at most 1 + 64 / fanoutBits: " + levels);
        }
        this.layout = new RankedSetLayout(subspace, levels);
        this.fanoutBits = fanoutBits;
        TowerHeights heights = new TowerHeights(fanoutBits, levels);
        this.changes = new ElementChanges(layout, heights, new LevelNeighbours(layout, heights, fanoutBits));
        this.queries = new RankQueries(layout, fanoutBits);
        this.bulkLoad = new BulkLoad(layout, heights);
    }

    /** The subspace holding this set. */
    public Subspace subspace() {
        return layout.subspace;
    }

    /** Each level holds one in {@code 2^fanoutBits()} of the elements of the level below. */
    public int fanoutBits() {
        return fanoutBits;
    }

    /** The number of levels, level 0 (every element) included. */
    public int levels() {
        return layout.levels;
    }

    /** The longest element, in bytes: {@code 9,997} less the subspace prefix (see the class notes). */
    public int maxElementBytes() {
        return layout.maxElementBytes;
    }

    // ---- changes ----

    /**
     * Adds {@code element}; completes with whether it was absent. Under
     * {@code commit_unknown_result}, a retry of an add that did commit completes with
     * {@code false} and changes nothing.
     *
     * @throws IllegalArgumentException if the element is longer than {@link #maxElementBytes()}
     */
    public CompletableFuture<Boolean> add(Transaction tr, byte[] element) {
        return changes.add(tr, layout.checkElement(element));
    }

    /**
     * Adds {@code elements} (distinct, any order) to this set, which must be empty and changed
     * by no other transaction meanwhile (say, a set under a subspace just allocated): writes
     * the keys a sequence of {@link #add}s would leave, in one pass and without reading, so
     * that building a large set costs its writes only. Not for a set that may hold elements:
     * nothing checks, and the counts would be wrong.
     *
     * @throws IllegalArgumentException if an element is longer than {@link #maxElementBytes()}
     *         or appears twice (before anything is written)
     */
    public void addAllToEmpty(Transaction tr, java.util.Collection<byte[]> elements) {
        bulkLoad.load(tr, elements);
    }

    /**
     * The keys and values {@link #addAllToEmpty} would write, as {key, value} pairs, for a set
     * too large to build in one transaction: each is a blind set independent of the others, so
     * the caller may write them over several transactions, in any grouping, provided nothing
     * reads or changes the set until the last has committed (a set under a subspace no reader
     * knows yet).
     *
     * @throws IllegalArgumentException as {@link #addAllToEmpty}
     */
    public java.util.List<byte[][]> addAllToEmptyWrites(java.util.Collection<byte[]> elements) {
        return bulkLoad.writes(elements);
    }

    /**
     * Removes {@code element}; completes with whether it was present.
     *
     * @throws IllegalArgumentException if the element is longer than {@link #maxElementBytes()}
     */
    public CompletableFuture<Boolean> remove(Transaction tr, byte[] element) {
        return changes.remove(tr, layout.checkElement(element));
    }

    /** Removes every element, and every key of the set: one range clear, which conflicts with every concurrent change. */
    public void clear(Transaction tr) {
        tr.clear(layout.subspace.range());
    }

    // ---- reads ----

    /** Whether {@code element} is in the set: one read of its level-0 key. */
    public CompletableFuture<Boolean> contains(ReadTransaction tr, byte[] element) {
        return tr.get(layout.key(0, layout.checkElement(element))).thenApply(v -> v != null);
    }

    /**
     * The rank of {@code element}: how many elements are smaller; empty if it is not in the set.
     * The reverse rank ({@code ZREVRANK}) is {@code size - 1 - rank}.
     */
    public CompletableFuture<OptionalLong> rank(ReadTransaction tr, byte[] element) {
        layout.checkElement(element);
        ReadTransaction snapshot = tr.snapshot();
        CompletableFuture<byte[]> present = snapshot.get(layout.key(0, element));
        CompletableFuture<Long> below = queries.rankOf(snapshot, element);
        return present.thenCombine(below, (value, rank) -> {
            tr.addReadConflictRangeIfNotSnapshot(layout.levelBegin(0), layout.keyAfter(0, element));
            return value == null ? OptionalLong.empty() : OptionalLong.of(rank);
        });
    }

    /** The number of elements smaller than {@code key}, which need not be in the set: where it would rank. */
    public CompletableFuture<Long> rankOf(ReadTransaction tr, byte[] key) {
        layout.checkBound(key);
        return queries.rankOf(tr.snapshot(), key).thenApply(rank -> {
            tr.addReadConflictRangeIfNotSnapshot(layout.levelBegin(0), layout.key(0, key));
            return rank;
        });
    }

    /**
     * The element of 0-based rank {@code rank}; empty if the set has {@code rank} elements or fewer.
     *
     * @throws IllegalArgumentException if {@code rank} is negative
     */
    public CompletableFuture<Optional<byte[]>> getNth(ReadTransaction tr, long rank) {
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative: " + rank);
        }
        return queries.getNth(tr.snapshot(), rank).thenApply(found -> {
            byte[] end = found.map(e -> layout.keyAfter(0, e)).orElse(layout.levelEnd(0));
            tr.addReadConflictRangeIfNotSnapshot(layout.levelBegin(0), end);
            return found;
        });
    }

    /**
     * The number of elements {@code e} with {@code begin <= e < end} ({@code end == null}: no
     * upper bound); 0 if {@code end <= begin}. Two rank lookups, run together.
     */
    public CompletableFuture<Long> count(ReadTransaction tr, byte[] begin, byte[] end) {
        layout.checkBound(begin);
        if (end != null) {
            layout.checkBound(end);
        }
        ReadTransaction snapshot = tr.snapshot();
        CompletableFuture<Long> below = queries.rankOf(snapshot, begin);
        CompletableFuture<Long> upTo = end == null ? queries.size(snapshot) : queries.rankOf(snapshot, end);
        boolean empty = end != null && Arrays.compareUnsigned(begin, end) >= 0;
        return below.thenCombine(upTo, (b, e) -> {
            if (empty) {
                return 0L; // nothing can ever be in the range: no conflict either
            }
            tr.addReadConflictRangeIfNotSnapshot(layout.key(0, begin), end == null ? layout.levelEnd(0) : layout.key(0, end));
            return e - b;
        });
    }

    /** The number of elements: the sum of the top level's counts. */
    public CompletableFuture<Long> size(ReadTransaction tr) {
        return queries.size(tr.snapshot()).thenApply(size -> {
            tr.addReadConflictRangeIfNotSnapshot(layout.levelBegin(0), layout.levelEnd(0));
            return size;
        });
    }

    /**
     * The elements {@code e} with {@code begin <= e < end} ({@code end == null}: no upper bound),
     * ascending, or descending if {@code reverse}; at most {@code limit} of them (0: no limit).
     * A plain range read of level 0, read as the iteration proceeds.
     */
    public AsyncIterable<byte[]> scan(ReadTransaction tr, byte[] begin, byte[] end, int limit, boolean reverse) {
        layout.checkBound(begin);
        byte[] endKey = end == null ? layout.levelEnd(0) : layout.key(0, layout.checkBound(end));
        return new ElementIterable(tr.getRange(layout.key(0, begin), endKey, limit, reverse), layout);
    }

    /**
     * The elements from rank {@code rank} on: ranks {@code rank, rank + 1, ...} ascending, or
     * {@code rank, rank - 1, ..., 0} descending if {@code reverse}; at most {@code limit} of
     * them (0: no limit); nothing if {@code rank >= size}. Finds the element of that rank
     * ({@link #getNth}), then scans level 0 from it. For {@code ZREVRANGE}'s index {@code i},
     * pass {@code size - 1 - i} and {@code reverse}.
     *
     * @throws IllegalArgumentException if {@code rank} is negative
     */
    public AsyncIterable<byte[]> scanFromRank(ReadTransaction tr, long rank, int limit, boolean reverse) {
        if (rank < 0) {
            throw new IllegalArgumentException("rank must not be negative: " + rank);
        }
        return new DeferredIterable<>(() -> getNth(tr, rank).thenApply(found -> {
            if (found.isEmpty()) {
                return ElementIterable.none();
            }
            byte[] start = found.get();
            return reverse
                    ? new ElementIterable(tr.getRange(layout.levelBegin(0), layout.keyAfter(0, start), limit, true), layout)
                    : scan(tr, start, null, limit, false);
        }));
    }
}
