package io.strata.redis.blocking;

import com.apple.foundationdb.Transaction;
import io.strata.redis.protocol.Reply;

import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/** What a blocking command tries, first when it runs and again each time one of its keys changes. */
@FunctionalInterface
public interface BlockingAttempt {
    /**
     * Serves the command inside {@code tr} if one of its keys can: returns its reply, and its
     * writes commit with {@code tr}. Returns null when none can yet; it must then have written
     * nothing of its own.
     *
     * @param first true on the command's first try, when an error (WRONGTYPE) is its reply;
     *     false on a retry after a key changed, when a source key of another type is passed over
     *     and the client stays blocked, as in Redis (an error a retry still throws, such as
     *     BLMOVE's destination of another type, ends the wait with that error)
     * @param waitedOn the keys on which other clients of this process already wait (on a first
     *     try only; never on a retry): the attempt checks their type but takes nothing from
     *     them, since those clients come first; the command then waits in line behind them
     */
    CompletableFuture<Reply> attempt(Transaction tr, boolean first, Predicate<byte[]> waitedOn);

    /**
     * Whether this command finding nothing leaves the commands behind it in line something to
     * find: false for pops (they all take the same elements), true for stream reads, which
     * wait for different things (IDs, groups) and take nothing from each other.
     */
    default boolean othersMayBeServed() {
        return false;
    }

    /** For a try that is not in line behind anyone (a retry, or a command inside EXEC). */
    Predicate<byte[]> NOBODY = key -> false;
}
