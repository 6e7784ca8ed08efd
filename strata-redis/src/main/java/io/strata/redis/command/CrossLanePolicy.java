package io.strata.redis.command;

/**
 * Where a unit whose keys fall in several lanes runs: optimistically in the lane of its first
 * key, in parallel with the other lanes, while batches rarely conflict; in the cross-lane lane,
 * holding every lane it touches, once they often do.
 *
 * <h2>Why both</h2>
 * Measured with redis-benchmark, 50 clients, 100,000 random keys. A pipeline of 16 SETs spans
 * most lanes, but most lanes' batches hold a few units, so concurrent batches seldom share a
 * key (2–3% of batches retry, about a quarter of the requests), and parallel lanes beat one
 * cross-lane thread, which stops every lane it touches while it runs: 78k SETs a second
 * against 60k. An MSET of ten random keys, pipelined 16 deep, puts about a thousand keys in a
 * batch: 15–20% of batches retry, more than half of the requests, some of them again and
 * again; throughput halves and the p99 reaches a second. One batch at a time in the
 * cross-lane lane, they do not conflict.
 *
 * <h2>How it decides</h2>
 * While optimistic, it keeps a moving average of the fraction of requests whose batch had to
 * retry (weighted by requests, because the batches that conflict are the big ones; weight
 * {@link #WEIGHT} for the newest batch; starting from {@link #PRIOR_REQUESTS} requests that did
 * not). Above {@link #TOO_MANY_RETRIES} it turns exclusive for the next
 * {@link #EXCLUSIVE_BATCHES} batches of any lane, then tries optimism again from the start.
 * Retries with other causes (a hot key shared with EXEC or a blocking pop) count too; that
 * only sends cross-lane units to the one place where they cannot add to the conflicts.
 *
 * <p>Concurrency: {@link #ended} is called by every lane after each batch and is synchronized
 * (a few thousand calls a second); the averages and {@code exclusiveLeft} are guarded by
 * this object's monitor. {@code exclusive} is volatile and read without the lock at each
 * submission: a stale read only sends one unit to the other place, which is just as correct.
 */
final class CrossLanePolicy {
    /** Weight of the newest batch in the moving average of retries. */
    static final double WEIGHT = 1.0 / 32;
    /** The fraction of requests in batches that retried beyond which cross-lane units run exclusively. */
    static final double TOO_MANY_RETRIES = 0.4;
    /**
     * Requests counted as committed at once when the average starts: a few first batches that
     * retry must not, alone, make up the whole average.
     */
    static final double PRIOR_REQUESTS = 1_000;
    /** Batches (of any lane) run before optimism is tried again. */
    static final int EXCLUSIVE_BATCHES = 256;

    private volatile boolean exclusive;
    private double retriedRequests; // guarded by this
    private double allRequests = PRIOR_REQUESTS; // guarded by this
    private int exclusiveLeft; // guarded by this

    /** Whether cross-lane units should now run in the cross-lane lane. */
    boolean exclusive() {
        return exclusive;
    }

    /** A batch of {@code requests} ended after {@code attempts} attempts (1: it committed, or failed for good, at once). */
    synchronized void ended(int attempts, int requests) {
        if (exclusive) {
            if (--exclusiveLeft <= 0) {
                exclusive = false;
                retriedRequests = 0;
                allRequests = PRIOR_REQUESTS;
            }
            return;
        }
        retriedRequests = retriedRequests * (1 - WEIGHT) + (attempts > 1 ? requests : 0);
        allRequests = allRequests * (1 - WEIGHT) + requests;
        if (retriedRequests > TOO_MANY_RETRIES * allRequests) {
            exclusive = true;
            exclusiveLeft = EXCLUSIVE_BATCHES;
        }
    }
}
