package io.strata.engine.commit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link OpenReadVersions}: the floor never passes an open transaction's read version. */
class OpenReadVersionsTest {

    @Test
    void theFloorWaitsForTheOldestOpenTransaction() {
        OpenReadVersions open = new OpenReadVersions(10);
        OpenReadVersions.ReadHold first = open.hold(); // reads at 10 or later
        assertThat(open.floor(20, Long.MIN_VALUE)).isEqualTo(10);
        OpenReadVersions.ReadHold second = open.hold(); // reads at 20 or later
        assertThat(open.floor(30, Long.MIN_VALUE)).isEqualTo(10);
        first.release();
        assertThat(open.floor(40, Long.MIN_VALUE)).isEqualTo(20);
        second.release();
        assertThat(open.floor(50, Long.MIN_VALUE)).isEqualTo(50);
        assertThat(open.floor(60, Long.MIN_VALUE)).isEqualTo(60);
    }

    @Test
    void anEpochWhoseSuccessorBeganBeforeTooOldNoLongerCounts() {
        OpenReadVersions open = new OpenReadVersions(10);
        open.hold(); // never released
        assertThat(open.floor(20, 15)).isEqualTo(10); // its successor began at 20, not before 15
        assertThat(open.floor(30, 20)).isEqualTo(10);
        assertThat(open.floor(40, 21)).isEqualTo(40);
    }

    /**
     * Holders take "read versions" from a counter the flipper advances before each flip, as
     * the sequencer publishes a version before pruning; every floor published after a holder
     * took its version must be at or below it until the holder releases.
     */
    @Test
    @Timeout(60)
    void concurrentHoldersNeverSeeTheFloorPassTheirVersion() throws InterruptedException {
        AtomicLong visible = new AtomicLong(1);
        OpenReadVersions open = new OpenReadVersions(visible.get());
        AtomicLong floor = new AtomicLong(Long.MIN_VALUE);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong violations = new AtomicLong();
        AtomicLong holds = new AtomicLong();
        Thread flipper = new Thread(() -> {
            while (!stop.get()) {
                long v = visible.incrementAndGet();
                long f = open.floor(v, Long.MIN_VALUE);
                if (f < floor.get()) {
                    violations.incrementAndGet(); // the floor only moves up
                }
                floor.set(f);
            }
        });
        List<Thread> holders = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            holders.add(new Thread(() -> {
                for (int i = 0; i < 200_000; i++) {
                    OpenReadVersions.ReadHold hold = open.hold();
                    long rv = visible.get();
                    for (int check = 0; check < 3; check++) {
                        if (floor.get() > rv) {
                            violations.incrementAndGet();
                        }
                        Thread.onSpinWait();
                    }
                    hold.release();
                    holds.incrementAndGet();
                }
            }));
        }
        flipper.start();
        holders.forEach(Thread::start);
        for (Thread h : holders) {
            h.join();
        }
        stop.set(true);
        flipper.join();
        assertThat(holds.get()).isEqualTo(600_000);
        assertThat(violations.get()).isZero();
        assertThat(open.floor(visible.incrementAndGet(), Long.MIN_VALUE)).isEqualTo(visible.get());
    }
}
