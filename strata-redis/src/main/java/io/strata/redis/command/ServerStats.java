package io.strata.redis.command;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters INFO reports; updated by any connection's thread. {@link #reset} is CONFIG
 * RESETSTAT: it zeroes what Redis zeroes (not the uptime, not the connections open).
 */
public final class ServerStats {
    /** Redis keeps at most this many error codes in {@code INFO errorstats}. */
    static final int MAX_ERROR_CODES = 128;

    public final long startedMillis = System.currentTimeMillis();
    public final LongAdder connectionsReceived = new LongAdder();
    public final LongAdder commandsProcessed = new LongAdder();
    public final LongAdder rejectedConnections = new LongAdder();
    public final LongAdder expiredKeys = new LongAdder();
    public final LongAdder evictedKeys = new LongAdder();
    /** Changes committed since the last SAVE ({@code rdb_changes_since_last_save}). */
    public final ChangeCounter changes = new ChangeCounter();
    public final LongAdder keyspaceHits = new LongAdder();
    public final LongAdder keyspaceMisses = new LongAdder();
    public final LongAdder totalErrorReplies = new LongAdder();
    public final LongAdder netInputBytes = new LongAdder();
    public final LongAdder netOutputBytes = new LongAdder();
    /** Lane batches an event loop ran itself ({@code LoopBatches}); not in INFO, which has no such field. */
    public final LongAdder loopBatches = new LongAdder();
    /** Of those, the ones whose attempt there failed or waited, handed back to their lane's thread. */
    public final LongAdder loopBatchesHandedBack = new LongAdder();
    /** Clients waiting in a blocking command; the blocking commands move it. */
    public final AtomicLong blockedClients = new AtomicLong();
    /** Operations and network rates sampled over the last seconds ({@code instantaneous_*}). */
    public final InstantaneousRates rates = new InstantaneousRates(this);
    private final Map<String, CommandStats> commands = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

    /** The counters of command {@code fullName} ({@code set}, {@code config|get}). */
    public CommandStats command(String fullName) {
        return commands.computeIfAbsent(fullName, n -> new CommandStats());
    }

    /** Every command's counters, by full name in order (a copy). */
    public java.util.SortedMap<String, CommandStats> commands() {
        return new java.util.TreeMap<>(commands);
    }

    /** Counts an error reply by its code (the message's first word: {@code ERR}, {@code WRONGTYPE} …). */
    public void error(String message) {
        totalErrorReplies.increment();
        int space = message.indexOf(' ');
        String code = space < 0 ? message : message.substring(0, space);
        LongAdder count = errors.get(code);
        if (count == null) {
            if (errors.size() >= MAX_ERROR_CODES) {
                return;
            }
            count = errors.computeIfAbsent(code, c -> new LongAdder());
        }
        count.increment();
    }

    /** Error reply counts by code. */
    public Map<String, LongAdder> errors() {
        return errors;
    }

    /** CONFIG RESETSTAT. */
    public void reset() {
        connectionsReceived.reset();
        commandsProcessed.reset();
        rejectedConnections.reset();
        expiredKeys.reset();
        evictedKeys.reset();
        keyspaceHits.reset();
        keyspaceMisses.reset();
        totalErrorReplies.reset();
        netInputBytes.reset();
        netOutputBytes.reset();
        commands.clear();
        errors.clear();
    }
}
