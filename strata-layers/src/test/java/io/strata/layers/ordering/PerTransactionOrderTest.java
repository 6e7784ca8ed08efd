package io.strata.layers.ordering;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerTransactionOrderTest {
    private final PerTransactionOrder order = new PerTransactionOrder();
    private final Object tr = new Object();

    @Test
    void operationsIssuedAtOnceStartOneAfterTheOtherInIssueOrder() {
        List<String> started = new ArrayList<>();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> a = order.run(tr, () -> {
            started.add("a");
            return first;
        });
        CompletableFuture<String> b = order.run(tr, () -> {
            started.add("b");
            return second;
        });
        CompletableFuture<String> c = order.run(tr, () -> {
            started.add("c");
            return CompletableFuture.completedFuture("c");
        });
        assertThat(started).containsExactly("a");
        first.completeExceptionally(new IllegalStateException("a failed"));
        assertThat(started).as("a failure does not hold back what was issued after it").containsExactly("a", "b");
        assertThat(c).isNotDone();
        second.complete("b");
        assertThat(started).containsExactly("a", "b", "c");
        assertThat(a).isCompletedExceptionally();
        assertThat(b.join()).isEqualTo("b");
        assertThat(c.join()).isEqualTo("c");
        assertThat(order.transactionsInFlight()).as("nothing is kept once all completed").isZero();
    }

    @Test
    void otherTransactionsDoNotWait() {
        order.run(tr, CompletableFuture::new); // never completes
        CompletableFuture<String> other = order.run(new Object(), () -> CompletableFuture.completedFuture("x"));
        assertThat(other.join()).isEqualTo("x");
        assertThat(order.transactionsInFlight()).isEqualTo(1);
    }

    @Test
    void anOperationThatThrowsFailsItsFutureAndIsNotKept() {
        CompletableFuture<String> f = order.run(tr, () -> {
            throw new IllegalArgumentException("bad");
        });
        assertThatThrownBy(f::join).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IllegalArgumentException.class);
        assertThat(order.transactionsInFlight()).isZero();
        assertThat(order.run(tr, () -> CompletableFuture.completedFuture("next")).join()).isEqualTo("next");
    }
}
