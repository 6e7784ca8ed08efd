package io.strata.redis.server;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The server's namespaces: its own ({@link #main}) and, with {@code --user-namespaces}, one
 * per ACL user but {@code default} — kvdb's multi-tenancy, where each user's keys live in a
 * directory tree of their own:
 * <pre>
 * strata-redis              -&gt; the default user's keyspace (and the ACL users, for everyone)
 * strata-redis/users/NAME   -&gt; user NAME's keyspace, with the same layout ({@code Keyspace})
 * </pre>
 * A connection works in the namespace of the user it is authenticated as, so two users each
 * have their own 16 databases, KEYS, SCAN, DBSIZE and FLUSHALL see only their own keys, and
 * pub/sub channels (keyspace events included) are per namespace too. The default user's
 * keyspace is the one the server uses without the option, so data written before turning it
 * on stays with {@code default}. Deleting a user leaves its keys in place for when it returns.
 *
 * <p>A namespace is opened the first time a connection of its user runs a command in this
 * process (one directory-layer transaction, on that connection's thread), then kept until the
 * server stops. Each open namespace has its own active expiry thread and pub/sub reader, so
 * the option suits a modest number of users per server process.
 *
 * <p>Concurrency: the map is concurrent; a namespace is opened once ({@code computeIfAbsent}).
 */
final class Namespaces implements AutoCloseable {
    static final List<String> USERS = List.of("users");

    private final Namespace main;
    private final boolean perUser;
    private final Function<List<String>, Namespace> opener;
    private final Map<String, Namespace> byUser = new ConcurrentHashMap<>();

    /**
     * @param main    the server's own namespace
     * @param perUser whether users other than default get namespaces of their own
     * @param opener  opens the namespace in a directory path (relative to the server's)
     */
    Namespaces(Namespace main, boolean perUser, Function<List<String>, Namespace> opener) {
        this.main = main;
        this.perUser = perUser;
        this.opener = opener;
    }

    Namespace main() {
        return main;
    }

    boolean perUser() {
        return perUser;
    }

    /** The namespace {@code session} works in now. */
    Namespace of(ClientSession session) {
        String user = session.user();
        if (!perUser || user.equals("default")) {
            return main;
        }
        return byUser.computeIfAbsent(user, u -> {
            List<String> path = new ArrayList<>(USERS);
            path.add(u);
            return opener.apply(path);
        });
    }

    /** Every namespace open now, the server's first. */
    List<Namespace> all() {
        List<Namespace> all = new ArrayList<>(byUser.size() + 1);
        all.add(main);
        all.addAll(byUser.values());
        return all;
    }

    /** Serves the clients of every namespace blocked on keys {@code tr} changed (see {@code BlockedClients}). */
    CompletableFuture<Void> afterCommit(Transaction tr) {
        if (byUser.isEmpty()) {
            return main.blocked.afterCommit(tr);
        }
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Namespace n : all()) {
            all.add(n.blocked.afterCommit(tr));
        }
        return CompletableFuture.allOf(all.toArray(new CompletableFuture[0]));
    }

    /** Tells every namespace's pub/sub that the connection has gone. */
    void disconnected(ClientSession session) {
        for (Namespace n : all()) {
            n.pubsub.disconnected(session);
        }
    }

    /** Stops every namespace's active expiry and pub/sub reader. */
    @Override
    public void close() {
        for (Namespace n : all()) {
            n.close();
        }
    }

    /** Ends every blocked client's wait (after the event loops stopped: nobody is answered any more). */
    void closeBlockedClients() {
        for (Namespace n : all()) {
            n.blocked.close();
        }
    }
}
