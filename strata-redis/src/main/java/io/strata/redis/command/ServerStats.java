package io.strata.redis.command;

import java.util.concurrent.atomic.LongAdder;

/** Counters INFO reports; updated by any connection's thread. */
public final class ServerStats {
    public final long startedMillis = System.currentTimeMillis();
    public final LongAdder connectionsReceived = new LongAdder();
    public final LongAdder commandsProcessed = new LongAdder();
    public final LongAdder rejectedConnections = new LongAdder();
    public final LongAdder expiredKeys = new LongAdder();
    public final LongAdder keyspaceHits = new LongAdder();
    public final LongAdder keyspaceMisses = new LongAdder();
    public final LongAdder totalErrorReplies = new LongAdder();
    public final LongAdder netInputBytes = new LongAdder();
    public final LongAdder netOutputBytes = new LongAdder();
    /** Clients waiting in a blocking command now (INFO's {@code blocked_clients}): a gauge, not a counter. */
    public final LongAdder blockedClients = new LongAdder();
}
