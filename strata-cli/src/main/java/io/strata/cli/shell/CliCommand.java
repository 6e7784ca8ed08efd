package io.strata.cli.shell;

import io.strata.ClusterFile;
import io.strata.cli.StorageOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code strata cli}: fdbcli's shell for one database — interactive with a line editor, or
 * {@code --exec "CMD; CMD"} for scripts, with fdbcli's exit status (1 when a command failed).
 * The commands are {@link Shell}'s; this class picks the database ({@link ShellDatabase}),
 * prints fdbcli's greeting and runs the read loop.
 */
@Command(name = "cli",
        mixinStandardHelpOptions = true,
        header = "FoundationDB's fdbcli shell for one database; --exec for scripts.",
        description = {
                "FoundationDB's fdbcli for one database: get, set, clear, clearrange, getrange,",
                "getrangekeys, getversion, writemode, begin/commit/rollback/reset, option,",
                "status [minimal|details|json], help, exit; keys and values quoted and",
                "escaped as in fdbcli (`help escaping' in the shell). Commands that manage a",
                "FoundationDB cluster (configure, exclude, kill, tenant, ...) answer that they",
                "are not supported.",
                "",
                "The database: --dir, --memory, or else FoundationDB's rules: -C FILE, then",
                "$FDB_CLUSTER_FILE, ./fdb.cluster, the platform's default, with",
                "$STRATA_DATABASE (or -Dstrata.database) before them all. A Strata connection",
                "string (strata:memory, strata:PATH) opens the engine; a FoundationDB one opens",
                "the real cluster (which needs libfdb_c).",
                "",
                "A new Strata directory keeps its data with --storage: memory (the default) or",
                "ssd; the directory records it, so later opens need no --storage."},
        footer = {"", "History: $HOME/" + CliCommand.HISTORY_FILE + " (lines with writemode are not kept)."})
public final class CliCommand implements Callable<Integer> {
    /** The history file's name in the user's home directory. */
    static final String HISTORY_FILE = ".strata_cli_history";
    /** fdbcli's prompt, kept so that tools that drive fdbcli drive this too. */
    static final String PROMPT = "fdb> ";

    @Option(names = "--dir", paramLabel = "PATH", description = "The durable Strata database in this directory (created if new).")
    Path dir;

    @Option(names = "--memory", description = "A new, empty in-memory database, gone when the shell exits.")
    boolean memory;

    @Option(names = {"-C", "--cluster-file"}, paramLabel = "FILE",
            description = "The cluster file naming the database: a Strata connection string or a FoundationDB one.")
    String clusterFile;

    @CommandLine.Mixin
    StorageOptions storageOptions;

    @Option(names = "--exec", paramLabel = "CMDS",
            description = "Run these `;'-separated commands and exit: status 0, or 1 if a command failed.")
    String exec;

    @Option(names = "--no-status", description = "Skip the availability check at start.")
    boolean noStatus;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Standard input; tests give their own. */
    InputStream in = System.in;

    @Override
    public Integer call() {
        int given = (dir != null ? 1 : 0) + (memory ? 1 : 0) + (clusterFile != null ? 1 : 0);
        if (given > 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give at most one of --dir, --memory and -C");
        }
        if (memory && storageOptions.given()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    storageOptions.named() + " applies to a database directory, not to --memory, which keeps no directory");
        }
        if (storageOptions.conflict() != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), storageOptions.conflict());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ShellDatabase.Opened opened;
        try {
            opened = ShellDatabase.open(dir, memory, clusterFile, storageOptions, ClusterFile.ofThisProcess());
        } catch (ShellDatabase.CannotOpen e) {
            err.print("ERROR: " + e.getMessage() + "\n");
            err.flush();
            return 1;
        }
        try (opened; Shell shell = new Shell(opened.database(), out, err, exec != null)) {
            if (exec != null) {
                return shell.runLine(exec) == Shell.Outcome.EXIT || !shell.lastLineFailed() ? 0 : 1;
            }
            return interactive(shell, opened.description(), out);
        }
    }

    /** The user's home as fdbcli finds it: {@code $HOME}, else the account's (Java's {@code user.home}). */
    static String homeDirectory() {
        String home = System.getenv("HOME");
        return home != null && !home.isEmpty() ? home : System.getProperty("user.home");
    }

    private int interactive(Shell shell, String description, PrintWriter out) {
        out.print(description + "\n");
        if (noStatus) {
            out.print("\n");
        } else {
            shell.printAvailability();
        }
        out.print("Welcome to the strata cli, fdbcli's commands on one database. For help, type `help'.\n");
        out.flush();
        Path history = Path.of(homeDirectory(), HISTORY_FILE);
        try (LineSource lines = LineSource.forThisProcess(in, history)) {
            while (true) {
                String line = lines.readLine(PROMPT);
                if (line == null) {
                    out.print("\n");
                    out.flush();
                    return 0;
                }
                if (!line.isEmpty() && shell.runLine(line) == Shell.Outcome.EXIT) {
                    return 0;
                }
            }
        }
    }
}
