package io.strata.redis.server;

import com.apple.foundationdb.Database;
import io.strata.layers.directory.StrataDirectoryLayer;
import io.strata.redis.blocking.BlockedClients;
import io.strata.redis.command.ServerStats;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.keyspace.Keyspace;
import io.strata.redis.keyspace.KeyspaceEvents;
import io.strata.redis.keyspace.LargeValues;
import io.strata.redis.protocol.Reply;
import io.strata.redis.pubsub.PubSub;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One keyspace and everything that works on it: its keys ({@link KeyStore}), the large values
 * staged for it, the clients blocked on its keys, its pub/sub (channels and the keyspace
 * events of its keys) and its active expiry. The server has one, in the directory
 * {@code strata-redis}; with {@code --user-namespaces} every ACL user but {@code default} has
 * one more, in {@code strata-redis/users/<user>} ({@link Namespaces}).
 *
 * <p>Concurrency: built once, then read-only; each part documents its own.
 */
final class Namespace implements AutoCloseable {
    /** The keyspace area of pub/sub's queue and subscription counts. */
    private static final char PUBSUB_AREA = 'p';

    final Keyspace keyspace;
    final PubSub pubsub;
    final KeyspaceEvents events;
    final KeyStore keys;
    final LargeValues largeValues;
    final BlockedClients blocked;
    final ExpiryCycle expiry;

    private Namespace(Database database, Keyspace keyspace, Supplier<CompletableFuture<Void>> inputBarrier,
                      LongSupplier clock, ServerStats stats, Function<Throwable, Reply> errorReplies) {
        this.keyspace = keyspace;
        this.pubsub = PubSub.start(database, keyspace.area(PUBSUB_AREA), inputBarrier);
        this.events = new KeyspaceEvents(pubsub::announce);
        this.keys = new KeyStore(keyspace, events);
        this.largeValues = new LargeValues(database, keyspace);
        this.blocked = new BlockedClients(database, keys, stats, errorReplies);
        this.expiry = new ExpiryCycle(database, keys, clock, stats);
    }

    /**
     * Opens (creating if needed) the namespace in directory {@code path} and starts its active
     * expiry. One directory-layer transaction.
     */
    static Namespace open(Database database, List<String> path, Supplier<CompletableFuture<Void>> inputBarrier,
                          LongSupplier clock, ServerStats stats, Function<Throwable, Reply> errorReplies) {
        Keyspace keyspace = new Keyspace(new StrataDirectoryLayer().createOrOpen(database, path).join());
        Namespace n = new Namespace(database, keyspace, inputBarrier, clock, stats, errorReplies);
        n.expiry.start();
        return n;
    }

    @Override
    public void close() {
        expiry.close();
        pubsub.close();
    }
}
