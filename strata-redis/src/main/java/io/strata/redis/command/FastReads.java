package io.strata.redis.command;

import java.util.List;

/**
 * Which requests a connection's event loop answers itself instead of queueing them on a lane
 * ({@link CommandLanes#runHere}).
 *
 * <h2>Why</h2>
 * A lane saves commits: it gathers many connections' writes into one transaction and one
 * fsync. A read commits nothing, so for a lone read the lane adds only two thread hand-offs —
 * event loop to lane thread and back — each a wake-up and a context switch, more than a point
 * read costs. Answered on the event loop, unpipelined GETs from 50 clients took 11–14 instead
 * of 15–17 µs of server CPU each and ran 12–30% faster (docs/benchmarks.md, section 12).
 *
 * <h2>When</h2>
 * <ul>
 *   <li>The run is one request, and that request is one of Redis's {@code fast} reads
 *       ({@code readonly} and {@code fast}: GET, MGET, EXISTS, HGET, SISMEMBER, ZSCORE, TTL, ...),
 *       O(1) or O(log n), so it holds the loop's other connections no longer than Redis's own
 *       single thread would. A longer read (LRANGE, SMEMBERS, SINTER) still goes to a lane
 *       thread. So does a pipeline: its runs already share the hand-offs, and the lanes run
 *       them beside the one event loop, on the other cores.</li>
 *   <li>The database's reads never wait for a disk: not on the disk storage engine
 *       ({@code ssd}), whose reads may miss its cache and block the thread. In memory they
 *       are CPU only; on a FoundationDB cluster they are asynchronous and hold no thread.</li>
 * </ul>
 * Order is kept: a connection submits its next run only after this one is answered, so its
 * commands still execute in the order sent, and a read's transaction starts after every write
 * acknowledged to anyone, as a lane's does. A read that writes (a {@code keymiss} event)
 * commits as any transaction does, and is answered once committed.
 */
final class FastReads {
    private FastReads() {
    }

    /** Whether {@code run} is answered on the calling thread. */
    static boolean runHere(ServerContext server, List<Invocation> run) {
        return run.size() == 1 && answersHere(server.settings().storage(), run.get(0).spec());
    }

    /** Whether a lone request of {@code spec} is answered on the calling thread, on storage {@code storage} (null: not known). */
    static boolean answersHere(String storage, CommandSpec spec) {
        return !"ssd".equals(storage) && spec.has(CommandFlag.READONLY) && spec.has(CommandFlag.FAST);
    }
}
