package io.strata.layers.interning;

import com.apple.foundationdb.Transaction;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * IDs made from the committing transaction's versionstamp, so that interning takes no
 * counter at all: the mappings are written with {@code SET_VERSIONSTAMPED_KEY} /
 * {@code SET_VERSIONSTAMPED_VALUE} and the ID is known only once the transaction commits.
 *
 * <h2>From 12 bytes to 64 bits, honestly</h2>
 * A versionstamp is an 8-byte commit version and a 2-byte batch order (several transactions
 * commit in one batch, at one version, FoundationDB's and the engine's alike); the interner
 * adds a 2-byte index per new string of the transaction. Those 96 bits name a mapping
 * uniquely, and that is what the database stores. The uint64 ID is the packing
 * <pre>
 *   id = version &lt;&lt; (orderBits + indexBits) | batchOrder &lt;&lt; indexBits | index
 * </pre>
 * which is injective only while {@code version < 2^(64 - orderBits - indexBits)},
 * {@code batchOrder < 2^orderBits} and {@code index < 2^indexBits}. The defaults (6 order
 * bits, 10 index bits, so 48 version bits) allow 1,024 new strings per transaction, 64
 * transactions per commit batch, and versions up to 2.8e14 (8.9 years of a cluster's life
 * at FoundationDB's 1,000,000 versions per second).
 * <ul>
 *   <li>The index limit is checked before anything is written:
 *       {@link IllegalArgumentException}.</li>
 *   <li>The version and batch order are known only after the commit. A mapping whose stamp
 *       does not fit has <em>no</em> uint64 ID: no reader can ever be told one for it
 *       ({@link StringInterner#find} treats it as absent), and the next interning of that
 *       string replaces it by a new versionstamped mapping. The transaction-level future
 *       fails with {@link UnfitVersionstampException}; the {@code Database}-level methods
 *       intern again, a bounded number of times. On the engine a batch holds at most one
 *       commit per committing thread, so with at most 64 committing threads nothing is ever
 *       replaced; on a busy FoundationDB cluster batches can be larger and replacements
 *       cost a retry each.</li>
 * </ul>
 *
 * <p>Within the transaction that wrote a versionstamped mapping, the mapping cannot be read
 * back: FoundationDB (and the engine) fail such a read with {@code accessed_unreadable}
 * (1036). So intern a string at most once per transaction with versionstamp IDs (duplicates
 * within one batch are merged and are fine).
 *
 * <p>Index uniqueness within a transaction: several {@code intern} calls may run in one
 * transaction, so the indexes are drawn from a per-transaction counter kept here (weakly,
 * by transaction identity). A reused transaction object (after {@code onError}) continues
 * the count: indexes are wasted, never repeated.
 *
 * <p>Cost of that weak map under a bulk load: a young collection that moves a weak entry into
 * the old generation does not treat the entry's key as weak, so a transaction that interned
 * with versionstamps survives into the old generation and leaves only with a full
 * collection. {@link ShardedSequenceAllocator} had the same map and dropped it (its calls
 * need a transaction only while in flight: {@code PerTransactionOrder}); this counter must
 * outlive each call, and the
 * {@code Transaction} interface offers no hook at its end, so the weak map stays.
 */
public final class VersionstampIdAllocator {
    private final int orderBits;
    private final int indexBits;
    private final Map<Transaction, AtomicInteger> nextIndex = Collections.synchronizedMap(new WeakHashMap<>());

    /** The default layout: 48 version bits, 6 batch-order bits, 10 index bits. */
    public VersionstampIdAllocator() {
        this(6, 10);
    }

    public VersionstampIdAllocator(int orderBits, int indexBits) {
        if (orderBits < 0 || orderBits > 16 || indexBits < 0 || indexBits > 16 || orderBits + indexBits > 40) {
            throw new IllegalArgumentException("need orderBits and indexBits in [0, 16]: " + orderBits + "/" + indexBits);
        }
        this.orderBits = orderBits;
        this.indexBits = indexBits;
    }

    public int orderBits() {
        return orderBits;
    }

    public int indexBits() {
        return indexBits;
    }

    /** The most new strings one transaction may intern. */
    public int maxPerTransaction() {
        return 1 << indexBits;
    }

    /** Reserves {@code count} indexes in {@code tr}; throws if the transaction would exceed {@link #maxPerTransaction()}. */
    int reserveIndexes(Transaction tr, int count) {
        AtomicInteger next;
        synchronized (nextIndex) {
            next = nextIndex.computeIfAbsent(tr, t -> new AtomicInteger());
        }
        int first = next.getAndAdd(count);
        if (first + (long) count > maxPerTransaction()) {
            throw new IllegalArgumentException("a transaction may intern at most " + maxPerTransaction()
                    + " new strings with this versionstamp layout (" + orderBits + " order bits, " + indexBits
                    + " index bits); split the batch");
        }
        return first;
    }

    /** Whether the stamp parts fit the packing. */
    boolean fits(long version, int order, int index) {
        int versionBits = 64 - orderBits - indexBits;
        return version >= 0 && (versionBits >= 63 || version < (1L << versionBits))
                && order < (1 << orderBits) && index < (1 << indexBits);
    }

    long pack(long version, int order, int index) {
        return version << (orderBits + indexBits) | (long) order << indexBits | index;
    }

    long version(long id) {
        return id >>> (orderBits + indexBits);
    }

    int order(long id) {
        return (int) ((id >>> indexBits) & ((1L << orderBits) - 1));
    }

    int index(long id) {
        return (int) (id & ((1L << indexBits) - 1));
    }
}
