package io.strata.redis.pubsub;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * This process's place among the readers of the queue, and the queue's trimming.
 *
 * <p>Each process keeps a record {@code Q 'r' process -> beat[8] ++ cursor} ({@link
 * PubSubKeys}): every {@link #BEAT_MILLIS} it writes a new beat and the queue key it has
 * delivered through. Every process also sweeps:
 * <ul>
 * <li><b>Trim rule.</b> Queue entries before the smallest cursor of the live readers are
 *     cleared — every live reader has delivered them. A reader that has not read anything
 *     yet (empty cursor) holds everything. A reader that registers later starts after the
 *     queue's last entry, and its subscriptions only take messages committed after them,
 *     so it needs nothing a trim may take (the records are read as a snapshot for that
 *     reason: a new reader is not a conflict). Trimming a large message's entry also clears
 *     the object it is stored in ({@link MessageLog#appendStored}).</li>
 * <li><b>Leases.</b> A record whose value has not changed for {@link #LEASE_MILLIS} of the
 *     sweeper's own clock (no clock is compared across machines) belongs to a dead process:
 *     the sweeper removes it and that process's share of the subscription counts, in a
 *     transaction that reads the record again without snapshot, so a beat landing meanwhile
 *     makes it conflict and the process survives.</li>
 * </ul>
 * <b>Bound.</b> A message is dropped unread only by a process that stops beating for the
 * lease (10 s: a stall that long, or a partition). Such a process, when it beats again, finds
 * its record gone: it writes it again and {@linkplain SubscriptionRegistry#reconcile makes
 * its share of the counts} what its subscriptions are; what was trimmed meanwhile it never
 * delivers.
 *
 * <p>Concurrency: used by the reader's thread only (and {@link #close} after it stopped).
 */
final class ReaderLease {
    static final long BEAT_MILLIS = 1_000;
    static final long LEASE_MILLIS = 10_000;
    private static final System.Logger LOG = System.getLogger(ReaderLease.class.getName());

    private final Database db;
    private final PubSubKeys keys;
    private final SubscriptionRegistry registry;
    private final byte[] process;
    private final Supplier<Map<ChannelName, Long>> localCounts;
    private final long leaseMillis;
    private final Map<ByteBuffer, Observation> seen = new HashMap<>();
    private long beats;
    private byte[] trimmedTo;

    /** A record's value and since when (this process's monotonic clock) it has not changed. */
    private record Observation(byte[] value, long sinceMillis) {
    }

    ReaderLease(Database db, PubSubKeys keys, SubscriptionRegistry registry, byte[] process,
                Supplier<Map<ChannelName, Long>> localCounts) {
        this(db, keys, registry, process, localCounts, LEASE_MILLIS);
    }

    /** As above with another lease (tests). */
    ReaderLease(Database db, PubSubKeys keys, SubscriptionRegistry registry, byte[] process,
                Supplier<Map<ChannelName, Long>> localCounts, long leaseMillis) {
        this.leaseMillis = leaseMillis;
        this.db = db;
        this.keys = keys;
        this.registry = registry;
        this.process = process.clone();
        this.localCounts = localCounts;
    }

    /**
     * Registers this reader, in the same transaction that finds where it starts: after the
     * queue's last entry. Returns that entry's key, or null if the queue is empty.
     */
    byte[] open() {
        return db.run(tr -> {
            List<KeyValue> last = tr.getRange(keys.queueRange(), 1, true).asList().join();
            byte[] cursor = last.isEmpty() ? null : last.get(0).getKey();
            tr.set(keys.readerKey(process), record(0, cursor));
            return cursor;
        });
    }

    /** Writes a new beat with the cursor; re-registers if a sweeper took this process for dead. */
    void beat(byte[] cursor) {
        long beat = beats + 1;
        db.run(tr -> {
            if (tr.get(keys.readerKey(process)).join() == null) {
                LOG.log(System.Logger.Level.WARNING, "pub/sub: this process was taken for dead (silent for a lease); "
                        + "registering its subscriptions again");
                registry.reconcile(tr, process, localCounts.get()).join();
            }
            tr.set(keys.readerKey(process), record(beat, cursor));
            return null;
        });
        beats = beat;
    }

    /** Reaps readers whose lease ran out and trims what every live reader has delivered. */
    void sweep() {
        long now = System.nanoTime() / 1_000_000;
        byte[] trimmed = db.run(tr -> {
            List<KeyValue> rows = tr.snapshot().getRange(keys.readerRange()).asList().join();
            Set<ByteBuffer> present = new HashSet<>();
            byte[] min = null;
            boolean holdAll = false;
            for (KeyValue kv : rows) {
                byte[] other = keys.processOfReader(kv.getKey());
                ByteBuffer id = ByteBuffer.wrap(other);
                present.add(id);
                Observation o = seen.get(id);
                if (o == null || !Arrays.equals(o.value, kv.getValue())) {
                    seen.put(id, new Observation(kv.getValue(), now));
                } else if (now - o.sinceMillis > leaseMillis && !Arrays.equals(other, process)) {
                    if (Arrays.equals(tr.get(kv.getKey()).join(), kv.getValue())) {
                        LOG.log(System.Logger.Level.INFO, "pub/sub: removing a reader silent for " + leaseMillis + " ms");
                        registry.removeProcess(tr, other).join();
                        tr.clear(kv.getKey());
                        continue;
                    }
                }
                byte[] cursor = Arrays.copyOfRange(kv.getValue(), 8, kv.getValue().length);
                if (cursor.length == 0) {
                    holdAll = true;
                } else if (min == null || Arrays.compareUnsigned(cursor, min) < 0) {
                    min = cursor;
                }
            }
            seen.keySet().retainAll(present);
            if (!holdAll && min != null && (trimmedTo == null || !Arrays.equals(min, trimmedTo))) {
                tr.clear(new Range(keys.queueRange().begin, keys.queueKey(min)));
                clearStoredBefore(tr, min);
                return min;
            }
            return null;
        });
        if (trimmed != null) {
            trimmedTo = trimmed;
        }
    }

    /** Clears the objects of the stored messages whose entries come before queue entry {@code suffix}, and their keys. */
    private void clearStoredBefore(Transaction tr, byte[] suffix) {
        Range before = keys.storedBefore(suffix);
        for (KeyValue kv : tr.getRange(before).asList().join()) {
            tr.clear(Range.startsWith(kv.getValue()));
        }
        tr.clear(before);
    }

    /** Leaves: removes this process's record and its share of the counts (a clean shutdown). */
    void close() {
        db.run(tr -> {
            registry.removeProcess(tr, process).join();
            tr.clear(keys.readerKey(process));
            return null;
        });
    }

    private byte[] record(long beat, byte[] cursor) {
        byte[] suffix = cursor == null ? new byte[0] : keys.entrySuffix(cursor);
        return ByteBuffer.allocate(8 + suffix.length).putLong(beat).put(suffix).array();
    }
}
