package io.strata.redis.command;

import com.apple.foundationdb.Database;
import io.strata.redis.blocking.BlockedClients;
import io.strata.redis.keyspace.KeyStore;

import java.util.Collection;
import java.util.function.LongSupplier;

/**
 * What commands reach beyond their connection: the database and its keys, the command
 * table, the settings, the clock, and the other connections.
 */
public interface ServerContext {
    Database database();

    KeyStore keys();

    CommandTable commands();

    /** Runs requests; EXEC uses it to run its queue in one transaction. */
    CommandExecutor executor();

    RedisConfig config();

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

    /** Server-wide counters for INFO. */
    ServerStats stats();
}
