package io.strata.examples.scheduling;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tutorial program, unchanged, on strata-fdb: in this JVM on an in-memory database, and
 * as a user runs it — a new JVM whose cluster file (FDB_CLUSTER_FILE) names a durable
 * directory — twice, the second run continuing from what the first left on disk.
 */
class ClassSchedulingTest {
    /** Every class's free seats plus its attendees is its capacity: no signup or drop was lost or doubled. */
    private static void assertBooksBalance(ClassScheduling schedule, Database db) {
        Map<String, Integer> seats = schedule.seats(db);
        Map<String, Integer> attendance = schedule.attendance(db);
        assertThat(seats).hasSize(schedule.classNames().size());
        for (Map.Entry<String, Integer> c : seats.entrySet()) {
            assertThat(c.getValue() + attendance.getOrDefault(c.getKey(), 0)).as(c.getKey()).isEqualTo(ClassScheduling.SEATS);
        }
    }

    @Test
    void concurrentStudentsKeepTheBooksStraight() throws InterruptedException {
        System.setProperty("strata.database", "strata:memory:class-scheduling");
        try (Database db = FDB.selectAPIVersion(730).open()) {
            ClassScheduling schedule = new ClassScheduling(db);
            schedule.init(db);
            schedule.simulate(db, 10, 20);
            assertBooksBalance(schedule, db);
            for (int s = 0; s < 10; s++) {
                assertThat(schedule.classesOf(db, "s" + s)).hasSizeLessThanOrEqualTo(ClassScheduling.MAX_CLASSES);
            }
            assertThat(schedule.attendance(db).values().stream().mapToInt(Integer::intValue).sum()).isPositive();
        } finally {
            System.clearProperty("strata.database");
        }
    }

    @Test
    void theProgramKeepsItsDataInTheDirectoryItsClusterFileNames(@TempDir Path dir) throws Exception {
        Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "# the tutorial's database\nstrata:data\n");
        assertThat(run(clusterFile)).contains("classes: 1620, seats taken: ");
        assertThat(run(clusterFile, "--keep", "10", "10")).contains("classes: 1620");
        assertThat(dir.resolve("data")).isDirectory();

        try (Database db = FDB.selectAPIVersion(730).open(clusterFile.toString())) {
            ClassScheduling schedule = new ClassScheduling(db);
            assertBooksBalance(schedule, db);
            assertThat(schedule.attendance(db)).isNotEmpty();
        }
    }

    /** Runs {@code ClassScheduling.main} in a new JVM, as a user would, and returns what it printed. */
    private static String run(Path clusterFile, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ClassScheduling.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("FDB_CLUSTER_FILE", clusterFile.toString());
        builder.environment().remove("STRATA_DATABASE");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
