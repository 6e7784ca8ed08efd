package io.strata.redis.command;

import java.util.Collection;

/**
 * When a lane's batch runs on the event loop that read its requests instead of on a lane
 * thread: the event loop then commits it — fsync included — and writes its replies in the
 * same pass, as Redis's single thread does with {@code appendfsync always}.
 *
 * <h2>Why</h2>
 * Unpipelined clients send one write each and wait. On a lane thread, each batch costs two
 * hand-offs (event loop to lane thread, and the replies back), each a wake-up, and puts a third
 * busy thread — beside the event loop and the clients — on the cores. Run by the event loop at
 * the end of the pass that read the requests, the batch holds every write the pass read, and
 * while it fsyncs the next requests gather in the sockets, to be read together in the next
 * pass: one fsync per pass, as Redis batches.
 *
 * <h2>When</h2>
 * All must hold; otherwise the lane's thread runs the batch, as before:
 * <ul>
 *   <li>Every lane the pass started qualifies, and together they hold at most one batch's
 *       requests ({@code CommandLanes.MAX_BATCH_REQUESTS}): their batches then run as one, in
 *       one transaction holding all their lanes, with one fsync — one lane at a time, each
 *       batch would fsync after the other.</li>
 *   <li>Every queued unit is one request (a pipeline's batches are work enough to run beside
 *       the loop, on the other core) whose keys fall in one lane (one spanning lanes may meet
 *       other lanes' batches, and conflict).</li>
 *   <li>Every queued request is a write or a {@code fast} read, and none is larger than
 *       {@link #MAX_REQUEST_BYTES}: what may take long (LRANGE, SMEMBERS, SINTER, KEYS, a large
 *       value) stays off the loop, which serves every other connection; so does PUBLISH, which
 *       waits for every event loop to poll.</li>
 *   <li>The database is Strata's engine with its {@code memory} storage, whose reads are
 *       answered at once: not the {@code ssd} storage, whose reads may wait for the disk, nor a
 *       FoundationDB cluster (storage unknown), whose reads take a network round trip.</li>
 *   <li>No batch holds the lane's lock (a cross-lane batch): the loop does not wait for one.</li>
 * </ul>
 * On the loop the batch has one attempt ({@code retry_limit} 0). If it fails, or if one of its
 * commands waits for anything but the database's answers, each lane's part goes back to the
 * head of its queue and the lane's thread runs it, retries and back-off included: a retry, as
 * far as the commands can tell. Order and atomicity are the lanes' ({@link CommandLanes}): each
 * part is its lane's next batch, run by the same code under the same locks.
 */
final class LoopBatches {
    /** The most argument bytes of a request run on the loop: a large value stays off it. */
    static final int MAX_REQUEST_BYTES = 16 * 1024;

    private LoopBatches() {
    }

    /**
     * Whether a lane holding {@code queued} may run its next batch on the calling event loop,
     * the database being on {@code storage} ({@code memory}, {@code ssd}, or null: not Strata's
     * engine, or not known).
     */
    static boolean runsOnLoop(String storage, Collection<CommandLanes.Unit> queued) {
        if (queued.isEmpty() || !"memory".equals(storage)) {
            return false;
        }
        for (CommandLanes.Unit unit : queued) {
            if (unit.requests.size() != 1 || unit.spansLanes || !light(unit.requests.get(0))) {
                return false;
            }
        }
        return true;
    }

    private static boolean light(Invocation request) {
        CommandSpec spec = request.spec();
        if (!spec.has(CommandFlag.WRITE) && !(spec.has(CommandFlag.READONLY) && spec.has(CommandFlag.FAST))) {
            return false;
        }
        long bytes = 0;
        for (byte[] arg : request.args()) {
            bytes += arg.length;
            if (bytes > MAX_REQUEST_BYTES) {
                return false;
            }
        }
        return true;
    }
}
