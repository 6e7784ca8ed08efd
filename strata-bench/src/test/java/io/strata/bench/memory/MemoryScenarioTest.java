package io.strata.bench.memory;

import io.strata.Strata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A small run of {@code strata bench memory}: 20,000 pairs, a 200 ms wait instead of the
 * window's 6 s (the engines' figures then still hold the window's writes), every row present,
 * sane and written to the CSV, the durable database's directory gone. No figure is asserted
 * beyond sanity: the heap of a test JVM moves with whatever else it holds.
 */
class MemoryScenarioTest {
    private static final long PAIRS = 20_000;
    private static final int PAYLOAD = 16 + 100;

    @TempDir
    Path dir;

    @Test
    void everyRowIsPresentSaneAndInTheCsv() throws Exception {
        Path databases = Files.createDirectories(dir.resolve("databases"));
        MemoryScenario scenario = new MemoryScenario(PAIRS, 16, 100, 1_000, Duration.ofMillis(200), databases);

        List<MemoryResult> results = scenario.run(dir, r -> {});

        assertThat(results).extracting(MemoryResult::target).containsExactlyElementsOf(MemoryTarget.NAMES);
        for (MemoryResult r : results) {
            assertThat(r.pairs()).isEqualTo(PAIRS);
            assertThat(r.payloadPerPair()).isEqualTo(PAYLOAD);
            assertThat(r.wrong()).as(r.target()).isZero();
            assertThat(r.checked()).isEqualTo(MemoryRunner.CHECKED_PAIRS);
            assertThat(r.pairsPerSecond()).as(r.target()).isPositive();
            // Anything past a few KiB per pair would be a measuring error, not a store.
            assertThat(r.bytesPerPair()).as(r.target()).isLessThan(10_000);
            if (holdsEverythingOnTheHeap(r)) {
                assertThat(r.bytesPerPair()).as(r.target() + " holds at least its payload").isGreaterThanOrEqualTo(PAYLOAD);
                assertThat(r.ratio()).isGreaterThanOrEqualTo(1.0);
            }
        }
        assertThat(results.get(2).heapInWindow()).as("the map has no window").isEqualTo(-1);
        assertThat(results.get(0).inWindowBytesPerPair()).isPositive();

        List<String> csv = Files.readAllLines(dir.resolve(MemoryScenario.CSV_FILE));
        assertThat(csv).hasSize(1 + MemoryTarget.NAMES.size());
        assertThat(csv.get(0)).isEqualTo(MemoryScenario.CSV_HEADER);
        int columns = MemoryScenario.CSV_HEADER.split(",").length;
        for (int i = 1; i < csv.size(); i++) {
            assertThat(csv.get(i).split(",", -1)).hasSize(columns);
            assertThat(csv.get(i)).startsWith(MemoryTarget.NAMES.get(i - 1) + "," + PAIRS + ",16,100,");
        }
        try (var left = Files.list(databases)) {
            assertThat(left).as("the durable databases are deleted").isEmpty();
        }
    }

    @Test
    void refusesMorePairsThanDistinctKeys() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MemoryScenario(129, 1, 10, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new MemoryScenario(PAIRS, 16, 100, 1_000).isTargetShape()).isFalse();
        assertThat(new MemoryScenario(1_000_000, 16, 100, 1_000).isTargetShape()).isTrue();
    }

    /**
     * Every row but {@code strata} under the build's second test run, where
     * {@code -Dstrata.inMemory.storage=ssd} makes {@code Strata.inMemory()} a disk-store engine,
     * which keeps on the heap only what has not yet reached its disk.
     */
    private static boolean holdsEverythingOnTheHeap(MemoryResult r) {
        return !(r.target().equals(MemoryTarget.STRATA) && "ssd".equals(System.getProperty(Strata.TEST_STORAGE_PROPERTY)));
    }
}
