package io.strata.engine.client;

import io.strata.engine.commit.ConflictRanges;
import io.strata.engine.commit.Mutation;
import io.strata.engine.mutation.AtomicOps;
import io.strata.engine.util.ByteKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The size FoundationDB compares with {@code size_limit} at commit ({@code transaction_too_large},
 * 2101): NativeAPI {@code getSize()} of the transaction the RYW layer hands over.
 *
 * <h2>What is counted</h2>
 * RYW does not send the calls as made: {@code writeRangeToNativeTransaction} sends its write
 * map, where each key holds one coalesced operation stack ({@code WriteMap::coalesceOver}) and
 * cleared ranges are merged, and the conflict ranges merged. {@code getSize()} is then
 * {@code expectedSize()} of three {@code VectorRef}s: per element {@code sizeof(T)} plus the
 * bytes it points to — {@link #MUTATION_OVERHEAD} plus key and parameter per mutation,
 * {@link #RANGE_OVERHEAD} plus both ends per conflict range. So a thousand overwrites of one key
 * count once, while many small writes weigh more than their bytes.
 *
 * <h2>When it is computed</h2>
 * Only when it can matter ({@link #worthComputing}): the transaction's running estimate (which,
 * like RYW's {@code approximateSize} behind {@code getApproximateSize}, adds every call without
 * coalescing, but unlike it counts every mutation and conflict range the commit will carry) is
 * never smaller, since coalescing only removes — except that a key written inside
 * a cleared range splits the clear in two, which costs less than twice that write's own
 * estimate, so the exact size stays under three times the estimate.
 *
 * <p>Not thread-safe; a pure function of its inputs.
 */
final class CommitSize {
    /** {@code sizeof(MutationRef)} on 64-bit: a type byte padded to 8, two 16-byte {@code StringRef}s. */
    static final int MUTATION_OVERHEAD = 40;
    /** {@code sizeof(KeyRangeRef)}: two 16-byte {@code StringRef}s. */
    static final int RANGE_OVERHEAD = 32;

    private CommitSize() {}

    /**
     * True when the exact size must decide: the estimate is over {@code limit}, or, when the
     * transaction cleared ranges (whose splitting can make the exact size the larger), over a
     * third of it. Otherwise the exact size cannot exceed the estimate, nor the limit.
     */
    static boolean worthComputing(long estimate, long limit, boolean clearedRanges) {
        return estimate > (clearedRanges ? limit / 3 : limit);
    }

    /**
     * @param mutations      the transaction's writes in issue order
     * @param readConflicts  its read conflict ranges
     * @param writeConflicts its write conflict ranges
     */
    static long of(List<Mutation> mutations, ConflictRanges readConflicts, ConflictRanges writeConflicts) {
        return mutationsSize(mutations) + rangesSize(readConflicts) + rangesSize(writeConflicts);
    }

    /** One key's coalesced operations: a known value (independent), or atomic operations on the stored one. */
    private static final class Stack {
        boolean independent;
        byte[] value;
        final List<Mutation> ops = new ArrayList<>(1);
    }

    private static long mutationsSize(List<Mutation> mutations) {
        TreeMap<byte[], Stack> stacks = new TreeMap<>(ByteKeys.COMPARATOR);
        TreeMap<byte[], byte[]> cleared = new TreeMap<>(ByteKeys.COMPARATOR);
        long size = 0;
        for (Mutation m : mutations) {
            byte[] key = m.key();
            switch (m.type()) {
                case Mutation.SET_VALUE -> stacks.put(key, known(m.param()));
                case Mutation.CLEAR_RANGE -> {
                    stacks.subMap(key, true, m.param(), false).clear();
                    Intervals.addMerged(cleared, key, m.param());
                }
                // Its key is not known before commit: a stack of its own.
                case Mutation.SET_VERSIONSTAMPED_KEY -> size += MUTATION_OVERHEAD + m.size();
                // Replaces the stack, as a set does (WriteMap::mutate).
                case Mutation.SET_VERSIONSTAMPED_VALUE -> {
                    Stack s = new Stack();
                    s.ops.add(m);
                    stacks.put(key, s);
                }
                default -> atomic(stacks, cleared, m);
            }
        }
        for (Map.Entry<byte[], Stack> e : stacks.entrySet()) {
            byte[] key = e.getKey();
            Stack s = e.getValue();
            if (!s.independent) {
                for (Mutation op : s.ops) {
                    size += MUTATION_OVERHEAD + op.size();
                }
            } else if (s.value != null) {
                size += MUTATION_OVERHEAD + key.length + s.value.length;
            } else {
                size += MUTATION_OVERHEAD + 2L * key.length + 1; // compare-and-clear came out clear: clear(key)
            }
        }
        // A cleared range is sent in pieces around the keys written inside it.
        for (Map.Entry<byte[], byte[]> r : cleared.entrySet()) {
            byte[] from = r.getKey();
            for (byte[] key : stacks.subMap(r.getKey(), true, r.getValue(), false).keySet()) {
                if (ByteKeys.compare(from, key) < 0) {
                    size += MUTATION_OVERHEAD + from.length + key.length;
                }
                from = ByteKeys.keyAfter(key);
            }
            if (ByteKeys.compare(from, r.getValue()) < 0) {
                size += MUTATION_OVERHEAD + from.length + r.getValue().length;
            }
        }
        return size;
    }

    private static Stack known(byte[] value) {
        Stack s = new Stack();
        s.independent = true;
        s.value = value;
        return s;
    }

    /** {@code WriteMap::coalesceOver} for an atomic operation, as far as sizes go. */
    private static void atomic(TreeMap<byte[], Stack> stacks, TreeMap<byte[], byte[]> cleared, Mutation m) {
        Stack s = stacks.get(m.key());
        if (s == null && inside(cleared, m.key())) {
            s = known(null);
            stacks.put(m.key(), s);
        }
        if (s == null) {
            s = new Stack();
            s.ops.add(m);
            stacks.put(m.key(), s);
        } else if (s.independent) {
            s.value = AtomicOps.apply(m.type(), s.value, m.param());
        } else {
            Mutation top = s.ops.get(s.ops.size() - 1);
            boolean sameType = top.type() == m.type() && m.type() != AtomicOps.COMPARE_AND_CLEAR;
            if (sameType && !(nonAssociative(m.type()) && top.param().length != m.param().length)) {
                s.ops.set(s.ops.size() - 1, new Mutation(m.type(), m.key(), AtomicOps.apply(m.type(), top.param(), m.param())));
            } else {
                s.ops.add(m);
            }
        }
    }

    /** {@code MutationRef::NON_ASSOCIATIVE_MASK}, in fdb-java's codes (MIN becomes MinV2, also in the mask). */
    private static boolean nonAssociative(int type) {
        return switch (type) {
            case AtomicOps.ADD, AtomicOps.BIT_OR, AtomicOps.BIT_XOR, AtomicOps.MAX, AtomicOps.MIN,
                 AtomicOps.SET_VERSIONSTAMPED_KEY, AtomicOps.SET_VERSIONSTAMPED_VALUE, AtomicOps.COMPARE_AND_CLEAR -> true;
            default -> false;
        };
    }

    private static boolean inside(TreeMap<byte[], byte[]> intervals, byte[] key) {
        Map.Entry<byte[], byte[]> r = intervals.floorEntry(key);
        return r != null && ByteKeys.compare(key, r.getValue()) < 0;
    }

    /** Conflict ranges as the native transaction gets them: merged, each with its overhead. */
    private static long rangesSize(ConflictRanges conflicts) {
        int n = conflicts.size();
        byte[][][] ranges = new byte[n][][];
        for (int i = 0; i < n; i++) {
            ranges[i] = new byte[][] {conflicts.begin(i), conflicts.end(i)};
        }
        Arrays.sort(ranges, (x, y) -> ByteKeys.compare(x[0], y[0]));
        long size = 0;
        byte[] begin = null;
        byte[] end = null;
        for (byte[][] r : ranges) {
            if (begin != null && ByteKeys.compare(r[0], end) <= 0) {
                end = ByteKeys.max(end, r[1]);
                continue;
            }
            if (begin != null) {
                size += RANGE_OVERHEAD + begin.length + end.length;
            }
            begin = r[0];
            end = r[1];
        }
        if (begin != null) {
            size += RANGE_OVERHEAD + begin.length + end.length;
        }
        return size;
    }
}
