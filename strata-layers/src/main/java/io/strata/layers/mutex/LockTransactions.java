package io.strata.layers.mutex;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;

import java.util.function.Function;

/**
 * {@code db.run} for the transactions of the locks in this package, with a short retry
 * backoff. FoundationDB backs off a conflicted transaction by a random delay below 10 ms,
 * doubling on each retry, to spare a contended cluster. A lock's transactions are tiny and
 * their conflicts are momentary and expected (an enqueue racing the release that must see
 * it); with the default backoff, that wait was the whole 99th percentile of the hand-off in
 * {@code strata bench mutex} (2 contenders: about 10 ms, almost all of it in conflicted
 * releases).
 */
final class LockTransactions {
    /**
     * The cap on the backoff between attempts ({@code max_retry_delay}), in milliseconds:
     * retries stay randomized (below 1 ms) so that colliding clients still spread out.
     */
    static final long MAX_RETRY_DELAY_MILLIS = 1;

    private LockTransactions() {}

    /** Runs {@code body} in {@code db.run}, each attempt with the short backoff. */
    static <T> T run(Database db, Function<? super Transaction, T> body) {
        return db.run(tr -> {
            tr.options().setMaxRetryDelay(MAX_RETRY_DELAY_MILLIS);
            return body.apply(tr);
        });
    }
}
