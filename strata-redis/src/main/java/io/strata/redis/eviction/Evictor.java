package io.strata.redis.eviction;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.AccessClock;
import io.strata.redis.command.ServerStats;
import io.strata.redis.config.NotifyKeyspaceEvents;
import io.strata.redis.keyspace.KeyMeta;
import io.strata.redis.keyspace.KeySizes;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.WatchRegistry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps the data under {@code maxmemory} by deleting keys as {@code maxmemory-policy} says,
 * as Redis's {@code performEvictions} does before a command: a command that finds the data
 * past the limit waits for a round of evictions ({@link #makeRoom}), which goes on until the
 * data is a hundredth below the limit (so that the next commands do not each start a round of
 * their own: an eviction here is a durable transaction, not a free), then runs (or, when
 * nothing could be evicted, a command that may add data gets the OOM error). A round starts
 * in the background, no command waiting, once the data is within half that hundredth of the
 * limit.
 *
 * <p><b>What counts.</b> The database's own estimate ({@link DatabaseMemory#usedBytes}), less
 * what keys evicted since its last settled version took ({@link KeySizes}): a database that
 * keeps recent versions for its readers (Strata's engine: five seconds) frees a deleted
 * key's bytes only later, and without this the evictor would go on deleting keys whose space
 * is already on its way back. An estimate too high or too low corrects itself once those
 * versions settle: the gauge then shows what is really left.
 *
 * <p><b>Each eviction</b> deletes the key as DEL does — its metadata, elements and expiry
 * entry; its change stamp cleared when no WATCH in force can need it, else moved so that
 * WATCH sees the change ({@code KeyStore.deleteUnwatched}) — publishes the {@code evicted}
 * keyspace event, invalidates it for client-side caching and counts it in INFO's
 * {@code evicted_keys}. Keys are evicted one transaction at a time, up to
 * {@value #KEYS_PER_TRANSACTION} keys or until enough is freed.
 *
 * <p>Where the database cannot tell its size (a FoundationDB cluster, Strata's disk engine),
 * nothing is evicted.
 *
 * <p>Concurrency: rounds run on the evictor's one thread ({@code strata-redis-eviction}), one
 * at a time; a write arriving during a round waits for that round. Each key is read
 * serializably before it is deleted, so a client writing it at the same moment conflicts with
 * exactly that transaction, which is retried with fresh choices. Servers sharing a database
 * each evict; they may choose the same key, and the loser's retry finds it gone. The pending
 * evictions are guarded by this object; the settings are volatile.
 */
public final class Evictor implements AutoCloseable {
    /** Keys deleted in one transaction at most. */
    static final int KEYS_PER_TRANSACTION = 256;
    /** A round evicts until the data is this fraction ({@code 1/n}) of maxmemory below it. */
    static final long HEADROOM_DIVISOR = 100;
    /** A round returns after this long if it evicted something, so that waiting writes re-check. */
    private static final long ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final Logger LOG = Logger.getLogger(Evictor.class.getName());

    private final Database database;
    private final Supplier<? extends Collection<KeyStore>> keyStores;
    private final LongSupplier clock;
    private final ServerStats stats;
    private final Consumer<Transaction> committed;
    private final EvictionCandidates candidates;
    /** Where the floor of the WATCHes in force is read; null until the server has opened it. */
    private final Supplier<WatchRegistry> watchRegistry;
    private final ExecutorService thread;

    private volatile DatabaseMemory memory;
    private volatile long maxmemory;
    private volatile EvictionPolicy policy = EvictionPolicy.NOEVICTION;
    private volatile int samples = 5;

    /** Evictions whose bytes the gauge may still count: {commit version, bytes}, oldest first. Guarded by {@code this}. */
    private final ArrayDeque<long[]> pending = new ArrayDeque<>();
    private volatile java.util.function.LongConsumer roundMillis = millis -> { };
    /** The sum of {@link #pending}'s bytes. Guarded by {@code this}. */
    private long pendingBytes;
    /** Whether the last round ended past the limit with nothing left to evict. */
    private volatile boolean lastRoundFailed;
    /** The round running or last run. Guarded by {@code this}. */
    private CompletableFuture<Boolean> round;

    /**
     * @param keyStores every keyspace the server serves (with {@code --user-namespaces}, one per user)
     * @param committed told of each evicting transaction once it has committed (client-side caching)
     */
    public Evictor(Database database, Supplier<? extends Collection<KeyStore>> keyStores, AccessClock accessClock,
                   LongSupplier clock, ServerStats stats, Consumer<Transaction> committed,
                   Supplier<WatchRegistry> watchRegistry) {
        this.database = database;
        this.watchRegistry = watchRegistry;
        this.keyStores = keyStores;
        this.clock = clock;
        this.stats = stats;
        this.committed = committed;
        this.candidates = new EvictionCandidates(accessClock);
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "strata-redis-eviction");
            t.setDaemon(true);
            return t;
        });
    }

    /** The database's gauge; until set, nothing is evicted. */
    public void measureWith(DatabaseMemory memory) {
        this.memory = memory;
    }

    /** The settings: {@code maxmemory} (0: none), {@code maxmemory-policy}, {@code maxmemory-samples}. */
    public void configure(long maxmemory, EvictionPolicy policy, int samples) {
        if (policy != this.policy) {
            thread.execute(candidates::clear);
        }
        this.maxmemory = maxmemory;
        this.policy = policy;
        this.samples = samples;
    }

    /**
     * What the data takes as {@code maxmemory} measures it: the gauge less the pending
     * evictions; -1 when there is no gauge or it cannot tell.
     */
    public long usedBytes() {
        DatabaseMemory m = memory;
        if (m == null) {
            return -1;
        }
        long gauge = m.usedBytes();
        if (gauge < 0) {
            return -1;
        }
        long settled = m.settledVersion();
        synchronized (this) {
            while (!pending.isEmpty() && pending.peekFirst()[0] <= settled) {
                pendingBytes -= pending.pollFirst()[1];
            }
            return gauge - pendingBytes;
        }
    }

    /** Whether the data is past {@code maxmemory} and the policy evicts. */
    private boolean overLimit() {
        long max = maxmemory;
        return max > 0 && policy.evicts() && usedBytes() > max;
    }

    /**
     * Whether writes are refused now (Redis's {@code pre_command_oom_state}): the database is
     * past its own limit (under {@code noeviction}, {@code maxmemory}), or past
     * {@code maxmemory} under a policy that evicts after a round found nothing to evict.
     * Otherwise commands past {@code maxmemory} wait for evictions ({@link #makeRoom}).
     */
    public boolean full() {
        DatabaseMemory m = memory;
        return m != null && (m.full() || (lastRoundFailed && overLimit()));
    }

    /**
     * Before a command: null when there is room (or the policy does not evict); else a round
     * of evictions to wait for, completing with false when nothing was left to evict. Within
     * half the headroom of the limit, a round starts in the background and the command does
     * not wait, so that under a steady stream of writes the evictor keeps ahead of them.
     * Any thread; never blocks.
     */
    public CompletableFuture<Boolean> makeRoom() {
        long max = maxmemory;
        if (max <= 0 || !policy.evicts()) {
            return null;
        }
        long used = usedBytes();
        if (used <= max - max / HEADROOM_DIVISOR / 2) {
            return null;
        }
        synchronized (this) {
            if (used <= max) {
                // Close to the limit: a round starts in the background, and the command goes on.
                if (round == null || round.isDone()) {
                    round = startRound();
                }
                return null;
            }
            if (round == null || round.isDone()) {
                round = startRound();
            }
            return round;
        }
    }

    /** A round on the evictor's thread. Called holding this object's lock. */
    private CompletableFuture<Boolean> startRound() {
        return CompletableFuture.supplyAsync(this::runRound, thread).exceptionally(e -> {
            // A database closing ends up here too; the writes waiting get the OOM error.
            LOG.log(Level.WARNING, "eviction failed", e);
            return false;
        });
    }

    /** Evicts until the data is under the limit; false when it is not and nothing could be evicted. */
    private boolean runRound() {
        long start = System.nanoTime();
        boolean enough = evictUntilUnder();
        lastRoundFailed = !enough;
        roundMillis.accept(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return enough;
    }

    /** Sets what is told how long each round of eviction took, in milliseconds (the latency monitor's {@code eviction-cycle}). */
    public void timedTo(java.util.function.LongConsumer roundMillis) {
        this.roundMillis = roundMillis;
    }

    private boolean evictUntilUnder() {
        long deadline = System.nanoTime() + ROUND_NANOS;
        boolean evictedAny = false;
        while (true) {
            // Down to a hundredth below the limit: a round then frees a batch, not one key per command.
            long excess = usedBytes() - (maxmemory - maxmemory / HEADROOM_DIVISOR);
            if (!policy.evicts() || maxmemory <= 0 || excess <= 0) {
                return true;
            }
            if (evictedAny && System.nanoTime() > deadline) {
                return true;
            }
            if (evictSome(excess) == 0) {
                return false;
            }
            evictedAny = true;
        }
    }

    /** One transaction: evicts keys until about {@code excess} bytes are freed; returns how many. */
    private int evictSome(long excess) {
        EvictionPolicy p = policy;
        int n = samples;
        long freed = 0;
        int evicted = 0;
        long version;
        // Its own retry loop, not Database.run: the commit version is read before the transaction closes.
        Transaction tr = database.createTransaction();
        try {
            while (true) {
                try {
                    freed = 0;
                    evicted = 0;
                    long now = clock.getAsLong();
                    WatchRegistry registry = watchRegistry.get();
                    // Under the oldest WATCH in force, a victim's stamp can be cleared, not left to the sweep.
                    long floor = registry == null ? Long.MIN_VALUE
                            : Math.min(registry.floor(tr, now).join(), tr.getReadVersion().join());
                    List<EvictionCandidates.Source> sources = sources(tr.snapshot(), p);
                    for (int tried = 0; tried < KEYS_PER_TRANSACTION * 4 && evicted < KEYS_PER_TRANSACTION && freed < excess; tried++) {
                        EvictionCandidates.Candidate c = candidates.next(tr.snapshot(), p, n, sources, now);
                        if (c == null) {
                            break;
                        }
                        CompletableFuture<byte[]> stamp = tr.get(c.keys().keyspace().stampKey(c.db(), c.key()));
                        KeyMeta meta = c.keys().getRaw(tr, c.db(), c.key()).join();
                        if (meta == null || (p.volatileOnly() && !meta.hasExpiry())) {
                            continue;
                        }
                        freed += KeySizes.of(tr, c.keys(), c.db(), c.key(), meta).join();
                        c.keys().deleteUnwatched(tr, c.db(), c.key(), meta, stamp.join(), floor);
                        c.keys().events().publish(tr, NotifyKeyspaceEvents.EVICTED, "evicted", c.db(), c.key());
                        evicted++;
                    }
                    tr.commit().join();
                    version = tr.getCommittedVersion();
                    break;
                } catch (CompletionException e) {
                    tr = tr.onError(e.getCause()).join();
                }
            }
        } finally {
            tr.close();
        }
        if (evicted > 0) {
            synchronized (this) {
                pending.addLast(new long[] {version, freed});
                pendingBytes += freed;
            }
            stats.evictedKeys.add(evicted);
            committed.accept(tr);
        }
        return evicted;
    }

    /** The databases keys may be chosen from: those with keys (with an expiry, for a volatile policy; then one per keyspace). */
    private List<EvictionCandidates.Source> sources(ReadTransaction snap, EvictionPolicy p) {
        List<EvictionCandidates.Source> out = new ArrayList<>();
        for (KeyStore keys : keyStores.get()) {
            long expires = 0;
            for (Map.Entry<Integer, long[]> e : keys.counts(snap).join().entrySet()) {
                if (p.volatileOnly()) {
                    expires += e.getValue()[1];
                } else if (e.getValue()[0] > 0) {
                    out.add(new EvictionCandidates.Source(keys, e.getKey(), e.getValue()[0]));
                }
            }
            if (expires > 0) {
                out.add(new EvictionCandidates.Source(keys, 0, expires));
            }
        }
        return out;
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
