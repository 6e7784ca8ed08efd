package io.strata.redis.command;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@code CLIENT PAUSE timeout [WRITE|ALL]} and {@code CLIENT UNPAUSE}, as Redis 7.0's
 * {@code pauseClients}: while a pause lasts, a command that may write (WRITE mode: flagged
 * {@code write} or {@code may_replicate}, an EXEC of such commands, a script that may write) or
 * any command (ALL mode) is held before it runs — after the checks that answer at once, so a
 * wrong number of arguments is still answered — and runs, checked again, when the pause ends.
 * A second pause while one lasts keeps the later end and the stricter mode. Active expiry stops
 * too, as in Redis, so that no key changes while paused.
 *
 * <p>This is a pause of this server process: clients of other processes sharing the database
 * are not held.
 *
 * <p>Concurrency: the state is guarded by this object's monitor; {@link #mode} is a volatile
 * read for the check every command makes. The end is on the server's (injected) clock; a timer
 * of real time looks again when the pause should be over.
 */
public final class ClientPause {
    /** What a pause holds: nothing, commands that may write, everything. Ordered by strictness. */
    public enum Mode { OFF, WRITE, ALL }

    /** How often a pause whose end the clock has not reached yet is looked at again. */
    private static final long RECHECK_MILLIS = 10;

    private final LongSupplier clock;
    private volatile Mode mode = Mode.OFF;
    private long endMillis;
    private CompletableFuture<Void> ended = CompletableFuture.completedFuture(null);
    private volatile java.util.function.Supplier<CompletableFuture<Void>> onResume = () -> CompletableFuture.completedFuture(null);

    /** @param clock the server's clock, in Unix milliseconds */
    public ClientPause(LongSupplier clock) {
        this.clock = clock;
    }

    /** Pauses until {@code timeoutMillis} from now (or a later end already set), in {@code mode} or a stricter one already set. */
    public synchronized void pause(long timeoutMillis, Mode requested) {
        long end = clock.getAsLong() + timeoutMillis;
        if (mode == Mode.OFF) {
            ended = new CompletableFuture<>();
            endMillis = end;
            mode = requested;
        } else {
            endMillis = Math.max(endMillis, end);
            mode = requested.compareTo(mode) > 0 ? requested : mode;
        }
        schedule();
    }

    /**
     * Sets what runs when a pause ends, before the held commands run: active expiry catches
     * up, so that keys that expired meanwhile are gone as Redis's next access would find them.
     */
    public void onResume(java.util.function.Supplier<CompletableFuture<Void>> action) {
        this.onResume = action;
    }

    /** Ends the pause; completes once the resume action has run and the held commands are released. */
    public CompletableFuture<Void> unpause() {
        CompletableFuture<Void> release;
        synchronized (this) {
            if (mode == Mode.OFF) {
                return CompletableFuture.completedFuture(null);
            }
            mode = Mode.OFF;
            release = ended;
        }
        return onResume.get().handle((v, e) -> {
            release.complete(null);
            return null;
        });
    }

    /** Whether anything is paused now (active expiry stops meanwhile). */
    public boolean paused() {
        return mode != Mode.OFF && !endIfOver();
    }

    /**
     * When a command that may write ({@code mayWrite}) or not must wait: the future that
     * completes when the pause ends, or null when it may run now.
     */
    public CompletableFuture<Void> hold(boolean mayWrite) {
        Mode m = mode;
        if (m == Mode.OFF || (m == Mode.WRITE && !mayWrite) || endIfOver()) {
            return null;
        }
        synchronized (this) {
            return mode == Mode.OFF ? null : ended;
        }
    }

    /** Ends the pause if the clock has passed its end; whether it has ended. */
    private boolean endIfOver() {
        synchronized (this) {
            if (mode == Mode.OFF) {
                return true;
            }
            if (clock.getAsLong() < endMillis) {
                return false;
            }
        }
        unpause();
        return true;
    }

    /** Looks again once the pause should be over (Redis's cron does, ten times a second). */
    private void schedule() {
        long wait = Math.max(RECHECK_MILLIS, endMillis - clock.getAsLong());
        CompletableFuture.delayedExecutor(wait, TimeUnit.MILLISECONDS).execute(() -> {
            if (!endIfOver()) {
                synchronized (this) {
                    schedule();
                }
            }
        });
    }
}
