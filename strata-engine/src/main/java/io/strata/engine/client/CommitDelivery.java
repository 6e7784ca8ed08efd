package io.strata.engine.client;

import io.strata.engine.Engine;
import io.strata.engine.commit.CommitRequest;
import io.strata.engine.commit.CommitResult;
import io.strata.engine.error.FdbError;
import io.strata.engine.fault.FaultPolicy;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * How a commit request travels to the commit pipeline and its answer back: half the
 * configured commit latency each way, and the injected fault drawn for this commit
 * ({@link FaultPolicy}) applied on the way — failing before the pipeline sees the request, or
 * reporting {@code commit_unknown_result} after it committed.
 *
 * <p>Separate from {@link EngineTransaction} because it holds no transaction state: the
 * transaction builds the request and draws the fault under its monitor, then hands both
 * over with a callback that settles the commit.
 */
final class CommitDelivery {
    private CommitDelivery() {
    }

    /**
     * Sends {@code request} and calls {@code finish} with the committed result, or with null
     * and the error the client must see. {@code finish} may run on the sequencer or the timer
     * thread. If {@code flight} is withdrawn before the request reaches the pipeline, nothing is
     * submitted and {@code finish} is never called.
     */
    static void deliver(Engine engine, CommitRequest request, FaultPolicy.Fault fault, CommitFlight flight,
                        BiConsumer<CommitResult, Throwable> finish) {
        long halfDelay = engine.latency().commitMicros() / 2;
        boolean toSequencer = fault == FaultPolicy.Fault.NONE || fault == FaultPolicy.Fault.UNKNOWN_RESULT_COMMITTED;
        if (toSequencer && request.readVersion() < 0) {
            // FoundationDB's commit would first fetch a read version: nothing has left the client yet.
            request.withdrawableUntilTaken();
        }
        Runnable submit = () -> {
            if (!flight.submit(toSequencer ? request : null)) {
                return; // withdrawn on the way: the transaction has failed its future
            }
            switch (fault) {
                case NOT_COMMITTED -> request.result().completeExceptionally(FdbError.NOT_COMMITTED.exception());
                case UNKNOWN_RESULT_NOT_COMMITTED -> request.result().completeExceptionally(FdbError.COMMIT_UNKNOWN_RESULT.exception());
                case TRANSACTION_TOO_OLD -> request.result().completeExceptionally(FdbError.TRANSACTION_TOO_OLD.exception());
                default -> engine.pipeline().submit(request);
            }
        };
        request.result().whenComplete((committed, error) -> {
            Throwable outcome = error;
            if (error == null && fault == FaultPolicy.Fault.UNKNOWN_RESULT_COMMITTED) {
                outcome = FdbError.COMMIT_UNKNOWN_RESULT.exception();
            }
            Throwable finalOutcome = outcome;
            // Safe on the sequencer or timer thread: the futures completed here run no user code.
            Runnable done = () -> finish.accept(finalOutcome == null ? committed : null, finalOutcome);
            if (halfDelay == 0) {
                done.run();
            } else {
                engine.timer().schedule(done, halfDelay, TimeUnit.MICROSECONDS);
            }
        });
        if (halfDelay == 0) {
            submit.run();
        } else {
            engine.timer().schedule(submit, halfDelay, TimeUnit.MICROSECONDS);
        }
    }
}
