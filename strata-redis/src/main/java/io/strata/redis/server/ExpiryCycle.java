package io.strata.redis.server;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ServerStats;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.ScanCursors;
import io.strata.redis.keyspace.WatchRegistry;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Active expiry: removes keys whose time has come without waiting for a client to touch them,
 * as Redis's {@code activeExpireCycle} does (there: random sampling ten times a second; here:
 * the expiry index {@code P 'x' at db key}, read in time order, so due keys go first and
 * nothing is sampled). Also sweeps SCAN cursor records past their retention, and the change
 * stamps of deleted keys once no WATCH can need them ({@link WatchRegistry}).
 *
 * <p>Each tick ({@link #TICK_MILLIS}, Redis's {@code hz 10}) runs transactions of at most
 * {@link #BATCH} index entries until the due entries are done or the tick's time budget
 * ({@link #BUDGET_MILLIS}, a quarter of the tick as in Redis) is spent. For each entry it
 * reads the key's metadata and deletes the key only if its expiry is still the entry's and
 * has passed; an entry whose key is gone or has another expiry is stale (FLUSHDB leaves them;
 * a race may too) and is cleared.
 *
 * <p>Concurrency: the index range is read as a snapshot, so clients setting expiries never
 * conflict with the cycle; each key it acts on is read serializably, so a client changing
 * that key at the same moment conflicts with exactly that batch, which is retried. Several
 * servers sharing a database each run a cycle; they may contend on the same due keys, and
 * the losers retry and find them gone. The index and the metadata live in the database, so
 * a key's expiry survives restarts and is honoured by whichever server runs next.
 *
 * <p>Threads: one daemon thread of its own; {@link #close} stops it and waits for the batch
 * in flight, so the database can be closed after it.
 */
public final class ExpiryCycle implements AutoCloseable {
    static final long TICK_MILLIS = 100;
    static final long BUDGET_MILLIS = 25;
    static final int BATCH = 100;
    /** Dead-stamp index entries cleared per transaction. */
    static final int SWEEP_BATCH = 500;
    /** How often the cursor sweep takes a step (every tenth tick: once a second). */
    private static final int CURSOR_SWEEP_EVERY = 10;
    private static final Logger LOG = Logger.getLogger(ExpiryCycle.class.getName());

    private final Database database;
    private final KeyStore keys;
    private final ScanCursors cursors;
    private final LongSupplier clock;
    private final ServerStats stats;
    private final ScheduledExecutorService thread;
    private volatile boolean active = true;
    private volatile java.util.function.Consumer<Transaction> onCommit = tr -> { };
    private volatile java.util.function.BooleanSupplier paused = () -> false;
    private volatile java.util.function.Supplier<WatchRegistry> watchRegistry = () -> null;
    private volatile java.util.function.LongConsumer passMillis = millis -> { };
    private long ticks;
    private byte[] cursorSweepPosition;

    ExpiryCycle(Database database, KeyStore keys, LongSupplier clock, ServerStats stats) {
        this.database = database;
        this.keys = keys;
        this.cursors = new ScanCursors(keys.keyspace());
        this.clock = clock;
        this.stats = stats;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "strata-redis-expiry");
            t.setDaemon(true);
            return t;
        });
    }

    /** Sets what is told of each batch's transaction once it has committed (client-side caching's invalidations). */
    void onCommit(java.util.function.Consumer<Transaction> hook) {
        this.onCommit = hook;
    }

    /** Sets when active expiry stops for a while (CLIENT PAUSE: no key may change meanwhile). */
    void pausedWhile(java.util.function.BooleanSupplier paused) {
        this.paused = paused;
    }

    /** Sets what is told how long each pass of active expiry took, in milliseconds (the latency monitor's {@code expire-cycle}). */
    void timedTo(java.util.function.LongConsumer passMillis) {
        this.passMillis = passMillis;
    }

    /** Sets where the floor of the WATCHes in force is read, under which deleted keys' stamps are swept. */
    void sweepStampsBelow(java.util.function.Supplier<WatchRegistry> registry) {
        this.watchRegistry = registry;
    }

    /** Runs a tick now, on the expiry thread; completes when it has run. */
    CompletableFuture<Void> runNow() {
        return CompletableFuture.runAsync(this::tick, thread);
    }

    /** Starts ticking. */
    void start() {
        thread.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Turns active expiry on or off (Redis's {@code DEBUG SET-ACTIVE-EXPIRE}); keys still expire lazily. */
    public void setActive(boolean on) {
        active = on;
    }

    public boolean isActive() {
        return active;
    }

    private void tick() {
        if (!active || paused.getAsBoolean()) {
            return;
        }
        try {
            long start = System.nanoTime();
            long deadline = start + TimeUnit.MILLISECONDS.toNanos(BUDGET_MILLIS);
            while (active && expireBatch() == BATCH && System.nanoTime() < deadline) {
                // A full batch: more may be due.
            }
            passMillis.accept(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            while (sweepStamps() == SWEEP_BATCH && System.nanoTime() < deadline) {
                // A full batch: more stamps may be below the floor.
            }
            while (sweepFlushes() && System.nanoTime() < deadline) {
                // More stamps that flushes left may be below the floor.
            }
            if (++ticks % CURSOR_SWEEP_EVERY == 0) {
                sweepCursors();
            }
        } catch (RuntimeException e) {
            // The next tick tries again; a database that is closing ends up here too.
            LOG.log(Level.FINE, "expiry cycle failed", e);
        }
    }

    /** Runs one batch; returns how many index entries it looked at. */
    int expireBatch() {
        long now = clock.getAsLong();
        int[] seen = {0};
        Transaction[] last = new Transaction[1];
        WatchRegistry registry = watchRegistry.get();
        int expired = database.runAsync(tr -> {
            last[0] = tr;
            Keyspace keyspace = keys.keyspace();
            CompletableFuture<Long> floor = registry == null ? CompletableFuture.completedFuture(null)
                    : registry.floor(tr, now).thenCombine(tr.getReadVersion(), Math::min);
            return tr.snapshot().getRange(keyspace.expiredBy(now), BATCH).asList().thenCombine(floor, (entries, f) -> {
                seen[0] = entries.size();
                return expire(tr, keyspace, entries, now, f);
            }).thenCompose(x -> x);
        }).join();
        if (expired > 0) {
            stats.expiredKeys.add(expired);
            onCommit.accept(last[0]);
        }
        return seen[0];
    }

    /**
     * Expires the due keys of {@code entries}; with a WATCH {@code floor} (null: unknown) a
     * key's stamp is cleared rather than moved when no WATCH can need it
     * ({@link KeyStore#deleteUnwatched}), so the sweep has nothing to do for it.
     */
    private CompletableFuture<Integer> expire(Transaction tr, Keyspace keyspace, List<KeyValue> entries, long now, Long floor) {
        int[] expired = {0};
        CompletableFuture<?>[] each = new CompletableFuture<?>[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            byte[] indexKey = entries.get(i).getKey();
            Keyspace.ExpiryEntry entry = keyspace.expiryEntry(indexKey);
            CompletableFuture<byte[]> stamp = floor == null ? CompletableFuture.completedFuture(null)
                    : tr.get(keyspace.stampKey(entry.db(), entry.key()));
            each[i] = keys.getRaw(tr, entry.db(), entry.key()).thenAcceptBoth(stamp, (meta, st) -> {
                if (meta != null && meta.expireAtMillis() == entry.atMillis()) {
                    if (meta.expiredAt(now)) {
                        if (floor == null) {
                            keys.expire(tr, entry.db(), entry.key(), meta);
                        } else {
                            keys.expireUnwatched(tr, entry.db(), entry.key(), meta, st, floor);
                        }
                        synchronized (expired) {
                            expired[0]++;
                        }
                    }
                } else {
                    tr.clear(indexKey);
                }
            });
        }
        return CompletableFuture.allOf(each).thenApply(ignored -> expired[0]);
    }

    /**
     * Clears one batch of deleted keys' change stamps older than every WATCH in force
     * ({@link WatchRegistry}); returns how many dead-stamp index entries it looked at. An entry
     * whose key exists again, or whose stamp has moved on, is only dropped: the stamp is the
     * key's now.
     */
    int sweepStamps() {
        WatchRegistry registry = watchRegistry.get();
        if (registry == null) {
            return 0;
        }
        long now = clock.getAsLong();
        return database.run(tr -> {
            Keyspace keyspace = keys.keyspace();
            // A WATCH reading at version w saw every stamp committed at or before w: those may go.
            long upTo = Math.min(registry.floor(tr, now).join(), tr.getReadVersion().join());
            List<KeyValue> entries = tr.snapshot().getRange(keyspace.deadStampsBefore(upTo + 1), SWEEP_BATCH).asList().join();
            CompletableFuture<?>[] each = new CompletableFuture<?>[entries.size()];
            for (int i = 0; i < entries.size(); i++) {
                byte[] indexKey = entries.get(i).getKey();
                Keyspace.DeadStamp dead = keyspace.deadStamp(indexKey);
                byte[] stampKey = keyspace.stampKey(dead.db(), dead.key());
                each[i] = keys.getRaw(tr, dead.db(), dead.key()).thenCombine(tr.get(stampKey), (meta, stamp) -> {
                    if (meta == null && java.util.Arrays.equals(stamp, dead.stamp())) {
                        tr.clear(stampKey);
                    }
                    tr.clear(indexKey);
                    return null;
                });
            }
            CompletableFuture.allOf(each).join();
            return entries.size();
        });
    }

    /**
     * Clears one batch of the change stamps that flushes left ({@link KeyStore#flush}) once no
     * WATCH can need them; returns whether more may remain. A flush committed at or below the
     * floor lets go of every stamp of its database written at or before it whose key is
     * absent: every WATCH in force read after the flush, so such a key was absent at WATCH
     * too, and a stamp gone from a key absent at WATCH is no change. A stamp written after
     * the flush is a key's later change, and stays.
     *
     * <p>Several flushes of one database waiting together are one sweep, the latest's (it
     * lets go of all that the earlier ones would). A record holds where its sweep goes on. The
     * stamps are read as a snapshot, and each one cleared is added as a read conflict, so a
     * client changing that key meanwhile conflicts with the batch, which is retried, and
     * writes to the rest of the database do not.
     */
    boolean sweepFlushes() {
        WatchRegistry registry = watchRegistry.get();
        if (registry == null) {
            return false;
        }
        long now = clock.getAsLong();
        return database.run(tr -> {
            Keyspace keyspace = keys.keyspace();
            long upTo = Math.min(registry.floor(tr, now).join(), tr.getReadVersion().join());
            List<KeyValue> records = tr.getRange(keyspace.flushesBefore(upTo + 1), SWEEP_BATCH).asList().join();
            java.util.Map<Integer, KeyValue> latest = new java.util.LinkedHashMap<>();
            for (KeyValue record : records) {
                KeyValue earlier = latest.remove(keyspace.flush(record.getKey()).db());
                if (earlier != null) {
                    tr.clear(earlier.getKey());
                }
                latest.put(keyspace.flush(record.getKey()).db(), record);
            }
            int budget = SWEEP_BATCH;
            for (KeyValue record : latest.values()) {
                if (budget == 0) {
                    return true;
                }
                Keyspace.Flush flush = keyspace.flush(record.getKey());
                com.apple.foundationdb.Range all = keyspace.stampRange(flush.db());
                byte[] from = record.getValue().length == 0 ? all.begin : record.getValue();
                List<KeyValue> stamps = tr.snapshot().getRange(from, all.end, budget).asList().join();
                List<CompletableFuture<Void>> clears = new java.util.ArrayList<>();
                for (KeyValue stamp : stamps) {
                    if (java.util.Arrays.compareUnsigned(stamp.getValue(), 0, 10, flush.stamp(), 0, 10) <= 0) {
                        byte[] key = keyspace.keyOfStamp(stamp.getKey());
                        clears.add(keys.getRaw(tr, flush.db(), key).thenAccept(meta -> {
                            if (meta == null) {
                                tr.addReadConflictKey(stamp.getKey());
                                tr.clear(stamp.getKey());
                            }
                        }));
                    }
                }
                CompletableFuture.allOf(clears.toArray(new CompletableFuture[0])).join();
                if (stamps.size() < budget) {
                    tr.clear(record.getKey());
                    budget -= stamps.size();
                } else {
                    byte[] last = stamps.get(stamps.size() - 1).getKey();
                    tr.set(record.getKey(), java.util.Arrays.copyOf(last, last.length + 1));
                    return true;
                }
            }
            return records.size() == SWEEP_BATCH;
        });
    }

    private void sweepCursors() {
        long now = clock.getAsLong();
        ScanCursors.Sweep sweep = database.runAsync(tr -> cursors.expire(tr, now, cursorSweepPosition, BATCH)).join();
        cursorSweepPosition = sweep.resumeAfter();
    }

    @Override
    public void close() {
        active = false;
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
