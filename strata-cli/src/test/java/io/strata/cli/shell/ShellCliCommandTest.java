package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import io.strata.ClusterFile;
import io.strata.Strata;
import io.strata.cli.StrataCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code strata cli} as a command: choosing the database, {@code --exec} and its exit status, piped input. */
class ShellCliCommandTest {
    record Run(int code, String out, String err) {}

    private static Run run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = StrataCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        if (stdin != null) {
            ((CliCommand) cl.getSubcommands().get("cli").getCommand()).in =
                    new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        }
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static void assumeNoDatabaseSetting() {
        assumeTrue(System.getenv(ClusterFile.DATABASE_ENV) == null && System.getProperty(ClusterFile.DATABASE_PROPERTY) == null,
                "a Strata database setting in the environment overrides -C");
    }

    @Test
    void execRunsTheCommandsAndExitsZero() {
        Run r = run(null, "cli", "--memory", "--exec", "writemode on; set a 1; get a");
        assertThat(r.code()).isZero();
        assertThat(r.out()).doesNotContain("Using").matches("(?s)>>> writemode on\n>>> set a 1\nCommitted \\(\\d+\\)\n>>> get a\n`a' is `1'\n");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void execExitsOneWhenACommandFails() {
        assertThat(run(null, "cli", "--memory", "--exec", "set a 1").code()).as("writemode off").isEqualTo(1);
        assertThat(run(null, "cli", "--memory", "--exec", "get \\xff").code()).isEqualTo(1);
        assertThat(run(null, "cli", "--memory", "--exec", "kill").code()).isEqualTo(1);
        Run r = run(null, "cli", "--memory", "--exec", "get a; frobnicate; get b");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).endsWith(">>> frobnicate\nWARNING: the previous command failed, the remaining commands will not be executed.\n");
        assertThat(r.err()).isEqualTo("ERROR: Unknown command `frobnicate'. Try `help'?\n");
        assertThat(run(null, "cli", "--memory", "--exec", "get a; exit; frobnicate").code()).isZero();
    }

    @Test
    void pipedInputIsReadLineByLineWithoutPrompts() {
        Run r = run("writemode on\nset k v\n\nget k\nbogus\n", "cli", "--memory");
        assertThat(r.code()).as("piped input ends at EOF with 0, as fdbcli").isZero();
        assertThat(r.out()).startsWith("Using a new in-memory Strata database.\n\nThe database is available.\n\n"
                + "Welcome to the strata cli").doesNotContain("fdb> ");
        assertThat(r.out()).matches("(?s).*\nCommitted \\(\\d+\\)\n`k' is `v'\n\n");
        assertThat(r.err()).isEqualTo("ERROR: Unknown command `bogus'. Try `help'?\n");
        Run quit = run("get k\nexit\nget never\n", "cli", "--memory", "--no-status");
        assertThat(quit.out()).isEqualTo("Using a new in-memory Strata database.\n\n"
                + "Welcome to the strata cli, fdbcli's commands on one database. For help, type `help'.\n`k': not found\n");
    }

    @Test
    void aDirectoryKeepsItsData(@TempDir Path dir) {
        Path db = dir.resolve("db");
        assertThat(run(null, "cli", "--dir", db.toString(), "--exec", "writemode on; set kept yes").code()).isZero();
        Run second = run(null, "cli", "--dir", db.toString(), "--exec", "get kept");
        assertThat(second.out()).isEqualTo("`kept' is `yes'\n");
        Run banner = run("", "cli", "--dir", db.toString(), "--no-status");
        assertThat(banner.out()).startsWith("Using Strata database directory `" + db.toAbsolutePath() + "'.\n");
    }

    @Test
    void aDirectoryInUseIsRefusedInOneLine(@TempDir Path dir) {
        try (Database open = Strata.open(dir)) {
            Run r = run(null, "cli", "--dir", dir.toString(), "--exec", "get a");
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err()).startsWith("ERROR: cannot open the Strata database in " + dir.toAbsolutePath()).hasLineCount(1);
        }
    }

    @Test
    void storageChoosesTheStorageOfANewDirectoryAndAMismatchIsOneErrorLine(@TempDir Path dir) throws IOException {
        Path db = dir.resolve("db");
        assertThat(run(null, "cli", "--dir", db.toString(), "--storage", "ssd", "--disk-cache", "8m",
                "--exec", "writemode on; set k v").code()).isZero();
        assertThat(Files.readString(db.resolve("STORAGE")).trim()).isEqualTo("ssd");
        assertThat(run(null, "cli", "--dir", db.toString(), "--exec", "get k").out()).as("no --storage: what created it")
                .isEqualTo("`k' is `v'\n");
        Run other = run(null, "cli", "--dir", db.toString(), "--storage", "memory", "--exec", "get k");
        assertThat(other.code()).isEqualTo(1);
        assertThat(other.err()).isEqualTo("ERROR: cannot open the Strata database in " + db.toAbsolutePath()
                + ": the Strata database " + db.toAbsolutePath() + " was created with storage ssd; it cannot be opened with"
                + " storage memory (open it without choosing a storage, or use a new directory)\n");
    }

    @Test
    void storageIsCheckedAndNeedsADirectory(@TempDir Path dir) {
        Run bad = run(null, "cli", "--dir", dir.toString(), "--storage", "disk", "--exec", "get a");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).startsWith("Invalid value for option '--storage': expected memory or ssd, got 'disk'\n");
        Run memory = run(null, "cli", "--memory", "--storage", "ssd", "--exec", "get a");
        assertThat(memory.code()).isEqualTo(2);
        assertThat(memory.err()).startsWith("--storage applies to a database directory, not to --memory, which keeps no directory\n");
        Run cache = run(null, "cli", "--dir", dir.toString(), "--storage", "memory", "--disk-cache", "1g", "--exec", "get a");
        assertThat(cache.code()).isEqualTo(2);
        assertThat(cache.err()).startsWith("--disk-cache applies to --storage ssd only\n");
        assertThat(run(null, "cli", "--dir", dir.toString(), "--disk-cache", "12q", "--exec", "get a").err())
                .startsWith("Invalid value for option '--disk-cache': expected a size such as 268435456, 256m or 1g, got '12q'\n");
    }

    @Test
    void aClusterFileCanNameAStrataDatabase(@TempDir Path dir) throws IOException {
        assumeNoDatabaseSetting();
        Path file = dir.resolve("fdb.cluster");
        Files.writeString(file, "# a Strata database beside this file\nstrata:data\n");
        assertThat(run(null, "cli", "-C", file.toString(), "--exec", "writemode on; set k v").code()).isZero();
        assertThat(run(null, "cli", "--cluster-file", file.toString(), "--exec", "get k").out()).isEqualTo("`k' is `v'\n");
        assertThat(dir.resolve("data")).isDirectory();
        Run banner = run("", "cli", "-C", file.toString(), "--no-status");
        assertThat(banner.out()).startsWith("Using cluster file `" + file.toAbsolutePath() + "'.\nIt names the Strata database `strata:data'.\n");
        Files.writeString(file, "strata:memory");
        assertThat(run("", "cli", "-C", file.toString(), "--no-status").out())
                .contains("It names the Strata database `strata:memory', new and in memory.");
    }

    @Test
    void aBadOrMissingClusterFileIsOneErrorLine(@TempDir Path dir) throws IOException {
        assumeNoDatabaseSetting();
        Run missing = run(null, "cli", "-C", dir.resolve("nope.cluster").toString(), "--exec", "get a");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).startsWith("ERROR: ").endsWith("(1515)\n").hasLineCount(1);
        Path bad = dir.resolve("bad.cluster");
        Files.writeString(bad, "hello");
        Run r = run(null, "cli", "-C", bad.toString(), "--exec", "get a");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("neither a Strata connection string").hasLineCount(1);
        Files.writeString(bad, "strata:memory?latency=fast");
        assertThat(run(null, "cli", "-C", bad.toString(), "--exec", "get a").err()).startsWith("ERROR: connection string").hasLineCount(1);
    }

    @Test
    void aFoundationDbClusterFileNeedsTheNativeClient(@TempDir Path dir) throws IOException {
        assumeNoDatabaseSetting();
        assumeTrue(Files.notExists(Path.of("/usr/lib/libfdb_c.so")) && Files.notExists(Path.of("/usr/lib64/libfdb_c.so"))
                && Files.notExists(Path.of("/usr/local/lib/libfdb_c.dylib")), "libfdb_c is installed here");
        Path file = dir.resolve("fdb.cluster");
        Files.writeString(file, "test:abcdef@127.0.0.1:4500\n");
        Run r = run(null, "cli", "-C", file.toString(), "--exec", "get a");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("ERROR: The FoundationDB client library (libfdb_c) must be installed to open the"
                + " FoundationDB cluster of `" + file.toAbsolutePath() + "'.\n");
    }

    @Test
    void theDatabaseSettingComesFirst() {
        String before = System.getProperty(ClusterFile.DATABASE_PROPERTY);
        System.setProperty(ClusterFile.DATABASE_PROPERTY, "strata:memory");
        try {
            Run r = run("", "cli", "--no-status");
            assertThat(r.code()).isZero();
            assertThat(r.out()).startsWith("Using the Strata database `strata:memory', new and in memory"
                    + " (from the system property strata.database).\n");
        } finally {
            if (before == null) {
                System.clearProperty(ClusterFile.DATABASE_PROPERTY);
            } else {
                System.setProperty(ClusterFile.DATABASE_PROPERTY, before);
            }
        }
    }

    @Test
    void withoutAnyDatabaseItSaysWhatToGive() {
        assumeNoDatabaseSetting();
        assumeTrue(System.getenv(ClusterFile.CLUSTER_FILE_ENV) == null && Files.notExists(Path.of("fdb.cluster"))
                && Files.notExists(Path.of("/etc/foundationdb/fdb.cluster"))
                && Files.notExists(Path.of("/usr/local/etc/foundationdb/fdb.cluster")), "a cluster file is discoverable here");
        Run r = run(null, "cli", "--exec", "get a");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("ERROR: no database to open: give --dir PATH, --memory or -C CLUSTER_FILE").hasLineCount(1);
    }

    @Test
    void atMostOneDatabaseMayBeGiven(@TempDir Path dir) {
        Run r = run(null, "cli", "--memory", "--dir", dir.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("give at most one of --dir, --memory and -C");
    }
}
