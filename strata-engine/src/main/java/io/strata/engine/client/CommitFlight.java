package io.strata.engine.client;

import io.strata.engine.commit.CommitRequest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * One commit between {@code commit()} and the sequencer: it may be withdrawn until the
 * sequencer has it, and after that only the sequencer's answer may settle its future.
 *
 * <h2>Why</h2>
 * A transaction reset while its commit is in flight — {@code close()} (fdb-java's
 * {@code Transaction_dispose}, {@code fdb_transaction_destroy}), {@code cancel()}, the
 * timeout, a use during commit with the protection on, {@code onError} — must not report
 * {@code transaction_cancelled} for a commit that then lands. FoundationDB's RYW commit fails
 * with the reset's error ({@code resetPromise} in {@code RYWImpl::commit}; the destructor and
 * {@code cancel} send it {@code transaction_cancelled}), and its documentation warns that the
 * commit "may or may not occur" even so: once the request has left for a commit proxy, nothing
 * calls it back. Of the outcomes FoundationDB allows, the engine takes the two where future and
 * data agree: a commit still waiting for its reads, or still on its way
 * ({@link CommitDelivery}'s first half of the commit latency), is withdrawn and fails with the
 * reset's error; one the sequencer has is reported as the sequencer decides (committed,
 * conflict, ...), as when FoundationDB's reply arrives before the reset does.
 *
 * <p>Concurrency: the transaction withdraws under its monitor, {@link CommitDelivery} submits
 * on the timer or the caller's thread; one compare-and-set decides which came first.
 */
final class CommitFlight {
    private static final int TRAVELLING = 0;
    private static final int SUBMITTED = 1;
    private static final int WITHDRAWN = 2;
    /** A field rather than an {@code AtomicInteger}: one object per commit, not two. */
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(CommitFlight.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The future {@code commit()} returned. */
    final CompletableFuture<Void> result;
    /** {@link #TRAVELLING} (0, the default: no volatile write to set it) until submitted or withdrawn. */
    private volatile int state;
    /** The request handed to the sequencer; written before {@link #state} becomes SUBMITTED. */
    private volatile CommitRequest request;

    CommitFlight(CompletableFuture<Void> result) {
        this.result = result;
    }

    /**
     * Hands {@code request} to the sequencer's queue: false if the commit was withdrawn first.
     * The request is recorded before, so that a withdrawal racing the hand-off still finds it.
     */
    boolean submit(CommitRequest request) {
        this.request = request;
        return STATE.compareAndSet(this, TRAVELLING, SUBMITTED);
    }

    /**
     * Withdraws the commit: false if the sequencer already has it, and will answer it. A request
     * still in the sequencer's queue can be withdrawn when it was made withdrawable
     * ({@link CommitRequest#withdrawableUntilTaken}).
     */
    boolean withdraw() {
        if (STATE.compareAndSet(this, TRAVELLING, WITHDRAWN) || state == WITHDRAWN) {
            return true;
        }
        CommitRequest r = request;
        return r != null && r.withdraw();
    }
}
