package io.strata.redis.command;

import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What a connection carries between its requests: the selected database, the protocol,
 * who is authenticated, its name, and its MULTI queue and watched keys.
 *
 * <p>Concurrency: a session is used by one request at a time — the server executes a
 * connection's requests in order, each after the previous one's reply — and requests may
 * run on different threads one after another (the event loop, then the database's callback
 * thread); the hand-off between them is through a task queue, which orders the accesses.
 * Fields read by other connections ({@code CLIENT LIST}, {@code CLIENT KILL}) are volatile.
 *
 * <h2>Reaching the connection</h2>
 * Pub/sub needs to write to a connection at any time, not only as a reply: the connection
 * installs a {@linkplain #pushTo sink} that writes pushed messages on its event loop, in the
 * order they were pushed, between or beside replies. A command that must act only once its
 * reply is on the wire (SUBSCRIBE: no message may overtake its confirmation) registers an
 * {@linkplain #afterReply after-reply action}, which the connection runs right after writing
 * that reply. Both are synchronized: a push comes from the pub/sub reader's thread.
 */
public final class ClientSession {
    private final long id;
    private final String address;
    private final String localAddress;
    private final long createdMillis;
    private volatile String name = "";
    private volatile int db;
    private volatile int protocol = 2;
    private volatile String user = "default";
    private volatile boolean authenticated;
    private volatile long lastCommandMillis;
    private volatile String lastCommand = "NULL";
    private volatile String libName = "";
    private volatile String libVersion = "";
    /** Bytes of replies the connection has not yet sent (CLIENT LIST's {@code omem}); set by the connection. */
    private volatile java.util.function.LongSupplier unsentOutput = () -> 0;
    private volatile boolean closeRequested;
    private List<byte[][]> multiQueue;
    private boolean repliesOff;
    private boolean skipNextReply;
    private boolean skipThisReply;
    private boolean multiDirty;
    private final Map<WatchedKey, WatchState> watched = new LinkedHashMap<>();
    private volatile BlockedWait blockedWait;
    /** Completes when the first try of this connection's latest blocking command has settled (served, or blocked). */
    private volatile CompletableFuture<?> blockingFirstTry;
    private volatile boolean disconnected;
    /** Set once the connection's input has ended ({@link #closeWhenBlocked}). */
    private volatile Runnable closeWhenBlocked;
    private volatile int channelSubscriptions;
    private volatile int patternSubscriptions;
    private volatile int shardSubscriptions;
    private Consumer<List<Reply>> pushSink = messages -> { };
    private final List<Runnable> afterReply = new ArrayList<>();

    /** A watched key: its database and its bytes (wrapped, for equality). */
    public record WatchedKey(int db, java.nio.ByteBuffer key) {
    }

    /**
     * What a watched key was at WATCH: its change stamp (null if it never changed) and whether
     * it existed unexpired — EXEC fails if the stamp moved or a live key has since expired.
     */
    public record WatchState(byte[] stamp, boolean live) {
    }

    private volatile boolean scriptClient;
    private volatile String trackingFlags = "";
    private volatile long trackingRedirect = -1;

    /** See {@link #watchVersion}. */
    private volatile long watchVersion = Long.MAX_VALUE;
    /** See {@link #evictionFailed}: set on the evictor's thread, read on the connection's. */
    private volatile boolean evictionFailed;

    public ClientSession(long id, String address, String localAddress, long createdMillis, boolean authenticated) {
        this.id = id;
        this.address = address;
        this.localAddress = localAddress;
        this.createdMillis = createdMillis;
        this.authenticated = authenticated;
        this.lastCommandMillis = createdMillis;
    }

    /**
     * What CLIENT LIST shows of the connection's client-side caching: its flags ({@code t},
     * {@code R}, {@code B}; empty when off) and {@code redir} (-1 when off). Set by
     * {@code ClientTracking}, which owns the state.
     */
    public void trackingShown(String flags, long redirect) {
        trackingFlags = flags;
        trackingRedirect = redirect;
    }

    public String trackingFlags() {
        return trackingFlags;
    }

    public long trackingRedirect() {
        return trackingRedirect;
    }

    /** Whether this is the client a Lua script runs its commands as (Redis's CLIENT_SCRIPT). */
    public boolean scriptClient() {
        return scriptClient;
    }

    public void markScriptClient() {
        scriptClient = true;
    }

    /**
     * Marks that the request held for evictions ({@code ServerContext.makeRoom}) found nothing
     * to evict: prepared again, it gets the OOM error instead of waiting for another round.
     */
    public void evictionFailed() {
        evictionFailed = true;
    }

    /** Whether {@link #evictionFailed} was marked since last asked; clears the mark. */
    public boolean takeEvictionFailed() {
        // Read first: every command asks, and a volatile write each time would be paid for nothing.
        if (!evictionFailed) {
            return false;
        }
        evictionFailed = false;
        return true;
    }

    /** Lets the connection report the bytes of replies it has not sent yet. */
    public void unsentOutput(java.util.function.LongSupplier bytes) {
        unsentOutput = bytes;
    }

    /** Bytes of replies not sent yet: written to the connection but not to its socket. */
    public long unsentOutputBytes() {
        return unsentOutput.getAsLong();
    }

    public long id() {
        return id;
    }

    public String address() {
        return address;
    }

    public String localAddress() {
        return localAddress;
    }

    public long createdMillis() {
        return createdMillis;
    }

    public String name() {
        return name;
    }

    public void name(String name) {
        this.name = name;
    }

    public int db() {
        return db;
    }

    public void db(int db) {
        this.db = db;
    }

    public int protocol() {
        return protocol;
    }

    public void protocol(int protocol) {
        this.protocol = protocol;
    }

    public String user() {
        return user;
    }

    public boolean authenticated() {
        return authenticated;
    }

    public void authenticate(String user) {
        this.user = user;
        this.authenticated = true;
    }

    public void deauthenticate(boolean stillAuthenticated) {
        this.user = "default";
        this.authenticated = stillAuthenticated;
    }

    public long lastCommandMillis() {
        return lastCommandMillis;
    }

    public String lastCommand() {
        return lastCommand;
    }

    public void commandStarted(String command, long nowMillis) {
        this.lastCommand = command;
        this.lastCommandMillis = nowMillis;
    }

    public String libName() {
        return libName;
    }

    public String libVersion() {
        return libVersion;
    }

    public void libName(String v) {
        libName = v;
    }

    public void libVersion(String v) {
        libVersion = v;
    }

    /** Whether the server should close the connection after the current reply (QUIT, CLIENT KILL). */
    public boolean closeRequested() {
        return closeRequested;
    }

    public void requestClose() {
        closeRequested = true;
    }

    // ---------------------------------------------------------------- MULTI

    public boolean inMulti() {
        return multiQueue != null;
    }

    public void beginMulti() {
        multiQueue = new ArrayList<>();
        multiDirty = false;
    }

    public void queue(byte[][] request) {
        multiQueue.add(request);
    }

    /** Marks the open MULTI as failed: EXEC will answer EXECABORT. */
    public void flagMultiError() {
        multiDirty = true;
    }

    public boolean multiDirty() {
        return multiDirty;
    }

    /** Ends MULTI and returns what was queued. */
    public List<byte[][]> endMulti() {
        List<byte[][]> q = multiQueue;
        multiQueue = null;
        multiDirty = false;
        return q;
    }

    /** The requests queued since MULTI (a copy); empty outside MULTI. */
    public List<byte[][]> queued() {
        return multiQueue == null ? List.of() : List.copyOf(multiQueue);
    }

    public Map<WatchedKey, WatchState> watched() {
        return watched;
    }

    /**
     * The read version of this connection's oldest WATCH in force ({@code WatchRegistry}),
     * {@code Long.MAX_VALUE} when none: read by the server's thread that publishes the
     * process's oldest, written by the connection's commands before their transaction commits.
     */
    public long watchVersion() {
        return watchVersion;
    }

    /** A WATCH whose transaction reads at {@code readVersion}. */
    public void watchingSince(long readVersion) {
        watchVersion = Math.min(watchVersion, readVersion);
    }

    /** Forgets every watched key (UNWATCH, DISCARD, RESET, an aborted EXEC). */
    public void unwatchAll() {
        watched.clear();
        watchVersion = Long.MAX_VALUE;
    }

    /**
     * After an EXEC's transaction: the WATCH it checked no longer holds the floor, unless
     * another WATCH came since ({@code since} is what {@link #watchVersion} was at EXEC).
     */
    public void execDone(long since) {
        if (watched.isEmpty() && watchVersion == since) {
            watchVersion = Long.MAX_VALUE;
        }
    }

    // ---------------------------------------------------------------- blocked commands

    /**
     * The handle a blocked command (BLPOP and the like) leaves on its session while it waits,
     * so that others can end the wait: CLIENT UNBLOCK, CLIENT KILL and the connection closing.
     */
    public interface BlockedWait {
        /**
         * Ends the wait with {@code reply}, or with the command's own timeout reply when
         * {@code reply} is null; false if the wait had already ended.
         */
        boolean unblock(Reply reply);
    }

    /** Called by a blocked command when it starts waiting. */
    public void blockedOn(BlockedWait wait) {
        blockedWait = wait;
        Runnable close = closeWhenBlocked;
        if (close != null) {
            close.run();
        }
    }

    /**
     * Runs {@code close} now if a command of this connection is blocked, else when one blocks:
     * the connection's input has ended, and Redis frees a blocked client when it reads the end.
     * Both fields are volatile and each side writes its own before reading the other's, so a
     * command that blocks while this is called is seen by one side or both ({@code close} may
     * run twice).
     */
    public void closeWhenBlocked(Runnable close) {
        closeWhenBlocked = close;
        if (blockedWait != null) {
            close.run();
        }
    }

    /** Called by a blocked command when its wait has ended, however it ended. */
    public void unblocked(BlockedWait wait) {
        if (blockedWait == wait) {
            blockedWait = null;
        }
    }

    /** Whether a command of this connection is waiting for keys (CLIENT LIST flag {@code b}). */
    public boolean blocked() {
        return blockedWait != null;
    }

    /** Ends the wait of this connection's blocked command, as {@link BlockedWait#unblock}; false if none waits. */
    public boolean unblock(Reply reply) {
        BlockedWait w = blockedWait;
        return w != null && w.unblock(reply);
    }

    /** Called by a blocking command as its first try starts; {@code settled} completes once that try has served it or it blocked. */
    public void firstTryRunning(CompletableFuture<?> settled) {
        blockingFirstTry = settled;
    }

    /**
     * {@link #unblock}, for CLIENT UNBLOCK: when this connection's blocking command is still in
     * its first try, after that try. In Redis a blocking command that has been read has either
     * been served or is blocked, never in between; here its first try is a transaction that
     * takes a while, and an UNBLOCK sent after the command must not miss it (answering 0 and
     * leaving it blocked). Ordered after the try, it unblocks a command that found nothing and
     * answers 0 for one that was served, as Redis does.
     */
    public CompletableFuture<Boolean> unblockAfterFirstTry(Reply reply) {
        CompletableFuture<?> first = blockingFirstTry;
        if (first == null || first.isDone()) {
            return CompletableFuture.completedFuture(unblock(reply));
        }
        return first.handle((settled, error) -> unblock(reply));
    }

    /**
     * The connection has closed: a blocked command stops waiting (its reply goes nowhere), and
     * one that was about to block sees {@link #disconnected()} and does not.
     */
    public void connectionClosed() {
        disconnected = true;
        unblock(null);
    }

    public boolean disconnected() {
        return disconnected;
    }

    // ---------------------------------------------------------------- pub/sub

    /** Records how many channels, patterns and shard channels the connection is subscribed to. */
    public void subscriptionCounts(int channels, int patterns, int shardChannels) {
        channelSubscriptions = channels;
        patternSubscriptions = patterns;
        shardSubscriptions = shardChannels;
    }

    public int channelSubscriptions() {
        return channelSubscriptions;
    }

    public int patternSubscriptions() {
        return patternSubscriptions;
    }

    public int shardSubscriptions() {
        return shardSubscriptions;
    }

    /** Redis's {@code CLIENT_PUBSUB}: subscribed to anything (in RESP2 only pub/sub commands may then run). */
    public boolean subscribed() {
        return channelSubscriptions + patternSubscriptions + shardSubscriptions > 0;
    }

    /** Installs where {@link #push} writes to (the connection, once, as it opens). */
    public synchronized void pushTo(Consumer<List<Reply>> sink) {
        this.pushSink = sink;
    }

    /** Writes out-of-band messages to the connection, after everything pushed before them. */
    public synchronized void push(List<Reply> messages) {
        pushSink.accept(messages);
    }

    /** Runs {@code action} once the reply of the command now running has been written (or dropped). */
    public synchronized void afterReply(Runnable action) {
        afterReply.add(action);
    }

    /** Runs the after-reply actions (the connection, after writing a reply or on closing). */
    public void runAfterReply() {
        List<Runnable> actions;
        synchronized (this) {
            if (afterReply.isEmpty()) {
                return;
            }
            actions = new ArrayList<>(afterReply);
            afterReply.clear();
        }
        actions.forEach(Runnable::run);
    }

    // ---------------------------------------------------------------- CLIENT REPLY

    /** CLIENT REPLY ON: every reply is sent again. */
    public void repliesOn() {
        repliesOff = false;
        skipNextReply = false;
        skipThisReply = false;
    }

    /** CLIENT REPLY OFF: no reply is sent (this command's neither) until CLIENT REPLY ON. */
    public void repliesOff() {
        repliesOff = true;
    }

    /** CLIENT REPLY SKIP: neither this command's reply nor the next command's is sent. */
    public void skipNextReply() {
        if (!repliesOff) {
            skipThisReply = true;
            skipNextReply = true;
        }
    }

    /**
     * Whether the reply of the command that just ran is to be dropped; called once per command,
     * it also moves a pending SKIP on to the next command.
     */
    public boolean dropReply() {
        boolean drop = repliesOff || skipThisReply;
        skipThisReply = skipNextReply;
        skipNextReply = false;
        return drop;
    }
}
