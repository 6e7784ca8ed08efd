package io.strata.redis.commands;

import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.layers.ranked.RankedSet;
import io.strata.redis.protocol.RedisException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * A sorted set's elements in its object subspace {@code O}: each member's score for ZSCORE in
 * one read, the (score, member) pairs in a {@link RankedSet} for order, ranks and counts in
 * O(log n) reads, and the member count for ZCARD.
 *
 * <h2>Key layout</h2>
 * <pre>
 * O 'm' member            -&gt; score: the double's IEEE 754 bits, big-endian
 * O 'n'                   -&gt; member count: 8 bytes little-endian, atomic ADD only
 * O 'r' ...               -&gt; RankedSet of elements sortable(score)[8] ++ member
 * </pre>
 * {@code sortable(score)} maps a double to 8 bytes whose unsigned order is the numeric order
 * (flip the sign bit of a positive, every bit of a negative; -0 is stored as 0, as Redis
 * compares them equal), so the ranked set's byte order is Redis's order: by score, then by
 * member bytes.
 *
 * <h2>Concurrency</h2>
 * Changing a member reads its score key serializably, so two commands changing one member
 * conflict and one retries against the other's result; the ranked set's own conflict ranges
 * keep ranks exact (see {@link RankedSet}); the count moves by ADD in the same transaction as
 * the membership it counts, so it never disagrees with the members.
 */
final class ZSetObject {
    private static final byte[] PLUS_ONE = {1, 0, 0, 0, 0, 0, 0, 0};
    private static final byte[] MINUS_ONE = {-1, -1, -1, -1, -1, -1, -1, -1};

    private final Subspace object;
    private final RankedSet ranked;
    private final byte[] scorePrefix;
    private final byte[] countKey;

    ZSetObject(Subspace object) {
        this.object = object;
        byte[] p = object.getKey();
        this.scorePrefix = concat(p, (byte) 'm');
        this.countKey = concat(p, (byte) 'n');
        this.ranked = new RankedSet(new Subspace(concat(p, (byte) 'r')));
    }

    RankedSet ranked() {
        return ranked;
    }

    /** The longest member: what fits the ranked set's elements after the 8 score bytes. */
    int maxMemberBytes() {
        return ranked.maxElementBytes() - 8;
    }

    void checkMember(byte[] member) {
        if (member.length > maxMemberBytes()) {
            throw new RedisException("ERR sorted set members larger than " + maxMemberBytes() + " bytes are not supported");
        }
    }

    /** The member's score, or null if it is not in the set. */
    CompletableFuture<Double> score(ReadTransaction tr, byte[] member) {
        if (member.length > maxMemberBytes()) {
            return CompletableFuture.completedFuture(null);
        }
        return tr.get(scoreKey(member)).thenApply(v -> v == null ? null : Double.longBitsToDouble(ByteBuffer.wrap(v).getLong()));
    }

    /** Sets the member's score, given what {@link #score} returned ({@code old}: null if new). */
    CompletableFuture<Void> put(Transaction tr, byte[] member, Double old, double score) {
        double s = score == 0.0 ? 0.0 : score;
        if (old != null && old == s) {
            return CompletableFuture.completedFuture(null);
        }
        tr.set(scoreKey(member), ByteBuffer.allocate(8).putLong(Double.doubleToLongBits(s)).array());
        CompletableFuture<Boolean> removed = old == null ? CompletableFuture.completedFuture(false) : ranked.remove(tr, element(old, member));
        if (old == null) {
            tr.mutate(MutationType.ADD, countKey, PLUS_ONE);
        }
        return removed.thenCompose(ignored -> ranked.add(tr, element(s, member))).thenApply(ignored -> null);
    }

    /**
     * What {@link #loadNew} writes, as {key, value} pairs of blind sets independent of each
     * other (the count as a plain set: the set is new), for a sorted set too large to load in
     * one transaction ({@code StagedCollections} spreads them over several).
     */
    java.util.List<byte[][]> newWrites(java.util.List<byte[]> members, java.util.List<Double> scores) {
        java.util.List<byte[]> elements = new java.util.ArrayList<>(members.size());
        java.util.List<byte[][]> out = new java.util.ArrayList<>(members.size() * 3);
        for (int i = 0; i < members.size(); i++) {
            double s = scores.get(i) == 0.0 ? 0.0 : scores.get(i);
            out.add(new byte[][] {scoreKey(members.get(i)), ByteBuffer.allocate(8).putLong(Double.doubleToLongBits(s)).array()});
            elements.add(element(s, members.get(i)));
        }
        out.addAll(ranked.addAllToEmptyWrites(elements));
        out.add(new byte[][] {countKey, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(members.size()).array()});
        return out;
    }

    /**
     * Fills this set, which must be new (an object id just allocated, so nothing else can
     * change it meanwhile), with distinct {@code members} and their {@code scores}: writes
     * only, the ranked set built in one pass ({@link RankedSet#addAllToEmpty}). RESTORE uses
     * it, where adding members one by one would take a read round trip each.
     */
    void loadNew(Transaction tr, java.util.List<byte[]> members, java.util.List<Double> scores) {
        java.util.List<byte[]> elements = new java.util.ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
            double s = scores.get(i) == 0.0 ? 0.0 : scores.get(i);
            tr.set(scoreKey(members.get(i)), ByteBuffer.allocate(8).putLong(Double.doubleToLongBits(s)).array());
            elements.add(element(s, members.get(i)));
        }
        ranked.addAllToEmpty(tr, elements);
        tr.mutate(MutationType.ADD, countKey, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(members.size()).array());
    }

    /** Removes a member whose score is {@code old}. */
    CompletableFuture<Void> remove(Transaction tr, byte[] member, double old) {
        tr.clear(scoreKey(member));
        tr.mutate(MutationType.ADD, countKey, MINUS_ONE);
        return ranked.remove(tr, element(old, member)).thenApply(ignored -> null);
    }

    /**
     * Removes elements as read from the ranked set, highest first: a removal searches each
     * level for the element's predecessor, and elements this transaction removed below it
     * would lie in that search's way, so removing in ascending order made ZREM, ZPOPMIN and
     * ZREMRANGEBY* quadratic (10,000 members 3.5–3.8 s; 20,000 past the 5 s limit).
     */
    CompletableFuture<Void> removeElements(Transaction tr, java.util.List<byte[]> elements) {
        java.util.List<byte[]> highestFirst = new java.util.ArrayList<>(elements);
        highestFirst.sort((a, b) -> Arrays.compareUnsigned(b, a));
        return ZSets.sequentially(highestFirst, e -> removeElement(tr, e));
    }

    /** Removes the element {@code sortable(score) ++ member} as read from the ranked set. */
    CompletableFuture<Void> removeElement(Transaction tr, byte[] element) {
        return remove(tr, memberOf(element), scoreOf(element));
    }

    /** The number of members (a read of one key, serializable unless {@code tr} is a snapshot). */
    CompletableFuture<Long> count(ReadTransaction tr) {
        return tr.get(countKey).thenApply(v -> v == null ? 0L : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong());
    }

    private byte[] scoreKey(byte[] member) {
        byte[] k = Arrays.copyOf(scorePrefix, scorePrefix.length + member.length);
        System.arraycopy(member, 0, k, scorePrefix.length, member.length);
        return k;
    }

    static byte[] element(double score, byte[] member) {
        byte[] e = new byte[8 + member.length];
        ByteBuffer.wrap(e).putLong(sortable(score));
        System.arraycopy(member, 0, e, 8, member.length);
        return e;
    }

    /** The sortable 8 bytes of {@code score} alone: the first element with that score starts here. */
    static byte[] scorePrefix(double score) {
        return ByteBuffer.allocate(8).putLong(sortable(score)).array();
    }

    static long sortable(double score) {
        long bits = Double.doubleToLongBits(score == 0.0 ? 0.0 : score);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    static double scoreOf(byte[] element) {
        long s = ByteBuffer.wrap(element, 0, 8).getLong();
        long bits = s < 0 ? s ^ Long.MIN_VALUE : ~s;
        return Double.longBitsToDouble(bits);
    }

    static byte[] memberOf(byte[] element) {
        return Arrays.copyOfRange(element, 8, element.length);
    }

    private static byte[] concat(byte[] a, byte b) {
        byte[] r = Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }
}
