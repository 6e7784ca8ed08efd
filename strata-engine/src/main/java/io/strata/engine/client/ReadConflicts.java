package io.strata.engine.client;

import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.KeyValue;
import io.strata.engine.commit.ConflictRanges;
import io.strata.engine.util.ByteKeys;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The read conflict range a read depends on, as FoundationDB's RYW layer computes it
 * ({@code addConflictRange} in {@code ReadYourWrites.actor.cpp}): for a range read, from its
 * normalised selectors, its rows and its direction; for {@code getKey}, from its selector and
 * the key it resolved to. Also the self-conflicting range NativeAPI gives a blind write.
 *
 * <p>Separate from {@link EngineTransaction} because these are pure formulas — each returns
 * {@code {begin, end}} and records nothing — so they can be read against FoundationDB's source
 * on their own. The transaction then records the parts its own writes do not answer.
 */
final class ReadConflicts {
    /** Where NativeAPI's {@code makeSelfConflicting} puts its random key. */
    private static final byte[] SELF_CONFLICT_PREFIX = {(byte) 0xff, '/', 'S', 'C', '/'};

    private ReadConflicts() {
    }

    /**
     * FoundationDB's {@code addConflictRange} for range reads, forward and reverse.
     * {@code begin} and {@code end} are the selectors after {@code removeOrEqual} ({@link KeyRules#ownWithoutOrEqual});
     * {@code maxReadKey} ends the range when the read ran through the end of the key space.
     *
     * @return {@code {begin, end}}; empty or inverted when the read depended on nothing
     */
    static byte[][] ofRange(KeySelector begin, KeySelector end, ReadView.Rows rows, boolean reverse, byte[] maxReadKey) {
        byte[] bk = begin.getKey();
        byte[] ek = end.getKey();
        byte[] rb;
        byte[] re;
        List<KeyValue> r = rows.rows();
        boolean ordered = ByteKeys.compare(bk, ek) < 0;
        if (!reverse) {
            if (ordered) {
                rb = bk;
                re = end.getOffset() > 0 && rows.more() ? bk : ek;
            } else {
                rb = ek;
                re = bk;
            }
        } else {
            if (ordered) {
                rb = begin.getOffset() <= 1 && rows.more() ? ek : bk;
                re = ek;
            } else {
                rb = ek;
                re = bk;
            }
        }
        if (rows.readToBegin() && begin.getOffset() <= 0) {
            rb = ByteKeys.EMPTY;
        }
        if (rows.readThroughEnd() && end.getOffset() > 0) {
            re = maxReadKey;
        }
        if (!r.isEmpty()) {
            if (!reverse) {
                if (begin.getOffset() <= 0) {
                    rb = ByteKeys.min(rb, r.get(0).getKey());
                }
                byte[] last = r.get(r.size() - 1).getKey();
                if (ByteKeys.compare(re, last) <= 0) {
                    re = ByteKeys.keyAfter(last);
                }
            } else {
                rb = ByteKeys.min(rb, r.get(r.size() - 1).getKey());
                byte[] first = r.get(0).getKey();
                if (end.getOffset() > 0 && ByteKeys.compare(re, first) <= 0) {
                    re = ByteKeys.keyAfter(first);
                }
            }
        }
        return new byte[][] {rb, re};
    }

    /**
     * The range a {@code getKey} depended on: from the resolved key up to the selector's key
     * when the selector looks backwards (offset {@code <= 0}), else from the selector's key
     * through the resolved key.
     *
     * @return {@code {begin, end}}; empty or inverted when the read depended on nothing
     */
    static byte[][] ofGetKey(KeySelector selector, byte[] result) {
        byte[] selKey = selector.orEqual() ? ByteKeys.keyAfter(selector.getKey()) : selector.getKey();
        if (selector.getOffset() <= 0) {
            return new byte[][] {result, selKey};
        }
        return new byte[][] {selKey, ByteKeys.keyAfter(result)};
    }

    /**
     * FoundationDB's client makes a write transaction whose read and write conflict ranges
     * do not meet self-conflicting (NativeAPI {@code makeSelfConflicting}, unless
     * {@code causal_write_risky}): it adds a random key under {@code \\xff/SC/} to both. The
     * range conflicts with nothing, but it gives every write transaction a read conflict
     * range, so the resolver's too-old rule fails a blind write whose read version left the
     * 5 s window with 1007. Only that effect is observable, and only for transactions without
     * read conflict ranges of their own, so only those get the read half, and no write half
     * that would grow the conflict history.
     */
    static ConflictRanges selfConflictRange() {
        byte[] key = new byte[SELF_CONFLICT_PREFIX.length + 16];
        System.arraycopy(SELF_CONFLICT_PREFIX, 0, key, 0, SELF_CONFLICT_PREFIX.length);
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        System.arraycopy(random, 0, key, SELF_CONFLICT_PREFIX.length, 16);
        return ConflictRanges.ofKey(key);
    }
}
