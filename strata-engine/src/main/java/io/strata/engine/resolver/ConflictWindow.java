package io.strata.engine.resolver;

import io.strata.engine.util.ByteKeys;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;

/**
 * The resolver's memory of committed writes over the 5 s window, kept as a short queue of
 * {@link ConflictHistory} generations, each holding about {@link #GENERATION_VERSIONS} of
 * history.
 *
 * <h2>Why generations</h2>
 * A single history would need pruning by walking it, and at 200,000 commits/s it holds
 * about two million boundaries; walking them every few milliseconds would cost more than
 * resolving. Here writes always go to the newest generation, a generation is dropped whole
 * once its newest write leaves the window (O(1)), and a check skips every generation whose
 * newest write is not newer than the reader's version — so a transaction with a recent read
 * version usually consults one generation, and a boundary costs nothing after it is written.
 *
 * <h2>Invariant</h2>
 * Generations are ordered by version and do not overlap in version: every write in a
 * generation is newer than every write in the generations before it. A read range conflicts
 * iff some generation reports a write newer than the read version in it — the same answer
 * as one history holding all writes, because "a write newer than v meets [b, e)" is a
 * disjunction over the writes.
 *
 * <p>FoundationDB's resolver instead keeps one skip list whose nodes carry, per level, the
 * maximum version below them, and removes old boundaries lazily as it passes them. Owned by
 * the sequencer thread; not thread-safe.
 */
public final class ConflictWindow {
    /** At most one second of versions per generation, so that pruning frees memory steadily. */
    static final long GENERATION_VERSIONS = 1_000_000L;
    /**
     * Writes per generation before it is sealed into sorted arrays and a new one begins: large
     * enough that the sort is cheap per write, small enough that an active generation's linear
     * range scan stays short.
     */
    static final int DEFAULT_GENERATION_WRITES = 4_096;

    private final int generationWrites;

    public ConflictWindow() {
        this(DEFAULT_GENERATION_WRITES);
    }

    /** @param generationWrites writes after which a generation is sealed (tests use small values) */
    public ConflictWindow(int generationWrites) {
        this.generationWrites = generationWrites;
    }

    /** Oldest first. */
    private final ArrayDeque<Generation> generations = new ArrayDeque<>();

    /**
     * One generation's writes. Single-key writes {@code [k, k\x00)} — almost all of them —
     * go to {@link PointWrites} at O(1) each; other ranges go to the step function of
     * {@link ConflictHistory}, which costs several tree operations. A read range conflicts if
     * either reports a newer write in it.
     */
    private static final class Generation {
        final PointWrites points = new PointWrites();
        final ConflictHistory ranges = new ConflictHistory();
        final long firstVersion;
        long lastVersion;
        int writes;

        Generation(long firstVersion) {
            this.firstVersion = firstVersion;
            this.lastVersion = firstVersion;
        }

        void addWrite(byte[] begin, byte[] end, long version) {
            if (isSingleKey(begin, end)) {
                points.add(begin, version);
            } else {
                ranges.addWrite(begin, end, version);
            }
            writes++;
        }

        /**
         * @param newest whether this generation still takes writes; an older one is sealed the
         *               first time a range read reaches it (point reads never need sorting,
         *               so workloads without range reads never pay for it)
         * @param single whether the read is of the single key {@code begin}, whose
         *               {@code ByteKeys.hash} is then {@code hash} (computed once per read,
         *               not once per generation)
         * @param end    null when {@code single}: built only if range writes must be checked
         */
        boolean conflicts(byte[] begin, byte[] end, long readVersion, boolean newest, boolean single, int hash) {
            if (single) {
                return points.conflictsPoint(begin, hash, readVersion)
                        || (ranges.size() > 0 && ranges.conflicts(begin, end != null ? end : ByteKeys.keyAfter(begin), readVersion));
            }
            if (!newest) {
                points.seal();
            }
            return (points.size() > 0 && points.conflictsRange(begin, end, readVersion))
                    || ranges.conflicts(begin, end, readVersion);
        }

        int size() {
            return points.size() + ranges.size();
        }
    }

    /** True when {@code [begin, end)} holds exactly one key: {@code end == begin + \x00}. */
    static boolean isSingleKey(byte[] begin, byte[] end) {
        return end.length == begin.length + 1 && end[begin.length] == 0
                && Arrays.equals(begin, 0, begin.length, end, 0, begin.length);
    }

    /** Records that {@code [begin, end)} was written at {@code commitVersion} (non-decreasing). */
    public void addWrite(byte[] begin, byte[] end, long commitVersion) {
        Generation g = writable(commitVersion);
        g.addWrite(begin, end, commitVersion);
        g.lastVersion = commitVersion;
    }

    /** {@link #addWrite} of {@code [key, key\x00)}. */
    public void addKeyWrite(byte[] key, long commitVersion) {
        Generation g = writable(commitVersion);
        g.points.add(key, commitVersion);
        g.writes++;
        g.lastVersion = commitVersion;
    }

    /** The generation that takes a write at {@code commitVersion}, begun if the newest is full or too old. */
    private Generation writable(long commitVersion) {
        Generation newest = generations.peekLast();
        if (newest == null || commitVersion - newest.firstVersion >= GENERATION_VERSIONS || newest.writes >= generationWrites) {
            newest = new Generation(commitVersion);
            generations.addLast(newest);
        }
        return newest;
    }

    /** True when a write newer than {@code readVersion} meets {@code [begin, end)}. */
    public boolean conflicts(byte[] begin, byte[] end, long readVersion) {
        return conflicts(begin, end, isSingleKey(begin, end), readVersion);
    }

    /** {@link #conflicts} of {@code [key, key\x00)}. */
    public boolean conflictsKey(byte[] key, long readVersion) {
        return conflicts(key, null, true, readVersion);
    }

    /** @param end null only when {@code single} */
    private boolean conflicts(byte[] begin, byte[] end, boolean single, long readVersion) {
        Iterator<Generation> newestFirst = generations.descendingIterator();
        boolean newest = true;
        int hash = 0;
        boolean hashed = false;
        while (newestFirst.hasNext()) {
            Generation g = newestFirst.next();
            if (g.lastVersion <= readVersion) {
                return false; // this and every older generation hold only older writes
            }
            if (single && !hashed) {
                hash = ByteKeys.hash(begin);
                hashed = true;
            }
            if (g.conflicts(begin, end, readVersion, newest, single, hash)) {
                return true;
            }
            newest = false;
        }
        return false;
    }

    /**
     * Forgets generations whose newest write is older than {@code oldestVersion}. Callers
     * reject transactions with older read versions before asking ({@code transaction_too_old}).
     */
    public void pruneBefore(long oldestVersion) {
        while (!generations.isEmpty() && generations.peekFirst().lastVersion < oldestVersion) {
            generations.pollFirst();
        }
    }

    /** Boundaries held in all generations, for tests and metrics. */
    public int size() {
        int n = 0;
        for (Generation g : generations) {
            n += g.size();
        }
        return n;
    }

    /** Generations held, for tests. */
    int generationCount() {
        return generations.size();
    }
}
