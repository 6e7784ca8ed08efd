package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import java.util.function.ObjLongConsumer;

/**
 * The grant one lock client believes it holds, as its running {@link Heartbeat}: shared by
 * {@link DistributedMutex} and {@link DistributedSemaphore}. At most one heartbeat runs per
 * client; a new grant stops the previous one's. What the client believes is only a hint: every
 * decision re-reads the grant in the transaction that acts on it (a {@link Fence}).
 *
 * <p>Thread-safe: {@link #release}, {@link #isConfirmed} and {@link #close} may race an
 * acquisition; a heartbeat stopped twice or left to find its grant gone is harmless
 * ({@link Heartbeat}).
 */
final class HeldGrant {
    /** Whether {@code token} is still the client's grant, read serializably in {@code tr}. */
    interface Fence {
        CompletableFuture<Boolean> holds(ReadTransaction tr, long token);
    }

    private final ScheduledExecutorService scheduler;
    private final Duration heartbeatInterval;
    /** The heartbeat of our current grant, null while we hold nothing (as far as we know). */
    private final AtomicReference<Heartbeat> held = new AtomicReference<>();

    HeldGrant(ScheduledExecutorService scheduler, Duration heartbeatInterval) {
        this.scheduler = Objects.requireNonNull(scheduler);
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            throw new IllegalArgumentException("heartbeat interval must be positive, got " + heartbeatInterval);
        }
        this.heartbeatInterval = heartbeatInterval;
    }

    /** The heartbeat of the current grant, null while we hold nothing (as far as we know). */
    Heartbeat heartbeat() {
        return held.get();
    }

    /**
     * Records a grant we learnt of and starts its heartbeat, made by {@code heartbeat}; a grant
     * we already hold (an acquire that found the lock ours) keeps its running heartbeat.
     */
    void granted(long token, LongFunction<Heartbeat> heartbeat) {
        Heartbeat current = held.get();
        if (current == null || current.token() != token) {
            Heartbeat beat = heartbeat.apply(token);
            Heartbeat previous = held.getAndSet(beat);
            if (previous != null) {
                previous.stop();
            }
            beat.start(scheduler, heartbeatInterval);
        }
    }

    /**
     * Releases the grant we last acquired, in one transaction: if {@code fence} finds it still
     * ours, {@code handOn} gives it up (with the grant's token) in the same transaction; a
     * no-op when it was already lost or released. Stops the heartbeat.
     */
    void release(Database db, Fence fence, ObjLongConsumer<Transaction> handOn) {
        Heartbeat beat = held.get();
        if (beat == null) {
            return;
        }
        long token = beat.token();
        LockTransactions.run(db, tr -> {
            if (fence.holds(tr, token).join()) {
                handOn.accept(tr, token);
            }
            return null;
        });
        beat.stop();
        held.compareAndSet(beat, null);
    }

    /** Whether the database still records the grant we last acquired, by {@code fence} (one read). */
    boolean isConfirmed(Database db, Fence fence) {
        Heartbeat beat = held.get();
        if (beat == null) {
            return false;
        }
        return db.read(tr -> fence.holds(tr, beat.token()).join());
    }

    /** Stops heartbeating without releasing. */
    void close() {
        Heartbeat beat = held.getAndSet(null);
        if (beat != null) {
            beat.stop();
        }
    }
}
