package io.strata.cli.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code strata bench records} hands its arguments to strata-bench-records in a child JVM
 * (that module's own tests run the benchmark); here: that it is listed, where it looks for the
 * jar, and what it says when the jar is not built.
 */
class BenchRecordsCommandTest {
    @Test
    void isListedUnderBench() {
        BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "--help");
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("records").contains("Record Layer");
    }

    @Test
    void looksForTheJarInTheSourceTree() throws Exception {
        Path jar = BenchRecordsCommand.jar();
        assertThat(jar.toString().replace('\\', '/')).endsWith(BenchRecordsCommand.JAR);
        assertThat(jar.getParent().getParent().getParent().resolve("pom.xml")).isRegularFile();
    }

    @Test
    void saysHowToBuildTheJarWhenItIsMissing(@TempDir Path dir) {
        String previous = System.setProperty(BenchRecordsCommand.JAR_PROPERTY, dir.resolve("nothing.jar").toString());
        try {
            BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "records", "--help");
            assertThat(run.code()).isEqualTo(1);
            assertThat(run.err()).contains("nothing.jar is missing", "package -pl strata-bench-records -am");
            assertThat(dir).isEmptyDirectory();
        } finally {
            if (previous == null) {
                System.clearProperty(BenchRecordsCommand.JAR_PROPERTY);
            } else {
                System.setProperty(BenchRecordsCommand.JAR_PROPERTY, previous);
            }
        }
    }

    @Test
    void passesOnlyHeapAndCollectorOptionsToTheChild() {
        assertThat(BenchRecordsCommand.jvmOptions()).allMatch(o -> o.startsWith("-X"));
    }

    @Test
    void runsTheJarWithTheArgumentsGiven(@TempDir Path dir) throws Exception {
        // A stand-in jar whose main prints its arguments: what the child receives.
        Path jar = StandInJar.write(dir, "echo.jar");
        String previous = System.setProperty(BenchRecordsCommand.JAR_PROPERTY, jar.toString());
        try {
            Path out = dir.resolve("args.txt");
            BenchCommandRunner.Run run = BenchCommandRunner.run("bench", "records", "--help", "--seconds", "1", out.toString());
            assertThat(run.code()).isZero();
            assertThat(Files.readAllLines(out)).containsExactly("--help", "--seconds", "1", out.toString());
        } finally {
            if (previous == null) {
                System.clearProperty(BenchRecordsCommand.JAR_PROPERTY);
            } else {
                System.setProperty(BenchRecordsCommand.JAR_PROPERTY, previous);
            }
        }
    }
}
