package io.strata.redis.blocking;

import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.KeyStore;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Which keys that clients of this process wait on each running transaction has changed, so
 * that once it commits those clients are served before its command answers. Fed by
 * {@link KeyStore}'s change listener; costs a map lookup per change and per command while
 * anyone waits, and nothing otherwise.
 *
 * <p>Concurrency: changes arrive from any thread; the map is synchronized. It is keyed by the
 * transaction object, weakly, so the record of an attempt that failed and was retried (a
 * new transaction object) disappears with it.
 */
final class ChangedKeys implements KeyStore.ChangeListener {
    private final Map<BlockedClients.WaitKey, ?> waitedOn;
    private final Map<Transaction, Set<BlockedClients.WaitKey>> byTransaction = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param waitedOn the keys clients wait on now, readable without locks */
    ChangedKeys(Map<BlockedClients.WaitKey, ?> waitedOn) {
        this.waitedOn = waitedOn;
    }

    @Override
    public void changed(Transaction tr, int db, byte[] key) {
        if (waitedOn.isEmpty()) {
            return;
        }
        BlockedClients.WaitKey k = new BlockedClients.WaitKey(db, ByteBuffer.wrap(key));
        if (waitedOn.containsKey(k)) {
            BlockedClients.WaitKey kept = new BlockedClients.WaitKey(db, ByteBuffer.wrap(key.clone()));
            synchronized (byTransaction) {
                byTransaction.computeIfAbsent(tr, t -> new HashSet<>()).add(kept);
            }
        }
    }

    /**
     * The waited-on keys {@code tr} changed, forgotten now; empty if none. Called after every
     * command: while nobody waits it returns at once (a record left from when someone did goes
     * with its transaction).
     */
    Set<BlockedClients.WaitKey> take(Transaction tr) {
        if (waitedOn.isEmpty()) {
            return Set.of();
        }
        Set<BlockedClients.WaitKey> keys = byTransaction.remove(tr);
        return keys == null ? Set.of() : keys;
    }
}
