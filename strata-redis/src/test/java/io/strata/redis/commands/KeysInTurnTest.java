package io.strata.redis.commands;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeysInTurnTest {

    @Test
    void takesTheFirstNonNullInTurnWithoutGrowingTheStack() {
        List<Integer> tried = new ArrayList<>();
        CompletableFuture<String> first = KeysInTurn.firstOf(1_000_000, i -> {
            tried.add(i);
            return CompletableFuture.completedFuture(i == 999_999 ? "last" : null);
        });
        assertThat(first).isCompletedWithValue("last");
        assertThat(tried).hasSize(1_000_000);
        assertThat(tried.get(0)).isZero();
    }

    @Test
    void stopsAtTheFirstAnswerAndWaitsForIncompleteTries() {
        CompletableFuture<String> slow = new CompletableFuture<>();
        List<Integer> tried = new ArrayList<>();
        CompletableFuture<String> first = KeysInTurn.firstOf(5, i -> {
            tried.add(i);
            return i == 1 ? slow : CompletableFuture.completedFuture(i == 2 ? "two" : null);
        });
        assertThat(first).isNotDone();
        slow.complete(null);
        assertThat(first).isCompletedWithValue("two");
        assertThat(tried).containsExactly(0, 1, 2);
    }

    @Test
    void noAnswerIsNullAndAFailureEndsTheTurns() {
        assertThat(KeysInTurn.firstOf(3, i -> CompletableFuture.<String>completedFuture(null))).isCompletedWithValue(null);
        assertThat(KeysInTurn.firstOf(0, i -> CompletableFuture.<String>completedFuture("never"))).isCompletedWithValue(null);
        CompletableFuture<String> failed = KeysInTurn.firstOf(3, i -> i == 1
                ? CompletableFuture.failedFuture(new IllegalStateException("WRONGTYPE"))
                : CompletableFuture.completedFuture(null));
        assertThatThrownBy(failed::join).hasRootCauseMessage("WRONGTYPE");
    }
}
