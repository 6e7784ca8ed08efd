package io.strata.redis.pubsub;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.redis.command.ClientSession;
import io.strata.redis.protocol.Reply;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Publish/subscribe across every server process that shares the database.
 *
 * <p>PUBLISH appends to a queue in the database ({@link MessageLog}); each process runs one
 * {@link MessageReader} that reads the queue in commit order and delivers to its own
 * connections ({@link PubSubHub}). Subscriptions are counted in the database by every
 * process ({@link SubscriptionRegistry}), so PUBLISH answers how many clients — on any
 * process — it reaches, and PUBSUB NUMSUB / CHANNELS / NUMPAT see every process.
 *
 * <h2>What a publish reaches</h2>
 * A subscription receives exactly the messages whose commit falls between its
 * registration's commit and its unregistration's, which are the publishes that counted it.
 * SUBSCRIBE replies once its registration committed, and the connection's messages are held
 * until its confirmation is written, so no message overtakes the confirmation. UNSUBSCRIBE replies
 * once its unregistration committed and the reader has delivered everything committed
 * before it, so nothing of that channel follows the confirmation. RESET and a closed
 * connection stop delivery at once and unregister after; publishes meanwhile may count a
 * client that no longer receives.
 *
 * <p>Latency: a message reaches a subscriber of the same process after its commit, the
 * watch on the tail firing, and one range read.
 *
 * <p>Concurrency: thread-safe; the hub has its lock, the reader its thread.
 */
public final class PubSub implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PubSub.class.getName());

    private final Database db;
    private final byte[] process = new byte[PubSubKeys.PROCESS];
    private final PubSubHub hub = new PubSubHub();
    private final SubscriptionRegistry registry;
    private final MessageLog log;
    private final ReaderLease lease;
    private final MessageReader reader;
    private final Supplier<CompletableFuture<Void>> inputBarrier;
    private volatile boolean closed;

    private PubSub(Database db, Subspace area, Supplier<CompletableFuture<Void>> inputBarrier) {
        this.db = db;
        this.inputBarrier = inputBarrier;
        new SecureRandom().nextBytes(process);
        PubSubKeys keys = new PubSubKeys(area);
        registry = new SubscriptionRegistry(keys);
        log = new MessageLog(keys);
        lease = new ReaderLease(db, keys, registry, process, hub::registeredCounts);
        reader = new MessageReader(db, keys, log, hub, lease);
    }

    /**
     * Starts this process's reader over the queue kept under {@code area}.
     *
     * @param inputBarrier completes once every connection thread has handled the requests
     *     already received when it was called (see {@link #publish})
     */
    public static PubSub start(Database db, Subspace area, Supplier<CompletableFuture<Void>> inputBarrier) {
        PubSub p = new PubSub(db, area, inputBarrier);
        p.reader.start();
        return p;
    }

    /**
     * SUBSCRIBE / PSUBSCRIBE / SSUBSCRIBE: one confirmation per name, after the new ones are
     * registered. A name over {@link SubscriptionRegistry#MAX_NAME} bytes fails the command
     * before anything changes. If registering fails, the connection is left subscribed to what
     * it was before (what did commit, when the names took several transactions, is taken back
     * in the background, as a closed connection's subscriptions are).
     */
    public CompletableFuture<Reply> subscribe(ClientSession session, ChannelKind kind, List<byte[]> names) {
        names.forEach(SubscriptionRegistry::checkName);
        PubSubHub.InFlight change = hub.beginChange();
        PubSubHub.Change c = hub.subscribe(session, kind, names);
        Reply reply = Reply.sequence(c.replies());
        List<Subscription> added = c.subscriptions();
        if (added.isEmpty()) {
            change.end();
            return CompletableFuture.completedFuture(reply);
        }
        List<Counted> done = new ArrayList<>();
        return countInDatabase(added, 1, done).handle((ignored, error) -> {
            session.afterReply(() -> hub.confirmed(session));
            List<Subscription> committed = new ArrayList<>();
            for (Counted run : done) {
                run.subs.forEach(s -> s.registered.complete(true));
                hub.registered(run.subs, run.stamp);
                committed.addAll(run.subs);
            }
            if (error != null) {
                added.forEach(s -> s.registered.complete(false));
                hub.abandon(session, added);
                if (!committed.isEmpty()) {
                    unregisterInBackground(committed, hub.beginChange(), "a failed subscribe");
                }
                change.end();
                throw new CompletionException(error);
            }
            change.end();
            return reply;
        });
    }

    /** UNSUBSCRIBE / PUNSUBSCRIBE / SUNSUBSCRIBE; {@code names} null means all of that kind. */
    public CompletableFuture<Reply> unsubscribe(ClientSession session, ChannelKind kind, List<byte[]> names) {
        PubSubHub.InFlight change = hub.beginChange();
        PubSubHub.Change c = hub.unsubscribe(session, kind, names);
        Reply reply = Reply.sequence(c.replies());
        List<Subscription> removed = c.subscriptions();
        if (removed.isEmpty()) {
            change.end();
            return CompletableFuture.completedFuture(reply);
        }
        List<Counted> done = new ArrayList<>();
        return countInDatabase(removed, -1, done)
                .whenComplete((ignored, error) -> {
                    done.forEach(run -> hub.unregistered(run.subs, run.stamp));
                    change.settled().complete(null);
                    change.committed().complete(null);
                })
                .thenCompose(ignored -> reader.readPast(done.get(done.size() - 1).stamp))
                .handle((ignored, error) -> {
                    hub.unindex(removed);
                    if (error != null) {
                        throw new CompletionException(error);
                    }
                    return reply;
                });
    }

    /** RESET: drops every subscription of {@code session} without confirmations; completes once unregistered. */
    public CompletableFuture<Void> reset(ClientSession session) {
        PubSubHub.InFlight change = hub.beginChange();
        List<Subscription> subs = hub.removeClient(session);
        change.settled().complete(null); // out of the index: their windows no longer matter
        return unregisterWhenRegistered(subs).whenComplete((v, e) -> change.end());
    }

    /** The channels, patterns or shard channels {@code session} is subscribed to (the ACL closes those it no longer allows). */
    public List<byte[]> subscriptions(ClientSession session, ChannelKind kind) {
        return hub.namesOf(session, kind);
    }

    /** A connection closed: stops its deliveries now and unregisters it in the background. */
    public void disconnected(ClientSession session) {
        PubSubHub.InFlight change = hub.beginChange();
        List<Subscription> subs = hub.removeClient(session);
        unregisterInBackground(subs, change, "a closed connection");
    }

    /**
     * Unregisters, in the background and under {@code change}, subscriptions already out of
     * the delivery index (so their windows no longer matter: the change settles at once).
     */
    private void unregisterInBackground(List<Subscription> subs, PubSubHub.InFlight change, String whose) {
        change.settled().complete(null);
        unregisterWhenRegistered(subs).whenComplete((v, e) -> change.end()).exceptionally(e -> {
            LOG.log(System.Logger.Level.WARNING, "pub/sub: unregistering " + whose + " failed: " + e);
            return null;
        });
    }

    /**
     * PUBLISH / SPUBLISH inside {@code tr}: appends the message and answers how many
     * subscriptions it reaches.
     *
     * <p>Having read the counts, it waits for this process's (un)subscriptions under way to
     * commit: one that commits after the counts were read changed a count the publish read,
     * so the publish conflicts and runs again, counting it. A SUBSCRIBE or UNSUBSCRIBE that
     * reached this process before the publish finished reading is therefore counted as Redis,
     * which runs commands one at a time, would count it. Connections are served by several
     * threads, so "reached" needs a barrier: before looking at what is in flight, the publish
     * lets every connection thread handle the input already waiting for it (only when this
     * process has subscribers: no one else can be unsubscribing).
     */
    public CompletableFuture<Long> publish(Transaction tr, ChannelKind kind, byte[] channel, byte[] message) {
        MessageLog.checkSize(channel, message);
        CompletableFuture<Long> receivers = registry.receivers(tr, kind, channel);
        log.append(tr, kind, channel, message);
        return counted(receivers);
    }

    /**
     * As {@link #publish}, for a message too large for {@code tr} that was written before into
     * the object whose keys start with {@code objectPrefix} (a staged large value, as a large
     * string is laid out) and that {@code tr} takes over: the queue owns the object from the
     * commit on, and clears it once every reader has delivered the message.
     */
    public CompletableFuture<Long> publishStored(Transaction tr, ChannelKind kind, byte[] channel, byte[] objectPrefix) {
        CompletableFuture<Long> receivers = registry.receivers(tr, kind, channel);
        log.appendStored(tr, kind, channel, objectPrefix);
        return counted(receivers);
    }

    private CompletableFuture<Long> counted(CompletableFuture<Long> receivers) {
        return receivers.thenCompose(n -> {
            CompletableFuture<Void> barrier = hub.hasSubscriptions() ? inputBarrier.get() : CompletableFuture.completedFuture(null);
            return barrier.thenCompose(ignored -> hub.commitsInFlight()).thenApply(ignored -> n);
        });
    }

    /**
     * A keyspace notification inside {@code tr}: appends the message to the channel's queue
     * as {@link #publish} does, without counting its receivers (no one reads the count), so
     * the command that announces reads nothing more and conflicts with nothing more.
     */
    public void announce(Transaction tr, byte[] channel, byte[] message) {
        log.append(tr, ChannelKind.CHANNEL, channel, message);
    }

    /** PUBSUB CHANNELS / SHARDCHANNELS: names with subscribers, matching {@code pattern} if not null. */
    public CompletableFuture<List<byte[]>> channels(ReadTransaction tr, ChannelKind kind, byte[] pattern) {
        return registry.active(tr, kind, pattern);
    }

    /** PUBSUB NUMSUB / SHARDNUMSUB for one name. */
    public CompletableFuture<Long> subscribers(ReadTransaction tr, ChannelKind kind, byte[] name) {
        return registry.count(tr, kind, name);
    }

    /** Stops the reader and takes this process's subscriptions out of the database's counts. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        reader.stop();
        try {
            lease.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "pub/sub: leaving the readers failed: " + e);
        }
    }

    /** Unregisters subscriptions already out of the delivery index, each once its registration has committed. */
    private CompletableFuture<Void> unregisterWhenRegistered(List<Subscription> subs) {
        if (subs.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<?>[] registrations = subs.stream().map(s -> s.registered).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(registrations).thenCompose(ignored -> {
            List<Subscription> registered = new ArrayList<>();
            for (Subscription s : subs) {
                if (s.registered.join()) {
                    registered.add(s);
                }
            }
            if (registered.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            return countInDatabase(registered, -1, new ArrayList<>());
        });
    }

    /** A run of subscriptions counted in one transaction, and that commit's versionstamp. */
    private record Counted(List<Subscription> subs, byte[] stamp) {
    }

    /**
     * Adds {@code delta} to the database's counts of {@code subs}' names, in as many
     * transactions as their size takes ({@link SubscriptionRegistry#batches}: one, unless they
     * write megabytes), one after the other. Each run that commits is added to {@code done}, in
     * order (so stamps increase), which the caller reads once this completes — also on failure,
     * when it holds the runs that committed before.
     */
    private CompletableFuture<Void> countInDatabase(List<Subscription> subs, long delta, List<Counted> done) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (List<Subscription> run : registry.batches(subs, delta)) {
            chain = chain.thenCompose(ignored -> countRun(run, delta)).thenAccept(stamp -> done.add(new Counted(run, stamp)));
        }
        return chain;
    }

    /**
     * Adds {@code delta} to the counts of one run in one transaction; completes with the
     * versionstamp of the commit. After {@link #close} nothing is written (this process's
     * share is gone already) and the stamp is the largest there is.
     */
    private CompletableFuture<byte[]> countRun(List<Subscription> subs, long delta) {
        if (closed) {
            byte[] last = new byte[PubSubKeys.STAMP];
            Arrays.fill(last, (byte) 0xff);
            return CompletableFuture.completedFuture(last);
        }
        List<ChannelName> names = subs.stream().map(s -> s.name).toList();
        AtomicReference<CompletableFuture<byte[]>> stamp = new AtomicReference<>();
        return db.runAsync(tr -> {
            stamp.set(tr.getVersionstamp());
            return registry.change(tr, process, names, delta);
        }).thenCompose(ignored -> stamp.get());
    }
}
