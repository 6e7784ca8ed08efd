package io.strata.redis.command;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CrossLanePolicyTest {
    private final CrossLanePolicy policy = new CrossLanePolicy();

    @Test
    void staysOptimisticWhileRetriesAreRare() {
        // One batch in 40 retries: SET pipelines of random keys measured 2–3%.
        for (int i = 0; i < 10_000; i++) {
            policy.ended(i % 40 == 0 ? 2 : 1, 30);
            assertThat(policy.exclusive()).as("batch %d", i).isFalse();
        }
    }

    @Test
    void turnsExclusiveWhenMostRequestsRetry() {
        for (int i = 0; i < 10 && !policy.exclusive(); i++) {
            policy.ended(2, 200);
        }
        assertThat(policy.exclusive()).isTrue();
    }

    @Test
    void weighsBatchesByTheirRequests() {
        // Few batches retry, but they are the big ones: most requests are run twice.
        for (int i = 0; i < 200; i++) {
            policy.ended(i % 5 == 0 ? 2 : 1, i % 5 == 0 ? 500 : 10);
        }
        assertThat(policy.exclusive()).isTrue();
    }

    @Test
    void triesOptimismAgainAfterItsExclusiveBatches() {
        while (!policy.exclusive()) {
            policy.ended(3, 100);
        }
        for (int i = 1; i < CrossLanePolicy.EXCLUSIVE_BATCHES; i++) {
            policy.ended(1, 100);
            assertThat(policy.exclusive()).isTrue();
        }
        policy.ended(1, 100);
        assertThat(policy.exclusive()).isFalse();
        // From a clean slate: one retry alone does not send it back.
        policy.ended(2, 100);
        policy.ended(1, 100);
        assertThat(policy.exclusive()).isFalse();
    }
}
