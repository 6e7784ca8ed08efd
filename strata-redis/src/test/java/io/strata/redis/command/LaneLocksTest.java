package io.strata.redis.command;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class LaneLocksTest {
    private final LaneLocks locks = new LaneLocks();

    @Test
    void aBatchSharingALaneWaitsAndADisjointOneDoesNot() throws Exception {
        LaneLocks.Hold crossLane = locks.acquire(0b0110);
        AtomicBoolean sharingRan = new AtomicBoolean();
        CountDownLatch disjointRan = new CountDownLatch(1);
        Thread sharing = new Thread(() -> {
            LaneLocks.Hold h = locks.acquire(0b0100);
            sharingRan.set(true);
            h.release();
        });
        Thread disjoint = new Thread(() -> {
            LaneLocks.Hold h = locks.acquire(0b1000);
            disjointRan.countDown();
            h.release();
        });
        sharing.start();
        disjoint.start();

        assertThat(disjointRan.await(10, TimeUnit.SECONDS)).isTrue();
        sharing.join(200);
        assertThat(sharingRan).isFalse();
        crossLane.release();
        sharing.join(10_000);
        assertThat(sharingRan).isTrue();
    }

    @Test
    void releaseIsIdempotent() throws Exception {
        LaneLocks.Hold h = locks.acquire(0b1);
        h.release();
        h.release(); // unlocking a lock not held would throw IllegalMonitorStateException

        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertThat(other.submit(() -> {
                locks.acquire(0b1).release();
                return true;
            }).get(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void crossLaneHoldersTakeTheirLanesInOrderSoTheyNeverDeadlock() throws Exception {
        int rounds = 2_000;
        Thread[] threads = new Thread[4];
        int[] masks = {0b1111, 0b0011, 0b1100, 0b1010};
        for (int t = 0; t < threads.length; t++) {
            int mask = masks[t];
            threads[t] = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    LaneLocks.Hold h = locks.acquire(mask);
                    h.release();
                }
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join(60_000);
            assertThat(t.isAlive()).as("deadlocked").isFalse();
        }
    }
}
