package io.strata.redis.tracking;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * Client-side caching as Redis 7.0's {@code tracking.c} does it: connections turn it on with
 * {@code CLIENT TRACKING}, the keys their read-only commands fetch are remembered in a
 * {@link TrackingTable} (or, in BCAST mode, they subscribe to key prefixes), and when such a
 * key changes they get an invalidation — a RESP3 push {@code invalidate [keys]}, or with
 * {@code REDIRECT} to a RESP2 connection subscribed to anything a message on
 * {@code __redis__:invalidate} — after which the key is no longer tracked for anyone.
 *
 * <h2>When invalidations are sent</h2>
 * The key store reports each key a transaction changes ({@link #listenerFor}) while the
 * transaction runs; nothing is sent then, since the transaction may yet be retried. Once it
 * has committed, {@link #committed} sends what it changed: to the connection that made the
 * change after that command's reply (Redis defers an invalidation meant for the client
 * running the command until its reply is out), to every other one at once. A connection is
 * known as the one running in a transaction through {@link #running}; a NOLOOP connection
 * gets nothing for its own changes. BCAST connections get, per prefix, one message listing
 * every key of that prefix the transaction changed (Redis collects them per event loop
 * cycle). FLUSHDB and FLUSHALL send a null invalidation to every tracking connection and
 * empty the table.
 *
 * <p>Keys are remembered when a command is <em>prepared</em>, before its transaction reads
 * anything ({@link #remember}): a change committed after that point is invalidated, one
 * committed before is already what the command reads, so no change slips between a read and
 * its tracking. A script remembers its declared keys when it calls a read-only command, inside
 * its transaction, as Redis does.
 *
 * <h2>Namespaces</h2>
 * Keys are tracked per keyspace (the key store a connection's commands use), so with
 * {@code --user-namespaces} one user's changes never invalidate another's keys of the same name.
 *
 * <h2>Concurrency</h2>
 * Every table is guarded by this object's monitor; the connections with tracking on are also
 * in a concurrent map so that the check every command makes ({@link #tracking}) takes no lock,
 * and while no connection tracks and no key is tracked ({@code active} false) a key change
 * costs one volatile read. Messages are handed to a session's push sink (which writes on the
 * connection's event loop), never written under the monitor by the caller's thread itself.
 */
public final class ClientTracking {
    /** The channel RESP2 redirection targets receive invalidations on. */
    public static final byte[] CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);

    /**
     * Who made a change: {@code by} the client whose change it is (0 for none: a key found
     * expired), {@code during} the client whose command was running (whose reply the
     * invalidation must follow). A lane runs several clients' commands in one transaction, one
     * after another, so each change is attributed when it is made.
     */
    private record Change(long by, long during) {
    }

    /** Changes of one transaction, in order, and who flushed in it (null: nobody), until it commits. */
    private static final class Pending {
        final Map<TrackingTable.Key, Change> keys = new LinkedHashMap<>();
        Long flushedDuring;
    }

    /** One BCAST prefix of one keyspace. */
    private record Prefix(Object space, ByteBuffer bytes) {
    }

    private final LongFunction<ClientSession> clients;
    private final Map<Long, TrackedClient> tracking = new ConcurrentHashMap<>();
    private final TrackingTable table = new TrackingTable();
    /** BCAST prefixes and the clients of each, in the order they subscribed. */
    private final Map<Prefix, Map<Long, TrackedClient>> prefixes = new LinkedHashMap<>();
    private final Map<Transaction, Pending> pending = new WeakHashMap<>();
    private final Map<Transaction, Long> writers = new WeakHashMap<>();
    private volatile boolean active;

    /** @param clients the open connection with an id, or null when there is none */
    public ClientTracking(LongFunction<ClientSession> clients) {
        this.clients = clients;
    }

    // ------------------------------------------------------------------ CLIENT subcommands

    /**
     * {@code CLIENT TRACKING ON} with {@code options} for {@code session}, whose commands use
     * keyspace {@code space}; Redis's checks and error texts (a redirection target that does
     * not exist, PREFIX without BCAST, switching BCAST or OPTIN/OPTOUT without turning tracking
     * off first, overlapping prefixes).
     */
    public synchronized void enable(ClientSession session, Object space, TrackingOptions options) {
        if (options.redirect() != 0 && clients.apply(options.redirect()) == null) {
            throw new RedisException("ERR The client ID you want redirect to does not exist");
        }
        if (!options.bcast() && !options.prefixes().isEmpty()) {
            throw new RedisException("ERR PREFIX option requires BCAST mode to be enabled");
        }
        TrackedClient c = tracking.get(session.id());
        if (c != null && c.options.bcast() != options.bcast()) {
            throw new RedisException("ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (options.bcast() && (options.optin() || options.optout())) {
            throw new RedisException("ERR OPTIN and OPTOUT are not compatible with BCAST");
        }
        if (options.optin() && options.optout()) {
            throw new RedisException("ERR You can't specify both OPTIN mode and OPTOUT mode");
        }
        if (c != null && ((options.optin() && c.options.optout()) || (options.optout() && c.options.optin()))) {
            throw new RedisException("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                    + "and then re-enabling it with a different mode.");
        }
        if (options.bcast()) {
            checkPrefixes(c, options.prefixes());
        }
        if (c == null) {
            c = new TrackedClient(session, space, options);
            tracking.put(session.id(), c);
        } else {
            c.options = options;
            c.brokenRedirect = false;
        }
        if (options.bcast()) {
            List<byte[]> wanted = options.prefixes().isEmpty() ? List.of(new byte[0]) : options.prefixes();
            for (byte[] p : wanted) {
                ByteBuffer bytes = ByteBuffer.wrap(p.clone());
                prefixes.computeIfAbsent(new Prefix(c.space, bytes), k -> new LinkedHashMap<>()).put(c.id(), c);
                c.prefixes.add(bytes);
            }
        }
        showFlags(c);
        active = true;
    }

    /** Redis's {@code checkPrefixCollisionsOrReply}: no two prefixes of a client may cover the same key. */
    private static void checkPrefixes(TrackedClient c, List<byte[]> given) {
        for (int i = 0; i < given.size(); i++) {
            byte[] p = given.get(i);
            if (c != null) {
                for (ByteBuffer existing : c.prefixes) {
                    byte[] e = bytes(existing);
                    if (overlap(e, p)) {
                        throw new RedisException("ERR Prefix '" + text(p) + "' overlaps with an existing prefix '" + text(e)
                                + "'. Prefixes for a single client must not overlap.");
                    }
                }
            }
            for (int j = i + 1; j < given.size(); j++) {
                if (overlap(p, given.get(j))) {
                    throw new RedisException("ERR Prefix '" + text(p) + "' overlaps with another provided prefix '"
                            + text(given.get(j)) + "'. Prefixes for a single client must not overlap.");
                }
            }
        }
    }

    private static boolean overlap(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** {@code CLIENT TRACKING OFF} (also RESET and a closed connection): the keys it tracked go lazily, as in Redis. */
    public synchronized void disable(ClientSession session) {
        TrackedClient c = tracking.remove(session.id());
        if (c == null) {
            return;
        }
        for (ByteBuffer p : c.prefixes) {
            Prefix key = new Prefix(c.space, p);
            Map<Long, TrackedClient> subscribers = prefixes.get(key);
            if (subscribers != null) {
                subscribers.remove(c.id());
                if (subscribers.isEmpty()) {
                    prefixes.remove(key);
                }
            }
        }
        session.trackingShown("", -1);
        active = !tracking.isEmpty() || !table.isEmpty();
    }

    /** {@code CLIENT CACHING yes|no}: applies to the next command (or the next transaction). */
    public synchronized void caching(ClientSession session, boolean yes) {
        TrackedClient c = tracking.get(session.id());
        if (c == null) {
            throw new RedisException("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN "
                    + "or OPTOUT mode enabled");
        }
        if (yes && !c.options.optin()) {
            throw new RedisException("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
        }
        if (!yes && !c.options.optout()) {
            throw new RedisException("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
        }
        c.caching = true;
    }

    /** {@code CLIENT GETREDIR}: the redirection id, 0 for none, -1 when tracking is off. */
    public long redirection(ClientSession session) {
        TrackedClient c = tracking.get(session.id());
        return c == null ? -1 : c.options.redirect();
    }

    /** {@code CLIENT TRACKINGINFO}: flags, redirect and prefixes, in Redis's words. */
    public synchronized Reply info(ClientSession session) {
        TrackedClient c = tracking.get(session.id());
        List<Reply> flags = new ArrayList<>();
        flags.add(Reply.bulk(c == null ? "off" : "on"));
        if (c != null) {
            TrackingOptions o = c.options;
            if (o.bcast()) {
                flags.add(Reply.bulk("bcast"));
            }
            if (o.optin()) {
                flags.add(Reply.bulk("optin"));
                if (c.caching) {
                    flags.add(Reply.bulk("caching-yes"));
                }
            }
            if (o.optout()) {
                flags.add(Reply.bulk("optout"));
                if (c.caching) {
                    flags.add(Reply.bulk("caching-no"));
                }
            }
            if (o.noloop()) {
                flags.add(Reply.bulk("noloop"));
            }
            if (c.brokenRedirect) {
                flags.add(Reply.bulk("broken_redirect"));
            }
        }
        List<Reply> prefixList = new ArrayList<>();
        if (c != null) {
            for (ByteBuffer p : c.prefixes) {
                prefixList.add(Reply.bulk(bytes(p)));
            }
        }
        return Reply.map(List.of(Reply.bulk("flags"), Reply.set(flags),
                Reply.bulk("redirect"), Reply.integer(c == null ? -1 : c.options.redirect()),
                Reply.bulk("prefixes"), Reply.array(prefixList)));
    }

    /** INFO's {@code tracking_clients}. */
    public int clientCount() {
        return tracking.size();
    }

    /** INFO's {@code tracking_total_keys}. */
    public synchronized long totalKeys() {
        return table.keys();
    }

    /** INFO's {@code tracking_total_items}. */
    public synchronized long totalItems() {
        return table.items();
    }

    /** INFO's {@code tracking_total_prefixes}. */
    public synchronized long totalPrefixes() {
        return prefixes.size();
    }

    // ------------------------------------------------------------------ reads

    /** Whether {@code session} has tracking on and not in BCAST mode: its reads are to be remembered. Lock-free. */
    public boolean tracksReads(ClientSession session) {
        if (!active) {
            return false;
        }
        TrackedClient c = tracking.get(session.id());
        return c != null && !c.options.bcast();
    }

    /** Whether {@code session} has tracking on. Lock-free. */
    public boolean tracking(ClientSession session) {
        return active && tracking.containsKey(session.id());
    }

    /**
     * Remembers that client {@code session} (by id: a script's client counts as its caller)
     * fetched {@code keys} of keyspace {@code space}, unless OPTIN without {@code CLIENT
     * CACHING yes} or OPTOUT after {@code CLIENT CACHING no} says otherwise (Redis's
     * {@code trackingRememberKeys}).
     */
    public synchronized void remember(ClientSession session, Object space, List<byte[]> keys) {
        TrackedClient c = tracking.get(session.id());
        if (c == null || c.options.bcast() || keys.isEmpty()) {
            return;
        }
        if ((c.options.optin() && !c.caching) || (c.options.optout() && c.caching)) {
            return;
        }
        for (byte[] k : keys) {
            table.add(new TrackingTable.Key(space, ByteBuffer.wrap(k.clone())), c.id());
        }
    }

    /**
     * A command of {@code session} other than a CLIENT subcommand has been prepared to run
     * outside MULTI: the {@code CLIENT CACHING} given before it applied to it only.
     */
    public void commandDone(ClientSession session) {
        TrackedClient c = tracking.get(session.id());
        if (c != null && c.caching) {
            synchronized (this) {
                c.caching = false;
            }
        }
    }

    // ------------------------------------------------------------------ changes

    /** {@code session} runs its command in {@code tr} now: the changes made next are its own (NOLOOP, ordering). */
    public void running(Transaction tr, ClientSession session) {
        if (!active) {
            return;
        }
        synchronized (this) {
            writers.put(tr, session.id());
        }
    }

    /** The key store's listener for keyspace {@code space}: records each change until {@link #committed}. */
    public KeyStore.ChangeListener listenerFor(Object space) {
        return new KeyStore.ChangeListener() {
            @Override
            public void changed(Transaction tr, int db, byte[] key) {
                if (!active) {
                    return;
                }
                note(tr, space, key, false);
            }

            @Override
            public void expired(Transaction tr, int db, byte[] key) {
                if (!active) {
                    return;
                }
                note(tr, space, key, true);
            }
        };
    }

    /** Records a change of {@code key} in {@code tr} by the client running there now (by nobody if it {@code expired}). */
    private synchronized void note(Transaction tr, Object space, byte[] key, boolean expired) {
        long during = writers.getOrDefault(tr, 0L);
        pending.computeIfAbsent(tr, t -> new Pending()).keys.put(new TrackingTable.Key(space, ByteBuffer.wrap(key.clone())),
                new Change(expired ? 0 : during, during));
    }

    /** FLUSHDB or FLUSHALL ran in {@code tr}: once it commits, every tracking client hears that all keys are invalid. */
    public void flushed(Transaction tr) {
        if (!active) {
            return;
        }
        synchronized (this) {
            pending.computeIfAbsent(tr, t -> new Pending()).flushedDuring = writers.getOrDefault(tr, 0L);
        }
    }

    /**
     * {@code tr} has committed: sends the invalidations for what it changed. Idempotent (the
     * second call for one transaction finds nothing).
     */
    public void committed(Transaction tr) {
        if (!active || tr == null) {
            return;
        }
        // Messages for a client whose command made the change go after that command's reply
        // (Redis's tracking_pending_keys), the others at once.
        Map<TrackedClient, List<Reply>> deferred = new LinkedHashMap<>();
        synchronized (this) {
            Pending p = pending.remove(tr);
            writers.remove(tr);
            if (p == null) {
                return;
            }
            if (p.flushedDuring != null) {
                for (TrackedClient c : tracking.values()) {
                    deliver(c, Reply.NULL_BULK, c.id() == p.flushedDuring, deferred);
                }
                table.clear();
            }
            Map<Prefix, Map<ByteBuffer, Change>> broadcast = new LinkedHashMap<>();
            for (Map.Entry<TrackingTable.Key, Change> e : p.keys.entrySet()) {
                TrackingTable.Key key = e.getKey();
                Change change = e.getValue();
                collectBroadcast(key, change, broadcast);
                Set<Long> ids = table.remove(key);
                if (ids == null) {
                    continue;
                }
                for (long id : ids) {
                    TrackedClient target = tracking.get(id);
                    if (target == null || target.options.bcast() || (target.options.noloop() && id == change.by())) {
                        continue;
                    }
                    deliver(target, Reply.array(List.of(Reply.bulk(bytes(key.name())))), id == change.during(), deferred);
                }
            }
            sendBroadcasts(broadcast, deferred);
            active = !tracking.isEmpty() || !table.isEmpty();
        }
        for (Map.Entry<TrackedClient, List<Reply>> e : deferred.entrySet()) {
            e.getKey().session.afterReply(() -> {
                synchronized (this) {
                    e.getValue().forEach(keys -> send(e.getKey(), keys));
                }
            });
        }
    }

    /** Sends {@code keys} to {@code c} now, or after its running command's reply when {@code later}. */
    private void deliver(TrackedClient c, Reply keys, boolean later, Map<TrackedClient, List<Reply>> deferred) {
        if (later) {
            deferred.computeIfAbsent(c, k -> new ArrayList<>()).add(keys);
        } else {
            send(c, keys);
        }
    }

    /** Adds {@code key} and who changed it to every BCAST prefix it falls under. */
    private void collectBroadcast(TrackingTable.Key key, Change change, Map<Prefix, Map<ByteBuffer, Change>> out) {
        if (prefixes.isEmpty()) {
            return;
        }
        byte[] name = bytes(key.name());
        for (Prefix p : prefixes.keySet()) {
            if (p.space() == key.space() && startsWith(name, p.bytes())) {
                out.computeIfAbsent(p, k -> new LinkedHashMap<>()).put(key.name(), change);
            }
        }
    }

    /**
     * Redis's {@code trackingBroadcastInvalidationMessages}: one message per prefix, NOLOOP
     * clients' own keys left out; the writer's own message after its reply, as Redis sends
     * them once the event loop's replies are out.
     */
    private void sendBroadcasts(Map<Prefix, Map<ByteBuffer, Change>> broadcast, Map<TrackedClient, List<Reply>> deferred) {
        for (Map.Entry<Prefix, Map<ByteBuffer, Change>> e : broadcast.entrySet()) {
            Map<Long, TrackedClient> subscribers = prefixes.get(e.getKey());
            if (subscribers == null) {
                continue;
            }
            for (TrackedClient c : subscribers.values()) {
                List<Reply> keys = new ArrayList<>();
                boolean itsOwnCommand = false;
                for (Map.Entry<ByteBuffer, Change> k : e.getValue().entrySet()) {
                    if (!(c.options.noloop() && k.getValue().by() == c.id())) {
                        keys.add(Reply.bulk(bytes(k.getKey())));
                        itsOwnCommand |= k.getValue().during() == c.id();
                    }
                }
                if (!keys.isEmpty()) {
                    deliver(c, Reply.array(keys), itsOwnCommand, deferred);
                }
            }
        }
    }

    /**
     * Redis's {@code trackingLimitUsedSlots}: while more than {@code maxKeys} keys are
     * tracked (0: no limit), forgets the oldest, invalidating it for its clients as if it
     * had changed.
     */
    public synchronized void limit(long maxKeys) {
        if (maxKeys <= 0) {
            return;
        }
        while (table.keys() > maxKeys) {
            TrackingTable.Key key = table.oldest();
            for (long id : table.remove(key)) {
                TrackedClient target = tracking.get(id);
                if (target != null && !target.options.bcast()) {
                    send(target, Reply.array(List.of(Reply.bulk(bytes(key.name())))));
                }
            }
        }
        active = !tracking.isEmpty() || !table.isEmpty();
    }

    /**
     * Redis's {@code sendTrackingMessage}: {@code keys} (an array of names, or null for "all")
     * to client {@code c}, or to its redirection target; a target that has gone marks the
     * redirection broken and tells a RESP3 client so.
     */
    private void send(TrackedClient c, Reply keys) {
        ClientSession to = c.session;
        boolean redirected = false;
        if (c.options.redirect() != 0) {
            ClientSession target = clients.apply(c.options.redirect());
            if (target == null) {
                if (!c.brokenRedirect) {
                    c.brokenRedirect = true;
                    showFlags(c);
                }
                if (c.session.protocol() > 2) {
                    c.session.push(List.of(Reply.push(List.of(Reply.bulk("tracking-redir-broken"),
                            Reply.integer(c.options.redirect())))));
                }
                return;
            }
            to = target;
            redirected = true;
        }
        if (to.protocol() > 2) {
            to.push(List.of(Reply.push(List.of(Reply.bulk("invalidate"), keys))));
        } else if (redirected && to.subscribed()) {
            to.push(List.of(Reply.push(List.of(Reply.bulk("message"), Reply.bulk(CHANNEL), keys))));
        }
        // Otherwise a RESP2 connection without redirection: RESP2 has no way to push to it.
    }

    /** CLIENT LIST's tracking flags ({@code t}, {@code R} broken redirection, {@code B} BCAST) and {@code redir}. */
    private static void showFlags(TrackedClient c) {
        c.session.trackingShown("t" + (c.brokenRedirect ? "R" : "") + (c.options.bcast() ? "B" : ""), c.options.redirect());
    }

    private static boolean startsWith(byte[] name, ByteBuffer prefix) {
        int n = prefix.remaining();
        if (name.length < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (name[i] != prefix.get(prefix.position() + i)) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
