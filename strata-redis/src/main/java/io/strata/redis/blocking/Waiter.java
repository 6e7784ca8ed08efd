package io.strata.redis.blocking;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;
import io.strata.redis.protocol.Reply;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One blocked command: what it waits on, what it tries, and where its wait stands. Its mutable
 * fields are guarded by the monitor of the {@link BlockedClients} that owns it, except
 * {@link #stopWith}, which a running attempt also reads (volatile).
 */
final class Waiter implements ClientSession.BlockedWait {
    final BlockedClients owner;
    final ClientSession session;
    /** Its keys, each once, in the order the command named them. */
    final List<BlockedClients.WaitKey> keys;
    final BlockingAttempt attempt;
    final Reply timeoutReply;
    /**
     * Its place in line: numbered when the command started, not when its first try ended, so
     * that of two commands sent one after the other the first is served first.
     */
    final long arrival;
    /** When the command started, in {@link System#nanoTime()} terms. */
    final long startedNanos;
    /** How long it may wait from then; 0 for ever. */
    final long timeoutMillis;
    /** The command's reply. */
    final CompletableFuture<Reply> result = new CompletableFuture<>();

    /** Its first try found nothing: it is blocked (counted, visible to CLIENT UNBLOCK); guarded by the owner. */
    boolean blocked;
    /** Replied, or given up; guarded by the owner. */
    boolean done;
    /** The retry running now, settled when it completes; null if none. Guarded by the owner. */
    CompletableFuture<Outcome> retry;
    ScheduledFuture<?> timer;
    /** Set when the wait must end without being served (timeout, CLIENT UNBLOCK, disconnect): the reply to give. */
    volatile Reply stopWith;

    Waiter(BlockedClients owner, ClientSession session, List<BlockedClients.WaitKey> keys, BlockingAttempt attempt,
           Reply timeoutReply, long arrival, long startedNanos, long timeoutMillis) {
        this.owner = owner;
        this.session = session;
        this.keys = keys;
        this.attempt = attempt;
        this.timeoutReply = timeoutReply;
        this.arrival = arrival;
        this.startedNanos = startedNanos;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public boolean unblock(Reply reply) {
        return owner.stop(this, reply == null ? timeoutReply : reply);
    }

    /** How one try of a waiter ended. */
    static final class Outcome {
        static final Outcome STOPPED = new Outcome(null, null);

        /** The reply when it was served or failed; null otherwise. */
        final Reply reply;
        /** The watches its transaction set, one per key, when it found nothing; null otherwise. */
        final List<CompletableFuture<Void>> watches;
        /** The transaction that committed it, when it was served: what it changed is handed on. */
        Transaction committed;
        /**
         * When it found nothing and takes nothing from the others (a stream read): each key's
         * change stamp as its transaction read it (null: none), by key; null otherwise.
         */
        java.util.Map<BlockedClients.WaitKey, byte[]> stamps;
        /** It did not run: the key of its pass changed since the waiter before it was passed over. */
        boolean keyMoved;

        private Outcome(Reply reply, List<CompletableFuture<Void>> watches) {
            this.reply = reply;
            this.watches = watches;
        }

        static Outcome replied(Reply reply) {
            return new Outcome(reply, null);
        }

        static Outcome served(Reply reply, Transaction tr) {
            Outcome o = new Outcome(reply, null);
            o.committed = tr;
            return o;
        }

        static Outcome waiting(List<CompletableFuture<Void>> watches) {
            return new Outcome(null, watches);
        }

        boolean isWaiting() {
            return watches != null;
        }
    }
}
