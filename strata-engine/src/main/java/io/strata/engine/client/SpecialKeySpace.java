package io.strata.engine.client;

import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeySelector;
import io.strata.engine.error.FdbError;
import io.strata.engine.util.ByteKeys;

import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * FoundationDB's special key space, {@code [\xff\xff, \xff\xff\xff)}: keys that are not stored
 * but answered by the client from the transaction, the connection and the cluster
 * ({@code fdbclient/SpecialKeySpace.actor.cpp}).
 *
 * <h2>Which calls reach it</h2>
 * As in RYW ({@code ReadYourWritesTransaction::get}, {@code getRange}, {@code set},
 * {@code clear}): a {@code get} of a key in the space; a range read whose begin selector's key
 * is in the space and whose end selector's key is in {@code [\xff\xff, \xff\xff\xff]}; a
 * {@code set}, a {@code clear} of a key in the space and a {@code clear} of a range inside it.
 * {@code getKey}, watches, atomic operations and conflict ranges do not: they treat special
 * keys as keys past the readable space ({@code key_outside_legal_range}), as RYW does.
 *
 * <h2>Reads</h2>
 * Answered before the transaction's state is consulted — after a commit, a failed commit, a
 * cancel — failing only with an error of an earlier void call ({@code ThreadSafeTransaction}
 * checks the deferred error first). They take no read version, add no conflict range, see no
 * own writes and are the same as snapshot reads. A read must stay inside one module
 * ({@link SpecialKeyModules#MODULES}): one that starts outside every module fails with
 * {@code special_keys_no_module_found} (2113), one that leaves its module with
 * {@code special_keys_cross_module_read} (2112); {@code special_key_space_relaxed} lifts both,
 * and then ranges outside modules read empty. Key selectors resolve over the keys of the
 * module (or of the whole space when relaxed), clamped to it ({@link SpecialKeyRangeRead}).
 *
 * <h2>Writes</h2>
 * Without {@code special_key_space_enable_writes}, {@code special_keys_write_disabled} (2114);
 * outside a writable range, {@code special_keys_no_write_module_found} (2115); a range clear
 * spanning writable ranges, {@code special_keys_cross_module_clear} (2116). Like every void
 * call's error these surface at the next read or the commit.
 */
final class SpecialKeySpace {
    /** {@code \xff\xff}: where the special key space begins. */
    static final byte[] BEGIN = ByteKeys.SYSTEM_END;
    /** {@code \xff\xff\xff}: where it ends. */
    static final byte[] END = {(byte) 0xff, (byte) 0xff, (byte) 0xff};

    /**
     * FoundationDB's map of registered ranges ({@code readImpls}) as the begins of its
     * segments: {@code ""}, the space's begin, every module's and range's ends, and the space's
     * end, which begins the map's end sentinel. {@link #IMPL_OF} holds each segment's range, or
     * null where nothing answers.
     */
    private static final byte[][] SEGMENTS;
    private static final SpecialKeyImpl[] IMPL_OF;

    static {
        TreeSet<byte[]> points = new TreeSet<>(ByteKeys.COMPARATOR);
        points.add(ByteKeys.EMPTY);
        points.add(BEGIN);
        points.add(END);
        for (SpecialKeyModules.Module m : SpecialKeyModules.MODULES) {
            points.add(m.begin());
            points.add(m.end());
        }
        for (SpecialKeyImpl impl : SpecialKeyModules.IMPLS) {
            points.add(impl.begin());
            points.add(impl.end());
        }
        SEGMENTS = points.toArray(new byte[0][]);
        IMPL_OF = new SpecialKeyImpl[SEGMENTS.length];
        for (int i = 0; i < SEGMENTS.length; i++) {
            for (SpecialKeyImpl impl : SpecialKeyModules.IMPLS) {
                if (impl.contains(SEGMENTS[i])) {
                    IMPL_OF[i] = impl;
                }
            }
        }
    }

    private SpecialKeySpace() {
    }

    /** Whether {@code get(key)} is answered here. */
    static boolean contains(byte[] key) {
        return ByteKeys.compare(key, BEGIN) >= 0 && ByteKeys.compare(key, END) < 0;
    }

    /** Whether a range read from {@code beginKey} to {@code endKey} (the selectors' keys) is answered here. */
    static boolean isSpecialRange(byte[] beginKey, byte[] endKey) {
        return contains(beginKey) && ByteKeys.compare(endKey, BEGIN) >= 0 && ByteKeys.compare(endKey, END) <= 0;
    }

    /** Whether {@code clear(begin, end)} is answered here: the range lies inside the space. */
    static boolean containsRange(byte[] begin, byte[] end) {
        return ByteKeys.compare(begin, BEGIN) >= 0 && ByteKeys.compare(end, END) <= 0;
    }

    // ---------------------------------------------------------------- reads

    /** {@code SpecialKeySpace::get}: a range read of the key alone. */
    static CompletableFuture<byte[]> get(TransactionSpecialKeys tx, byte[] key) {
        return getRange(tx, KeySelector.firstGreaterOrEqual(key), KeySelector.firstGreaterOrEqual(ByteKeys.keyAfter(key)), 0, false)
                .thenApply(rows -> rows.rows().isEmpty() ? null : rows.rows().get(0).getValue());
    }

    /**
     * {@code SpecialKeySpace::getRange}: at most {@code limit} rows (0: all; below -1:
     * {@code range_limits_invalid}) of the range between the selectors. {@code more} is set
     * when the limit was reached, as FoundationDB sets it.
     */
    static CompletableFuture<ReadView.Rows> getRange(TransactionSpecialKeys tx, KeySelector begin, KeySelector end,
                                                     int limit, boolean reverse) {
        if (limit < RangeIterable.NATIVE_UNLIMITED) {
            return CompletableFuture.failedFuture(FdbError.RANGE_LIMITS_INVALID.exception());
        }
        KeySelector b = KeyRules.ownWithoutOrEqual(begin);
        KeySelector e = KeyRules.ownWithoutOrEqual(end);
        if (b.getOffset() >= e.getOffset() && ByteKeys.compare(b.getKey(), e.getKey()) >= 0) {
            return CompletableFuture.completedFuture(SpecialKeyRangeRead.EMPTY);
        }
        byte[][] boundary;
        if (tx.relaxed()) {
            boundary = new byte[][] {BEGIN, END};
        } else {
            byte[][] module = moduleAround(b.getKey());
            if (ByteKeys.compare(module[0], e.getKey()) > 0 || ByteKeys.compare(e.getKey(), module[1]) > 0) {
                return CompletableFuture.failedFuture(FdbError.SPECIAL_KEYS_CROSS_MODULE_READ.exception());
            }
            if (module[2] == null) {
                return CompletableFuture.failedFuture(FdbError.SPECIAL_KEYS_NO_MODULE_FOUND.exception());
            }
            boundary = module;
        }
        try {
            return new SpecialKeyRangeRead(tx, boundary[0], boundary[1]).read(b, e, Math.max(limit, 0), reverse);
        } catch (FDBException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * The range of FoundationDB's module map containing {@code key}: the module's
     * {@code {begin, end, begin}}, or for keys outside every module the gap between modules,
     * {@code {begin, end, null}} (the map's {@code UNKNOWN} range).
     */
    private static byte[][] moduleAround(byte[] key) {
        byte[] gapBegin = ByteKeys.EMPTY;
        byte[] gapEnd = END;
        for (SpecialKeyModules.Module m : SpecialKeyModules.MODULES) {
            if (ByteKeys.compare(key, m.begin()) >= 0 && ByteKeys.compare(key, m.end()) < 0) {
                return new byte[][] {m.begin(), m.end(), m.begin()};
            }
            if (ByteKeys.compare(m.end(), key) <= 0) {
                gapBegin = ByteKeys.max(gapBegin, m.end());
            } else if (ByteKeys.compare(m.begin(), key) > 0 && ByteKeys.compare(m.begin(), gapEnd) < 0) {
                gapEnd = m.begin();
            }
        }
        return new byte[][] {gapBegin, gapEnd, null};
    }

    /** Index of the segment {@code [SEGMENTS[i], SEGMENTS[i+1])} holding {@code key} (the sentinel past the end). */
    static int segmentContaining(byte[] key) {
        int lo = 0;
        int hi = SEGMENTS.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (ByteKeys.compare(SEGMENTS[mid], key) <= 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Index of the segment holding the key just before {@code key} ({@code rangeContainingKeyBefore}). */
    static int segmentContainingKeyBefore(byte[] key) {
        if (key.length == 0) {
            return 0;
        }
        int lo = 0;
        int hi = SEGMENTS.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (ByteKeys.compare(SEGMENTS[mid], key) < 0) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    static byte[] segmentBegin(int i) {
        return SEGMENTS[i];
    }

    /** The end of segment {@code i}; the sentinel's is the space's end. */
    static byte[] segmentEnd(int i) {
        return i + 1 < SEGMENTS.length ? SEGMENTS[i + 1] : END;
    }

    static SpecialKeyImpl segmentImpl(int i) {
        return i < SEGMENTS.length - 1 ? IMPL_OF[i] : null;
    }

    static int segmentCount() {
        return SEGMENTS.length;
    }

    // ---------------------------------------------------------------- writes

    /** The writable range holding {@code key}, or null. */
    static SpecialKeyImpl writableImplAt(byte[] key) {
        SpecialKeyImpl impl = segmentImpl(segmentContaining(key));
        return impl != null && impl.writable() ? impl : null;
    }

    /** Why {@code set} or {@code clear} of {@code key} fails ({@code SpecialKeySpace::set}, {@code clear}), or null. */
    static FDBException writeError(TransactionSpecialKeys tx, byte[] key) {
        if (!tx.writesEnabled()) {
            return FdbError.SPECIAL_KEYS_WRITE_DISABLED.exception();
        }
        if (writableImplAt(key) == null) {
            return FdbError.SPECIAL_KEYS_NO_WRITE_MODULE_FOUND.exception();
        }
        return null;
    }

    /**
     * Why {@code clear(begin, end)} fails, or null: an empty range is no error once writes are
     * enabled; otherwise both ends must lie in the same writable range.
     */
    static FDBException clearRangeError(TransactionSpecialKeys tx, byte[] begin, byte[] end) {
        if (!tx.writesEnabled()) {
            return FdbError.SPECIAL_KEYS_WRITE_DISABLED.exception();
        }
        if (ByteKeys.compare(begin, end) >= 0) {
            return null;
        }
        SpecialKeyImpl first = writableImplAt(begin);
        SpecialKeyImpl last = segmentImpl(segmentContainingKeyBefore(end));
        if (last != null && !last.writable()) {
            last = null;
        }
        if (first != last) {
            return FdbError.SPECIAL_KEYS_CROSS_MODULE_CLEAR.exception();
        }
        if (first == null) {
            return FdbError.SPECIAL_KEYS_NO_WRITE_MODULE_FOUND.exception();
        }
        return null;
    }
}
