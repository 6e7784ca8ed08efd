package io.strata.layers.directory;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The transactions in which a directory layer wrote {@code \xff/metadataVersion}, so that no
 * layer then reads it in them.
 *
 * <h2>Why</h2>
 * After a versionstamped write of the key its value is unknown until commit, so a read of it
 * in the same transaction fails with {@code accessed_unreadable} (1036) — and in FoundationDB a
 * read that failed also fails the commit, with that same 1036: RYW's commit waits for every read
 * issued ({@code ryw->reading} in {@code ReadYourWrites.actor.cpp}) and reports the first
 * failure. Catching the 1036 is therefore not enough; the read must not be made. The Record
 * Layer keeps the same knowledge per transaction ({@code FDBRecordContext}'s
 * {@code dirtyMetaDataVersionStamp}).
 *
 * <h2>What it keeps</h2>
 * Transactions by identity, weakly: only those that changed directory metadata, which are few,
 * so the weak map's cost under garbage collection (see {@code PerTransactionOrder}) stays small.
 * Shared by every layer instance, partitions included, as the key is the database's. A bump
 * made some other way, or a read through {@code tr.snapshot()} of a transaction that bumped
 * through {@code tr}, is not seen here: that read fails, and so does the commit.
 *
 * <p>Thread-safe.
 */
final class MetadataVersionBumps {
    private static final Map<Object, Boolean> BUMPED = Collections.synchronizedMap(new WeakHashMap<>());

    private MetadataVersionBumps() {
    }

    static void record(Object transaction) {
        BUMPED.put(transaction, Boolean.TRUE);
    }

    static boolean bumped(Object transaction) {
        return BUMPED.containsKey(transaction);
    }
}
