package io.strata.redis.acl;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;
import io.strata.redis.protocol.RedisException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The server's ACL: its users, the check every request passes, AUTH, the changes ACL
 * SETUSER and DELUSER make, and ACL LOG.
 *
 * <h2>Shared users</h2>
 * Users live in the database ({@link AclStore}); this object holds a {@link Snapshot} of all
 * of them, compiled into {@link Permissions}, read in one transaction together with the ACL
 * version. A change is a transaction that rewrites one user's record from the record it reads
 * (so concurrent SETUSERs of one user from two servers compose, one retried after the other)
 * and bumps the version; the server that made it reloads at once, the others when their
 * watch on the version fires — milliseconds later. AUTH and the ACL commands that read users
 * first compare the stored version with the snapshot's and reload when it moved, so a user
 * created on one server can log in on another right away. Between a change and a watch firing,
 * another server's connections of that user still run with the previous rules: the only
 * staleness, bounded by the watch's delivery.
 *
 * <h2>Effects of a change</h2>
 * When a snapshot replaces an older one, connections of deleted users are closed (after the
 * reply to the DELUSER that deleted them, for its own connection), and subscribers whose
 * channels the new rules no longer allow are closed, as Redis does — on every server, since
 * each applies the same snapshot.
 *
 * <h2>Concurrency</h2>
 * The snapshot is an immutable object behind a volatile field: the per-request check reads it
 * without locks. Installing a snapshot is synchronized and only moves forward in version.
 */
public final class AccessControl implements AutoCloseable {
    /** What the ACL needs of the server's connections. */
    public interface Clients {
        /** The connections of this server. */
        Collection<ClientSession> all();

        /** Closes a connection after its current reply. */
        void kill(ClientSession session);

        /** The connection as CLIENT LIST describes it (for ACL LOG). */
        String describe(ClientSession session, long nowMillis);

        /** The channels, shard channels ({@code patterns == false}) or patterns a connection is subscribed to. */
        default List<byte[]> subscriptions(ClientSession session, boolean patterns) {
            return List.of();
        }
    }

    /** Every user, compiled, at one ACL version. */
    record Snapshot(long version, Map<String, AclUser> users, Map<String, Permissions> permissions) {
        AclUser defaultUser() {
            return users.get(DEFAULT);
        }
    }

    static final String DEFAULT = "default";
    private static final System.Logger LOG = System.getLogger(AccessControl.class.getName());
    private static final Executor RETRY_LATER = CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS);

    private final Database database;
    private final AclStore store;
    private final CommandCatalog catalog;
    private final AclDescriber describer;
    private final AclLog log = new AclLog();
    private final LongSupplier clock;
    private final Clients clients;
    private volatile Snapshot snapshot;
    private volatile long logMaxLength = 128;
    private volatile boolean allChannelsByDefault;
    private volatile boolean closed;
    private volatile CompletableFuture<Void> watch;

    private AccessControl(Database database, Subspace area, CommandTable table, LongSupplier clock, Clients clients) {
        this.database = database;
        this.store = new AclStore(area);
        this.catalog = new CommandCatalog(table);
        this.describer = new AclDescriber(catalog);
        this.clock = clock;
        this.clients = clients;
    }

    /**
     * Loads the users of {@code area} (waiting for it) and starts following changes. A
     * non-null {@code requirepass} becomes the default user's only password first, as Redis's
     * {@code requirepass} does, and is stored so that every server on the database agrees.
     */
    public static AccessControl open(Database database, Subspace area, CommandTable table, LongSupplier clock,
                                     Clients clients, String requirepass) {
        AccessControl acl = new AccessControl(database, area, table, clock, clients);
        if (requirepass != null) {
            acl.setDefaultPassword(requirepass).join();
        }
        acl.install(database.readAsync(acl.store::readAll).join(), null);
        acl.follow();
        return acl;
    }

    // ---------------------------------------------------------------- the per-request check

    /** Whether a connection must authenticate before running commands (Redis's {@code authRequired}). */
    public boolean authRequired(ClientSession session) {
        return !session.authenticated() && !defaultUserOpen();
    }

    /** Whether new connections start authenticated: the default user is on and needs no password. */
    public boolean defaultUserOpen() {
        AclUser d = snapshot.defaultUser();
        return d.enabled && d.nopass;
    }

    /** Null when the session's user may run the request ({@code spec}: the subcommand for a container), else why not. */
    public Denial check(ClientSession session, CommandSpec spec, byte[][] args) {
        Permissions p = snapshot.permissions().get(session.user());
        return p == null ? new Denial(Denial.Reason.COMMAND, 0, spec.name()) : p.check(spec, args);
    }

    /** Whether the session's user may run the request and read any key (SORT's BY and GET need it). */
    public boolean allowsReadingAnyKey(ClientSession session, CommandSpec spec, byte[][] args) {
        Permissions p = snapshot.permissions().get(session.user());
        return p != null && p.allowsReadingAnyKey(spec, args);
    }

    /** Records a denial in ACL LOG ({@code context}: {@code toplevel} or {@code multi}). */
    public void record(ClientSession session, Denial denial, String context, byte[][] args) {
        String object = denial.reason() == Denial.Reason.COMMAND ? denial.command() : AclText.of(args[denial.position()]);
        addLog(session, denial.reason().logName(), context, object, session.user());
    }

    private void addLog(ClientSession session, String reason, String context, String object, String user) {
        long now = clock.getAsLong();
        log.add(reason, context, object, user, now, clients.describe(session, now), logMaxLength);
    }

    // ---------------------------------------------------------------- authentication

    /**
     * AUTH and HELLO's AUTH: checks the user and password against the newest stored users and
     * authenticates the session; a failure is logged and answers WRONGPASS.
     *
     * @param commandName the command as sent (ACL LOG's object for a failed login)
     */
    public CompletableFuture<Void> authenticate(ClientSession session, String user, byte[] password, String commandName) {
        return refresh().thenAccept(snap -> {
            AclUser u = snap.users().get(user);
            if (u == null || !u.enabled || !(u.nopass || hasPassword(u, password))) {
                addLog(session, "auth", session.inMulti() ? "multi" : "toplevel", commandName, user);
                throw new RedisException("WRONGPASS invalid username-password pair or user is disabled.");
            }
            session.authenticate(user);
        });
    }

    private static boolean hasPassword(AclUser u, byte[] password) {
        String hash = Passwords.hash(password);
        boolean found = false;
        for (String p : u.passwords) {
            found |= Passwords.same(p, hash);
        }
        return found;
    }

    /** Whether {@code name} is a user (CLIENT KILL USER), as the current snapshot knows them. */
    public boolean hasUser(String name) {
        return snapshot.users().containsKey(name);
    }

    /** Whether AUTH with only a password has a password to check (else Redis's "without any password configured" error). */
    public boolean defaultUserHasPassword() {
        return !snapshot.defaultUser().nopass;
    }

    // ---------------------------------------------------------------- changes

    /** ACL SETUSER: applies {@code ops} to the stored user (or a new one) and stores the result. */
    public CompletableFuture<Void> setUser(ClientSession caller, String name, List<String> ops) {
        if (AclRules.hasSpaces(name)) {
            throw new RedisException("ERR Usernames can't contain spaces or null characters");
        }
        AclRules rules = rules();
        return database.runAsync(tr -> store.read(tr, name).thenApply(stored -> {
            AclUser base = stored != null ? parse(name, stored) : name.equals(DEFAULT) ? rules.defaultUser() : null;
            AclUser changed;
            try {
                changed = rules.apply(base, name, ops);
            } catch (AclSetUserException e) {
                throw new RedisException("ERR " + e.getMessage());
            }
            store.write(tr, name, describer.describe(changed));
            return null;
        })).thenCompose(ignored -> reload(caller)).thenApply(s -> null);
    }

    /** The default user's password as {@code requirepass} sets it (null: nopass). */
    public CompletableFuture<Void> setDefaultPassword(String password) {
        return setUser(null, DEFAULT, password == null ? List.of("nopass") : List.of("resetpass", ">" + password));
    }

    /** ACL DELUSER: deletes the users that exist and answers how many; their connections are closed. */
    public CompletableFuture<Long> deleteUsers(ClientSession caller, List<String> names) {
        if (names.contains(DEFAULT)) {
            throw new RedisException("ERR The 'default' user cannot be removed");
        }
        return database.runAsync(tr -> {
            CompletableFuture<Long> deleted = CompletableFuture.completedFuture(0L);
            for (String name : names) {
                deleted = deleted.thenCompose(n -> store.read(tr, name).thenApply(rules -> {
                    if (rules == null) {
                        return n;
                    }
                    store.delete(tr, name);
                    return n + 1;
                }));
            }
            return deleted;
        }).thenCompose(n -> reload(caller).thenApply(s -> n));
    }

    // ---------------------------------------------------------------- reading

    /** The newest users: the snapshot, reloaded first when the stored version has moved. */
    public CompletableFuture<Snapshot> refresh() {
        Snapshot current = snapshot;
        return database.readAsync(store::version).thenCompose(v ->
                v == current.version() ? CompletableFuture.completedFuture(current) : reload(null));
    }

    /** The current snapshot without asking the database (WHOAMI, LOG, CAT). */
    Snapshot snapshot() {
        return snapshot;
    }

    CommandCatalog catalog() {
        return catalog;
    }

    AclDescriber describer() {
        return describer;
    }

    AclLog log() {
        return log;
    }

    /** {@code acl-pubsub-default}: whether new users and selectors start with every channel. */
    public void allChannelsByDefault(boolean all) {
        allChannelsByDefault = all;
    }

    public boolean allChannelsByDefault() {
        return allChannelsByDefault;
    }

    /** {@code acllog-max-len}. */
    public void logMaxLength(long max) {
        logMaxLength = max;
    }

    public long logMaxLength() {
        return logMaxLength;
    }

    private AclRules rules() {
        return new AclRules(catalog, allChannelsByDefault);
    }

    // ---------------------------------------------------------------- snapshots

    private CompletableFuture<Snapshot> reload(ClientSession caller) {
        return database.readAsync(store::readAll).thenApply(stored -> install(stored, caller));
    }

    /** Builds and installs the snapshot of {@code stored}, unless a newer one is installed; returns the one in force. */
    private synchronized Snapshot install(AclStore.Stored stored, ClientSession caller) {
        Snapshot old = snapshot;
        if (old != null && stored.version() <= old.version()) {
            return old;
        }
        Map<String, AclUser> users = new TreeMap<>();
        for (Map.Entry<String, String> e : stored.rules().entrySet()) {
            users.put(e.getKey(), parse(e.getKey(), e.getValue()));
        }
        users.computeIfAbsent(DEFAULT, k -> rules().defaultUser());
        Map<String, Permissions> permissions = new HashMap<>();
        users.forEach((name, u) -> permissions.put(name, new Permissions(catalog, u)));
        Snapshot next = new Snapshot(stored.version(), Collections.unmodifiableMap(users), Map.copyOf(permissions));
        snapshot = next;
        if (old != null) {
            disconnectRevoked(next, caller);
        }
        return next;
    }

    /** Closes connections of deleted users, and subscribers whose channels are no longer allowed. */
    private void disconnectRevoked(Snapshot next, ClientSession caller) {
        for (ClientSession s : clients.all()) {
            Permissions p = next.permissions().get(s.user());
            if (p == null) {
                close(s, caller);
            } else if (!p.allowsAllChannels() && !subscriptionsAllowed(s, p)) {
                close(s, caller);
            }
        }
    }

    private boolean subscriptionsAllowed(ClientSession s, Permissions p) {
        for (byte[] pattern : clients.subscriptions(s, true)) {
            if (!p.allowsSubscription(pattern, true)) {
                return false;
            }
        }
        for (byte[] channel : clients.subscriptions(s, false)) {
            if (!p.allowsSubscription(channel, false)) {
                return false;
            }
        }
        return true;
    }

    private void close(ClientSession s, ClientSession caller) {
        s.deauthenticate(false);
        if (s == caller) {
            s.requestClose();
        } else {
            clients.kill(s);
        }
    }

    /**
     * A stored user: its rules applied to a new user. A rule naming a command this server does
     * not have (stored by a server with more commands) is skipped with a warning: it can only
     * concern that command.
     */
    private AclUser parse(String name, String stored) {
        AclRules rules = rules();
        AclUser u = rules.newUser(name);
        List<String> ops;
        try {
            ops = AclRules.mergeSelectors(Arrays.asList(stored.trim().split(" +")));
        } catch (AclSetUserException e) {
            LOG.log(System.Logger.Level.WARNING, "stored ACL user " + name + " is malformed: " + e.getMessage());
            return u;
        }
        for (String op : ops) {
            try {
                rules.applyOne(u, op);
            } catch (AclRuleException e) {
                LOG.log(System.Logger.Level.WARNING, "stored ACL user " + name + ": rule '" + op + "' skipped: " + e.getMessage());
            }
        }
        return u;
    }

    /** Reloads whenever the stored version moves, re-arming a watch set in the same transaction as the read. */
    private void follow() {
        if (closed) {
            return;
        }
        List<CompletableFuture<Void>> watchHolder = new ArrayList<>(1);
        database.runAsync(tr -> store.readAll(tr).thenApply(stored -> {
            watchHolder.clear();
            watchHolder.add(store.watchVersion(tr));
            return stored;
        })).whenComplete((stored, error) -> {
            if (closed) {
                return;
            }
            if (error != null) {
                CompletableFuture.runAsync(this::follow, RETRY_LATER);
                return;
            }
            install(stored, null);
            CompletableFuture<Void> w = watchHolder.get(0);
            watch = w;
            w.whenComplete((v, e) -> {
                if (e == null) {
                    follow();
                } else if (!closed) {
                    CompletableFuture.runAsync(this::follow, RETRY_LATER);
                }
            });
        });
    }

    @Override
    public void close() {
        closed = true;
        CompletableFuture<Void> w = watch;
        if (w != null) {
            w.cancel(false);
        }
    }
}
