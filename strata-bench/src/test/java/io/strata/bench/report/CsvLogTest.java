package io.strata.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The CSV is on disk line by line before the listener hears of a result. */
class CsvLogTest {
    @Test
    void writesTheHeaderThenEachLineBeforeTellingTheListener(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("new/sub");
        List<List<String>> seenOnDisk = new ArrayList<>();
        try (CsvLog<Integer> log = CsvLog.create(out, "n.csv", "n,square", n -> n + "," + n * n, n -> {
            try {
                seenOnDisk.add(Files.readAllLines(out.resolve("n.csv")));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        })) {
            log.add(2);
            log.add(3);
            assertThat(log.results()).containsExactly(2, 3);
        }
        assertThat(seenOnDisk).containsExactly(List.of("n,square", "2,4"), List.of("n,square", "2,4", "3,9"));
        assertThat(Files.readString(out.resolve("n.csv"))).isEqualTo("n,square\n2,4\n3,9\n");
    }
}
