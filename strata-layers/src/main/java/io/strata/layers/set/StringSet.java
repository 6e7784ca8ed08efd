package io.strata.layers.set;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.layers.interning.StringInterner;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A set of strings: a {@link RoaringSet} of the IDs a {@link StringInterner} gives them, so
 * that sets of strings get roaring storage and {@link SetAlgebra} (compute on the ID sets,
 * then turn the result back into strings with {@link #strings}).
 *
 * <p><b>Key layout.</b> Nothing of its own: the interner's keys under its subspace and the
 * set's under its own. Many sets share one interner, so a string has one ID in all of them
 * and algebra across them is meaningful.
 *
 * <p><b>Correctness.</b> {@link #add} interns the string and adds its ID in the caller's
 * transaction, so either both happen or neither does, and the set never holds an ID that
 * names no string: the interner's argument (one string, one ID, forever) and the set's
 * (serializable container reads, exact count) each hold, and together they make membership
 * of a string the same as membership of its ID. {@link #remove} and {@link #contains} only
 * {@code find} the string: a string never interned is in no set, and looking it up allocates
 * nothing. Under {@code commit_unknown_result} a retried attempt re-reads both the mapping
 * and the container, so an add that did commit is not counted twice.
 *
 * <p>IDs must be known before commit, so an interner with versionstamp IDs is refused
 * ({@link IllegalArgumentException}): its IDs exist only once the interning transaction has
 * committed, too late to add them to a set in that transaction.
 *
 * <p>Instances are immutable and thread-safe; operations on one transaction must be issued
 * one after the other, as for {@link RoaringSet}.
 */
public final class StringSet {
    private final RoaringSet ids;
    private final StringInterner interner;

    /** A set of strings kept as {@code ids}, a set of the IDs {@code interner} hands out. */
    public StringSet(RoaringSet ids, StringInterner interner) {
        this.ids = Objects.requireNonNull(ids);
        this.interner = Objects.requireNonNull(interner);
        if (interner.idsKnownOnlyAtCommit()) {
            throw new IllegalArgumentException("a StringSet needs an interner whose IDs are known before commit;"
                    + " versionstamp IDs are assigned at commit");
        }
    }

    /** The set of IDs underneath, for {@link SetAlgebra}. */
    public RoaringSet ids() {
        return ids;
    }

    /** The interner that names the members. */
    public StringInterner interner() {
        return interner;
    }

    // ---------------------------------------------------------------- in a transaction

    /** Adds {@code member}, interning it if new; completes with whether it was absent. */
    public CompletableFuture<Boolean> add(Transaction tr, String member) {
        return interner.intern(tr, member).thenCompose(id -> ids.add(tr, id));
    }

    /** Adds every string of {@code members} (one interning batch); completes with how many were absent. */
    public CompletableFuture<Long> addAll(Transaction tr, Collection<String> members) {
        return interner.internAllStrings(tr, members).thenCompose(idArray -> ids.addAll(tr, idArray));
    }

    /** Removes {@code member}; completes with whether it was present. Never interns. */
    public CompletableFuture<Boolean> remove(Transaction tr, String member) {
        return interner.find(tr, member).thenCompose(id -> id.isPresent()
                ? ids.remove(tr, id.getAsLong())
                : CompletableFuture.completedFuture(false));
    }

    /** Whether {@code member} is in the set. Never interns. */
    public CompletableFuture<Boolean> contains(ReadTransaction tr, String member) {
        return interner.find(tr, member).thenCompose(id -> id.isPresent()
                ? ids.contains(tr, id.getAsLong())
                : CompletableFuture.completedFuture(false));
    }

    /** The number of members: one read. */
    public CompletableFuture<Long> cardinality(ReadTransaction tr) {
        return ids.cardinality(tr);
    }

    /** Every member, in the order of their IDs (reads issued together, each reverse block read once). */
    public CompletableFuture<List<String>> toList(ReadTransaction tr) {
        return ids.toBitmap(tr).thenCompose(bitmap -> strings(tr, bitmap));
    }

    /**
     * The strings named by {@code members} (a result of {@link SetAlgebra} over sets of this
     * interner's IDs), in the bitmap's unsigned order; each reverse block is read once
     * ({@link StringInterner#lookupAll}). An ID that names no string is an error
     * ({@link IllegalStateException}): it cannot have come from a set kept through this class.
     */
    public CompletableFuture<List<String>> strings(ReadTransaction tr, Roaring64Bitmap members) {
        long[] order = new long[Math.toIntExact(members.getLongCardinality())];
        int n = 0;
        for (LongIterator it = members.getLongIterator(); it.hasNext(); ) {
            order[n++] = it.next(); // the bitmap's unsigned order
        }
        return interner.lookupAllStrings(tr, order).thenApply(found -> {
            List<String> result = new ArrayList<>(found.size());
            for (int i = 0; i < found.size(); i++) {
                long id = order[i];
                result.add(found.get(i).orElseThrow(() -> new IllegalStateException(
                        "ID " + Long.toUnsignedString(id) + " names no string in this interner")));
            }
            return result;
        });
    }

    // ---------------------------------------------------------------- each in its own transaction, retried

    /** {@link #add(Transaction, String)} in its own transaction, retried. */
    public CompletableFuture<Boolean> add(Database db, String member) {
        return db.runAsync(tr -> add(tr, member));
    }

    /** {@link #addAll(Transaction, Collection)} in its own transaction, retried. */
    public CompletableFuture<Long> addAll(Database db, Collection<String> members) {
        return db.runAsync(tr -> addAll(tr, members));
    }

    /** {@link #remove(Transaction, String)} in its own transaction, retried. */
    public CompletableFuture<Boolean> remove(Database db, String member) {
        return db.runAsync(tr -> remove(tr, member));
    }

    /** {@link #contains(ReadTransaction, String)} in a read-only transaction, retried. */
    public CompletableFuture<Boolean> contains(Database db, String member) {
        return db.readAsync(tr -> contains(tr, member));
    }

    /** {@link #cardinality(ReadTransaction)} in a read-only transaction, retried. */
    public CompletableFuture<Long> cardinality(Database db) {
        return db.readAsync(this::cardinality);
    }

    /** {@link #toList(ReadTransaction)} in a read-only transaction, retried. */
    public CompletableFuture<List<String>> toList(Database db) {
        return db.readAsync(this::toList);
    }

    /** {@link #strings(ReadTransaction, Roaring64Bitmap)} in a read-only transaction, retried. */
    public CompletableFuture<List<String>> strings(Database db, Roaring64Bitmap members) {
        return db.readAsync(tr -> strings(tr, members));
    }
}
