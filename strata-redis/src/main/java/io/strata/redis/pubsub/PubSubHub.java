package io.strata.redis.pubsub;

import io.strata.redis.command.ClientSession;
import io.strata.redis.command.GlobPattern;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This process's subscriptions: what each connection subscribes to (for its confirmations'
 * counts and for UNSUBSCRIBE without arguments), and the index the reader delivers by —
 * channel and shard channel by name, patterns in the order first subscribed. Nothing here is
 * in the database; {@link PubSub} keeps the database's counts in step.
 *
 * <h2>Delivery window</h2>
 * A subscription receives the messages stamped strictly between its registration's and its
 * unregistration's commits ({@link Subscription#receives}). The reader reads a batch at some
 * read version, then waits for every registration and unregistration that was {@linkplain
 * #beginChange in flight} to commit before delivering it: those may end on either side of the
 * batch's messages. A change begun after the batch was read commits after every message in
 * it, so a registration still pending is rightly skipped and an unregistration still pending
 * rightly still receives.
 *
 * <h2>No message before its confirmation</h2>
 * From a SUBSCRIBE's start until its confirmation is written ({@link #confirmed}), every
 * message for that connection is held here, in order, and pushed after the confirmation:
 * neither a new channel's messages nor later ones of older channels overtake it.
 *
 * <h2>Publishing after subscribing</h2>
 * A publish waits, before it reads the counts, for the registrations and unregistrations of
 * this process that are {@linkplain #commitsInFlight committing}: a PUBLISH that arrives after a
 * SUBSCRIBE or UNSUBSCRIBE (on any connection of this process) counts and reaches exactly
 * what it would in Redis, even though those commands' own commits are still under way.
 *
 * <p>Concurrency: one lock (this object) guards the maps and the subscriptions' windows;
 * messages are pushed to sessions outside it.
 */
final class PubSubHub {
    private final Map<ClientSession, Map<ChannelName, Subscription>> clients = new HashMap<>();
    private final Map<ChannelName, List<Subscription>> byName = new HashMap<>();
    private final Map<ChannelName, PatternEntry> patterns = new LinkedHashMap<>();
    private final Set<CompletableFuture<Void>> changesInFlight = ConcurrentHashMap.newKeySet();
    private final Set<CompletableFuture<Void>> commitsInFlight = ConcurrentHashMap.newKeySet();
    private final Map<ClientSession, Held> held = new HashMap<>();

    /** Messages held for a connection until the confirmations it waits for are written. */
    private static final class Held {
        int confirmations;
        final List<Reply> messages = new ArrayList<>();
    }

    /** A pattern's bytes (matched against every channel published) and its subscriptions. */
    private record PatternEntry(byte[] pattern, List<Subscription> subscriptions) {
    }

    /** What a (un)subscribe did: the replies to send, in order, and the subscriptions it added or removed. */
    record Change(List<Reply> replies, List<Subscription> subscriptions) {
    }

    /** Subscribes {@code session} to {@code names}; names it already has only get their confirmation. */
    synchronized Change subscribe(ClientSession session, ChannelKind kind, List<byte[]> names) {
        Map<ChannelName, Subscription> mine = clients.computeIfAbsent(session, s -> new LinkedHashMap<>());
        List<Reply> replies = new ArrayList<>(names.size());
        List<Subscription> added = new ArrayList<>();
        int count = count(mine, kind);
        for (byte[] n : names) {
            ChannelName name = ChannelName.of(kind, n);
            if (!mine.containsKey(name)) {
                Subscription s = new Subscription(session, name);
                mine.put(name, s);
                index(s);
                added.add(s);
                count++;
            }
            replies.add(Reply.push(List.of(kind.subscribeWord, Reply.bulk(n), Reply.integer(count))));
        }
        updateCounts(session, mine);
        if (!added.isEmpty()) {
            held.computeIfAbsent(session, x -> new Held()).confirmations++;
        }
        return new Change(replies, added);
    }

    /**
     * Unsubscribes {@code session} from {@code names}, or from every name of {@code kind} if
     * null. The subscriptions stay in the delivery index (leaving) until {@link #unindex}.
     */
    synchronized Change unsubscribe(ClientSession session, ChannelKind kind, List<byte[]> names) {
        Map<ChannelName, Subscription> mine = clients.computeIfAbsent(session, x -> new LinkedHashMap<>());
        List<Reply> replies = new ArrayList<>();
        int count = count(mine, kind);
        List<Subscription> removed = new ArrayList<>();
        if (names == null) {
            names = new ArrayList<>();
            for (ChannelName c : mine.keySet()) {
                if (c.kind() == kind) {
                    names.add(c.bytes());
                }
            }
            if (names.isEmpty()) {
                replies.add(Reply.push(List.of(kind.unsubscribeWord, Reply.NULL_BULK, Reply.integer(count))));
            }
        }
        for (byte[] n : names) {
            Subscription s = mine.remove(ChannelName.of(kind, n));
            if (s != null) {
                s.leave();
                removed.add(s);
                count--;
            }
            replies.add(Reply.push(List.of(kind.unsubscribeWord, Reply.bulk(n), Reply.integer(count))));
        }
        updateCounts(session, mine);
        if (mine.isEmpty()) {
            clients.remove(session);
        }
        return new Change(replies, removed);
    }

    /** Forgets every subscription of {@code session} at once (RESET, disconnect); returns them. */
    synchronized List<Subscription> removeClient(ClientSession session) {
        held.remove(session);
        Map<ChannelName, Subscription> mine = clients.remove(session);
        session.subscriptionCounts(0, 0, 0);
        if (mine == null) {
            return List.of();
        }
        List<Subscription> all = new ArrayList<>(mine.values());
        unindex(all);
        return all;
    }

    /** The names {@code session} is subscribed to with {@code kind} (leaving ones included), in subscription order. */
    synchronized List<byte[]> namesOf(ClientSession session, ChannelKind kind) {
        Map<ChannelName, Subscription> mine = clients.get(session);
        List<byte[]> names = new ArrayList<>();
        if (mine != null) {
            for (ChannelName n : mine.keySet()) {
                if (n.kind() == kind) {
                    names.add(n.bytes());
                }
            }
        }
        return names;
    }

    /** Whether any connection of this process is subscribed to anything. */
    synchronized boolean hasSubscriptions() {
        return !clients.isEmpty();
    }

    /**
     * A SUBSCRIBE's confirmation (or error) has been written: the messages held for its
     * connection since it began go out, unless another SUBSCRIBE still waits for its own.
     */
    void confirmed(ClientSession session) {
        List<Reply> release;
        synchronized (this) {
            Held h = held.get(session);
            if (h == null || --h.confirmations > 0) {
                return;
            }
            held.remove(session);
            release = h.messages;
        }
        if (!release.isEmpty()) {
            push(session, release);
        }
    }

    /** Marks registrations committed at {@code stamp}: from now on they receive what follows it. */
    synchronized void registered(List<Subscription> subs, byte[] stamp) {
        subs.forEach(s -> s.since(stamp));
    }

    /** Marks unregistrations committed at {@code stamp}: they receive nothing stamped after it. */
    synchronized void unregistered(List<Subscription> subs, byte[] stamp) {
        subs.forEach(s -> s.until(stamp));
    }

    /** Takes back subscriptions whose registration failed. */
    synchronized void abandon(ClientSession session, List<Subscription> subs) {
        Map<ChannelName, Subscription> mine = clients.get(session);
        if (mine != null) {
            subs.forEach(s -> mine.remove(s.name, s));
            updateCounts(session, mine);
            if (mine.isEmpty()) {
                clients.remove(session);
            }
        }
        unindex(subs);
    }

    /** Removes subscriptions from the delivery index. */
    synchronized void unindex(List<Subscription> subs) {
        for (Subscription s : subs) {
            if (s.name.kind() == ChannelKind.PATTERN) {
                PatternEntry e = patterns.get(s.name);
                if (e != null && e.subscriptions.remove(s) && e.subscriptions.isEmpty()) {
                    patterns.remove(s.name);
                }
            } else {
                List<Subscription> list = byName.get(s.name);
                if (list != null && list.remove(s) && list.isEmpty()) {
                    byName.remove(s.name);
                }
            }
        }
    }

    /** This process's registered subscriptions per name, as the database should count them. */
    synchronized Map<ChannelName, Long> registeredCounts() {
        Map<ChannelName, Long> counts = new HashMap<>();
        for (Map<ChannelName, Subscription> mine : clients.values()) {
            for (Subscription s : mine.values()) {
                if (s.active()) {
                    counts.merge(s.name, 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    /**
     * A registration or unregistration under way: {@code committed} completes when its
     * transaction has ended (either way: publishes wait for it), {@code settled} when the
     * delivery windows it changes are known (the reader waits for it; a connection's RESET
     * or closing settles at once, its subscriptions being out of the index).
     */
    record InFlight(CompletableFuture<Void> committed, CompletableFuture<Void> settled) {
        /** Ends a change that turned out to have nothing to commit, or has committed and settled. */
        void end() {
            committed.complete(null);
            settled.complete(null);
        }
    }

    /**
     * Announces a registration or unregistration — before the subscriptions change here, so
     * that a publish never sees them changed without the change in flight.
     */
    InFlight beginChange() {
        InFlight f = new InFlight(new CompletableFuture<>(), new CompletableFuture<>());
        track(commitsInFlight, f.committed);
        track(changesInFlight, f.settled);
        return f;
    }

    private static void track(Set<CompletableFuture<Void>> set, CompletableFuture<Void> f) {
        set.add(f);
        f.whenComplete((v, e) -> set.remove(f));
    }

    /** Completes when the changes settling now have settled (the reader waits for them before delivering what it read). */
    CompletableFuture<Void> changesInFlight() {
        return CompletableFuture.allOf(changesInFlight.toArray(new CompletableFuture[0]));
    }

    /** Completes when the changes committing now have committed (or failed): a publish waits for them. */
    CompletableFuture<Void> commitsInFlight() {
        return CompletableFuture.allOf(commitsInFlight.toArray(new CompletableFuture[0]));
    }

    /** Delivers messages, in order, to every subscription whose window holds them. */
    void deliver(List<MessageLog.Message> messages) {
        Map<ClientSession, List<Reply>> out = new LinkedHashMap<>();
        synchronized (this) {
            for (MessageLog.Message m : messages) {
                Reply channel = Reply.bulk(m.channel());
                Reply body = Reply.bulk(m.message());
                Reply direct = null;
                for (Subscription s : byName.getOrDefault(ChannelName.of(m.kind(), m.channel()), List.of())) {
                    if (s.receives(m.stamp())) {
                        if (direct == null) {
                            direct = Reply.push(List.of(m.kind().messageWord, channel, body));
                        }
                        queueFor(out, s.session).add(direct);
                    }
                }
                if (m.kind() != ChannelKind.CHANNEL) {
                    continue;
                }
                for (PatternEntry e : patterns.values()) {
                    if (!GlobPattern.matches(e.pattern, m.channel())) {
                        continue;
                    }
                    Reply viaPattern = null;
                    for (Subscription s : e.subscriptions) {
                        if (s.receives(m.stamp())) {
                            if (viaPattern == null) {
                                viaPattern = Reply.push(List.of(ChannelKind.PATTERN.messageWord, Reply.bulk(e.pattern), channel, body));
                            }
                            queueFor(out, s.session).add(viaPattern);
                        }
                    }
                }
            }
        }
        out.forEach(PubSubHub::push);
    }

    /** Where a message for {@code session} goes: its held messages while it awaits a confirmation. */
    private List<Reply> queueFor(Map<ClientSession, List<Reply>> out, ClientSession session) {
        Held h = held.get(session);
        return h != null ? h.messages : out.computeIfAbsent(session, x -> new ArrayList<>());
    }

    private static void push(ClientSession session, List<Reply> messages) {
        try {
            session.push(messages);
        } catch (RuntimeException e) {
            // A connection going away (its event loop refuses tasks) must not stop the others' messages.
        }
    }

    private void index(Subscription s) {
        if (s.name.kind() == ChannelKind.PATTERN) {
            patterns.computeIfAbsent(s.name, n -> new PatternEntry(n.bytes(), new ArrayList<>())).subscriptions.add(s);
        } else {
            byName.computeIfAbsent(s.name, n -> new ArrayList<>()).add(s);
        }
    }

    /** Redis's count in confirmations: channels + patterns, or shard channels alone. */
    private static int count(Map<ChannelName, Subscription> mine, ChannelKind kind) {
        int n = 0;
        for (ChannelName c : mine.keySet()) {
            if ((kind == ChannelKind.SHARD) == (c.kind() == ChannelKind.SHARD)) {
                n++;
            }
        }
        return n;
    }

    private static void updateCounts(ClientSession session, Map<ChannelName, Subscription> mine) {
        int[] n = new int[ChannelKind.values().length];
        for (ChannelName c : mine.keySet()) {
            n[c.kind().ordinal()]++;
        }
        session.subscriptionCounts(n[ChannelKind.CHANNEL.ordinal()], n[ChannelKind.PATTERN.ordinal()], n[ChannelKind.SHARD.ordinal()]);
    }
}
