package io.strata.redis.command;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.redis.blocking.BlockedClients;
import io.strata.redis.acl.AccessControl;
import io.strata.redis.config.ServerSettings;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.pubsub.PubSub;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * What commands reach beyond their connection: the database and its keys, the command
 * table, the settings, the clock, and the other connections.
 */
public interface ServerContext {
    /**
     * What {@code session}'s commands see: this, or with {@code --user-namespaces} the same
     * server with the keys, blocked clients and pub/sub of the session's user.
     */
    default ServerContext forSession(ClientSession session) {
        return this;
    }

    /**
     * Once {@code tr} has committed: serves the clients of this process blocked on keys it
     * changed, in every namespace; completes when they are served.
     */
    CompletableFuture<Void> afterCommit(Transaction tr);

    Database database();

    /**
     * Where lanes run their batches, each blocking on its commit: the server's lane threads,
     * reached through whatever the server puts in front of them (the server holds the
     * requests of one event-loop pass until the pass ends, so that a lane starts once for all
     * of them). Not the database's executor: a lane blocks while its commit runs.
     */
    java.util.concurrent.Executor laneExecutor();

    /**
     * Whether the database refuses writes because it is full — past {@code maxmemory} where
     * whoever opened it lets that govern its limit ({@code RedisServer.applyMaxmemoryTo}):
     * commands flagged {@code denyoom} are then rejected with Redis's OOM error before they
     * run. False when unknown (the database still refuses a write that would not fit).
     */
    default boolean databaseFull() {
        return false;
    }

    /**
     * Before a command that may add data, as Redis's {@code performEvictions}: null when the
     * data is under {@code maxmemory} or the policy evicts nothing; else a round of evictions,
     * completing with false when nothing was left to evict. Never blocks.
     */
    default CompletableFuture<Boolean> makeRoom() {
        return null;
    }

    /** What the data takes as {@code maxmemory} measures it (INFO's {@code used_memory_dataset}); -1 when the database cannot tell. */
    default long datasetBytes() {
        return -1;
    }

    KeyStore keys();

    /** Where this process holds the floor of its WATCHes, under which deleted keys' stamps are swept. */
    io.strata.redis.keyspace.WatchRegistry watchRegistry();

    /** String values too large for one transaction, staged before their command runs. */
    LargeValues largeValues();

    CommandTable commands();

    /** Runs requests; EXEC uses it to run its queue in one transaction. */
    CommandExecutor executor();

    /** The settings the server acts on, as they are now (CONFIG SET changes them). */
    RedisConfig config();

    /** Every configuration parameter, for CONFIG GET/SET and INFO. */
    ServerSettings settings();

    /** Unix milliseconds; injected so that expiry is testable. */
    LongSupplier clock();

    /** The connections open now. */
    Collection<ClientSession> clients();

    /** Closes connection {@code id} after its current reply; false if there is none. */
    boolean kill(long id);

    /** Begins a clean shutdown (SHUTDOWN). */
    void shutdown();

    /** The clients of this process waiting in blocking commands (BLPOP and the like). */
    BlockedClients blocked();
    /** Users, permissions and the ACL log. */
    AccessControl acl();
    /** Publish/subscribe, shared with every process on the database. */
    PubSub pubsub();

    /** Server-wide counters for INFO. */
    ServerStats stats();

    /** The slow log. */
    SlowLog slowlog();

    /** The latency monitor (LATENCY LATEST, HISTORY …). */
    LatencyMonitor latency();

    /** When keys were last accessed by this process's commands, for OBJECT IDLETIME. */
    AccessClock accessClock();

    /** The connections in MONITOR mode. */
    MonitorFeed monitors();

    /** Puts connection {@code session} in MONITOR mode: every other client's commands are sent to it. */
    void monitor(ClientSession session);

    /** Lua scripting: the script cache and the scripts running now (BUSY, SCRIPT KILL). */
    io.strata.redis.scripting.Scripts scripts();

    /** CLIENT PAUSE: whether commands are held now. */
    ClientPause pause();

    /** Client-side caching (CLIENT TRACKING): who caches which keys, and their invalidations. */
    io.strata.redis.tracking.ClientTracking tracking();

    /** The server's 40-character random id for this run ({@code run_id} in INFO). */
    String runId();
}
