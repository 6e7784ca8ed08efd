package io.strata.redis.pubsub;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import io.strata.redis.keyspace.LargeValues;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one reader of the queue in this process: a thread that reads the messages published
 * since its cursor, in key (= commit) order, and hands them to the {@link PubSubHub}; then
 * waits for the tail key to change (a FoundationDB watch, set in the same transaction that
 * found nothing more to read, so no publish slips between) or to be woken.
 *
 * <p>Every message is delivered once: the cursor only moves forward, past what was delivered.
 * A pass that reads less than a full batch at read version {@code R} has delivered
 * everything committed at or before {@code R}; {@link #readPast} waits for such a pass
 * (UNSUBSCRIBE uses it so that what was published before it is on the wire before its
 * confirmation). Between passes the thread beats and sweeps ({@link ReaderLease}).
 *
 * <p>Concurrency: the cursor is the thread's own; {@link #readPast} requests and the wake-up
 * future are guarded by {@code this}.
 */
final class MessageReader {
    /** Queue rows per pass: more than the parts of the largest message (so a pass always progresses). */
    static final int BATCH_ROWS = 256;
    /** How long a pass waits for (un)subscriptions in flight before delivering anyway. */
    private static final long CHANGE_WAIT_MILLIS = 10_000;
    private static final System.Logger LOG = System.getLogger(MessageReader.class.getName());

    private final Database db;
    private final PubSubKeys keys;
    private final MessageLog log;
    private final PubSubHub hub;
    private final ReaderLease lease;
    private final Thread thread;
    private volatile boolean running = true;
    private byte[] cursor;
    private long readThrough = -1;
    private final List<Waiter> waiters = new ArrayList<>();
    private CompletableFuture<Void> wake = new CompletableFuture<>();

    private record Waiter(long version, CompletableFuture<Void> done) {
    }

    MessageReader(Database db, PubSubKeys keys, MessageLog log, PubSubHub hub, ReaderLease lease) {
        this.db = db;
        this.keys = keys;
        this.log = log;
        this.hub = hub;
        this.lease = lease;
        this.thread = new Thread(this::run, "strata-redis-pubsub-reader");
        thread.setDaemon(true);
    }

    /** Registers the reader (it starts after the queue's last entry) and starts its thread. */
    void start() {
        cursor = lease.open();
        thread.start();
    }

    /**
     * Completes once every message stamped before {@code stamp} (a committed versionstamp) has
     * been handed to the subscribers' connections.
     */
    synchronized CompletableFuture<Void> readPast(byte[] stamp) {
        long version = PubSubKeys.commitVersion(stamp);
        if (!running || readThrough >= version) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiters.add(new Waiter(version, done));
        wake.complete(null);
        return done;
    }

    /** Stops the thread, waiting a little for its pass to end, and releases every waiter. */
    void stop() {
        running = false;
        synchronized (this) {
            wake.complete(null);
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        caughtUp(Long.MAX_VALUE);
    }

    private void run() {
        long nextBeat = 0;
        while (running) {
            try {
                long now = System.nanoTime() / 1_000_000;
                if (now >= nextBeat) {
                    lease.beat(cursor);
                    lease.sweep();
                    nextBeat = now + ReaderLease.BEAT_MILLIS;
                }
                CompletableFuture<Void> woken;
                synchronized (this) {
                    if (wake.isDone()) {
                        wake = new CompletableFuture<>();
                    }
                    woken = wake;
                }
                pass(woken, nextBeat);
            } catch (RuntimeException e) {
                if (!running) {
                    break;
                }
                LOG.log(System.Logger.Level.WARNING, "pub/sub reader: " + e + "; retrying");
                pause(100);
            }
        }
    }

    /** Reads and delivers one batch; if it was the last, waits for the tail to move, a wake-up or the next beat. */
    private void pass(CompletableFuture<Void> woken, long nextBeat) {
        long readVersion;
        List<KeyValue> rows;
        boolean full;
        CompletableFuture<Void> watch;
        // The transaction ends with its commit, not after the wait below: the watch outlives
        // it (it is the database's from the commit on), and an open transaction would keep
        // every version since its read version in memory (MvccWindow.OPEN_TRANSACTIONS).
        try (Transaction tr = db.createTransaction()) {
            readVersion = tr.getReadVersion().join();
            byte[] begin = cursor == null ? keys.queueRange().begin : PubSubKeys.concat(cursor, (byte) 0);
            rows = tr.getRange(begin, keys.queueRange().end, BATCH_ROWS).asList().join();
            full = rows.size() == BATCH_ROWS;
            watch = full ? null : tr.watch(keys.tail());
            tr.commit().join();
        }
        List<MessageLog.Message> decoded = log.decode(rows);
        List<MessageLog.Message> messages = readStored(decoded);
        awaitChangesInFlight();
        hub.deliver(messages);
        if (!decoded.isEmpty()) {
            cursor = decoded.get(decoded.size() - 1).lastKey();
        }
        if (full) {
            return;
        }
        caughtUp(readVersion);
        long wait = nextBeat - System.nanoTime() / 1_000_000;
        try {
            CompletableFuture.anyOf(watch, woken).get(Math.max(wait, 1), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // time to beat
        } catch (ExecutionException e) {
            // the watch failed (too many watches, a closing database): poll instead
            pause(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            watch.cancel(true);
        }
    }

    /**
     * The messages with those stored apart read from their objects, over as many transactions
     * as they take. An object stays until every reader's cursor is past its entry, so it is
     * there; one that is not (the database was changed by hand) is skipped with a warning.
     */
    private List<MessageLog.Message> readStored(List<MessageLog.Message> messages) {
        List<MessageLog.Message> out = messages;
        for (int i = 0; i < messages.size(); i++) {
            MessageLog.Message m = messages.get(i);
            if (m.storedAt() == null) {
                continue;
            }
            if (out == messages) {
                out = new ArrayList<>(messages);
            }
            byte[] body = LargeValues.readObject(db, m.storedAt()).join();
            if (body == null) {
                LOG.log(System.Logger.Level.WARNING, "pub/sub reader: a large message's object is missing; skipping it");
                out.set(i, null);
            } else {
                out.set(i, m.withMessage(body));
            }
        }
        if (out != messages) {
            out.removeIf(java.util.Objects::isNull);
        }
        return out;
    }

    private void awaitChangesInFlight() {
        try {
            hub.changesInFlight().get(CHANGE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "pub/sub reader: subscriptions still in flight after "
                    + CHANGE_WAIT_MILLIS + " ms; delivering without them");
        } catch (ExecutionException e) {
            // a failed change has been taken back; nothing to wait for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void caughtUp(long version) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
            readThrough = Math.max(readThrough, version);
            waiters.removeIf(w -> {
                if (w.version <= readThrough) {
                    done.add(w.done);
                    return true;
                }
                return false;
            });
        }
        done.forEach(f -> f.complete(null));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
