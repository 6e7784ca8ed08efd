package io.strata.engine.client;

import io.strata.engine.error.RetryPolicy;

import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code onError}'s arithmetic, as NativeAPI's {@code Transaction::onError}: whether an error
 * may be retried under the retry limit, how long to wait before the next attempt, and how the
 * backoff grows from one attempt to the next.
 *
 * <p>Separate from {@link EngineTransaction} because it is pure policy: the transaction owns
 * the lifecycle (closing itself, handing back a fresh one after the delay); this class only
 * answers questions about numbers. The jitter comes from {@link ThreadLocalRandom}.
 */
final class RetryBackoff {
    /** FoundationDB's initial retry backoff ({@code DEFAULT_BACKOFF}), in milliseconds. */
    static final double INITIAL_BACKOFF_MILLIS = 10;

    private RetryBackoff() {
    }

    /**
     * Whether an error with {@code code} is retried: it must be retryable, and the
     * transaction under its {@code retry_limit} ({@code -1} for none) after {@code retries}
     * earlier retries.
     */
    static boolean shouldRetry(int code, long retryLimit, int retries) {
        boolean retryable = RetryPolicy.isRetryable(code);
        boolean underLimit = retryLimit < 0 || retries < retryLimit;
        return retryable && underLimit;
    }

    /** How long to wait before the next attempt, in microseconds, capped by {@code max_retry_delay}. */
    static long delayMicros(int code, double backoffMillis, double maxDelayMillis) {
        if (code == 1007 || code == 1009) {
            // FoundationDB retries these after a fixed short delay (FUTURE_VERSION_RETRY_DELAY).
            return (long) (Math.min(INITIAL_BACKOFF_MILLIS, maxDelayMillis) * 1_000);
        }
        // Jittered exponential backoff, as NativeAPI's getBackoff: uniform in [0, backoff).
        return (long) (Math.min(backoffMillis, maxDelayMillis) * 1_000 * ThreadLocalRandom.current().nextDouble());
    }

    /** The next attempt's backoff: doubled, but never above {@code max_retry_delay} (nor below 1 µs). */
    static double nextBackoffMillis(double backoffMillis, double maxDelayMillis) {
        return Math.min(backoffMillis * 2, Math.max(maxDelayMillis, 0.001));
    }
}
