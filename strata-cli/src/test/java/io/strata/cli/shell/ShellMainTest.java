package io.strata.cli.shell;

import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real {@code strata} main, in its own JVM as a user runs it: {@code strata cli --dir
 * D --exec ...} twice, the second run reading what the first committed; the exit status of a
 * failing script; and that the shell never loads {@code com.apple.foundationdb.FDB} (which
 * would load the native client) on a Strata database.
 */
class ShellMainTest {
    record Run(int code, String out) {}

    private static Run strata(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-verbose:class",
                "-cp", System.getProperty("java.class.path"), StrataCli.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        pb.environment().remove("STRATA_DATABASE");
        pb.environment().remove("FDB_CLUSTER_FILE");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    /** The output without the class-loading lines. */
    private static String printed(Run run) {
        return run.out().lines().filter(l -> !l.startsWith("[")).reduce("", (a, b) -> a + b + "\n");
    }

    @Test
    void aDurableDirectoryKeepsWhatTheFirstRunWrote(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("db");
        Run first = strata(dir, "cli", "--dir", db.toString(), "--exec",
                "writemode on; set greeting \"hello world\"; set \\x01bin \\xff\\x00");
        assertThat(first.code()).as(first.out()).isZero();
        assertThat(printed(first)).contains(">>> set greeting hello\\x20world\nCommitted (");

        Run second = strata(dir, "cli", "--dir", db.toString(), "--exec", "get greeting; getrange \\x01");
        assertThat(second.code()).as(second.out()).isZero();
        assertThat(printed(second)).isEqualTo(">>> get greeting\n`greeting' is `hello world'\n"
                + ">>> getrange \\x01\n\nRange limited to 25 keys\n`\\x01bin' is `\\xff\\x00'\n\n");

        for (Run run : List.of(first, second)) {
            assertThat(run.out().lines().filter(l -> l.contains("com.apple.foundationdb.FDB ")
                    || l.contains("com.apple.foundationdb.FDB$"))).as("the native client's entry class").isEmpty();
            assertThat(run.out()).as("the shell did go through fdb-java").contains("com.apple.foundationdb.Transaction ");
        }
    }

    @Test
    void aFailingScriptExitsOne(@TempDir Path dir) throws Exception {
        Run run = strata(dir, "cli", "--memory", "--exec", "set a b");
        assertThat(run.code()).isEqualTo(1);
        assertThat(printed(run)).isEqualTo("ERROR: writemode must be enabled to set or clear keys in the database.\n");
    }
}
