package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import io.strata.Strata;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A shell driven by a test: lines in, the stdout and stderr of each line out, on a database the
 * test owns or, from {@link #inMemory()}, on one of its own. A test class with one shell holds it
 * in a field, {@code @AutoClose private final ShellSession shell = ShellSession.inMemory();}:
 * a fresh shell and database per test, closed after it.
 */
final class ShellSession implements AutoCloseable {
    /** What one line printed, and whether it failed (fdbcli's {@code is_error}). */
    record Output(String out, String err, boolean failed, Shell.Outcome outcome) {}

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final Shell shell;
    private final Database db;
    /** Whether {@link #close()} closes {@link #db} too: the session opened it. */
    private final boolean ownsDatabase;

    ShellSession(Database db) {
        this(db, false, null);
    }

    ShellSession(Database db, boolean execMode, StatusCommand.Source status) {
        this(db, execMode, status, false);
    }

    private ShellSession(Database db, boolean execMode, StatusCommand.Source status, boolean ownsDatabase) {
        this.db = db;
        this.ownsDatabase = ownsDatabase;
        shell = new Shell(db, new PrintWriter(out), new PrintWriter(err), execMode, status);
    }

    /** A shell on a new in-memory database, which {@link #close()} closes too. */
    static ShellSession inMemory() {
        return new ShellSession(Strata.inMemory(), false, null, true);
    }

    /** Runs {@code line} and returns what it alone printed. */
    Output run(String line) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        Shell.Outcome outcome = shell.runLine(line);
        return new Output(out.toString(), err.toString(), shell.lastLineFailed(), outcome);
    }

    /** Runs {@code line}, which must succeed, and returns its stdout. */
    String ok(String line) {
        Output o = run(line);
        if (o.failed() || !o.err().isEmpty()) {
            throw new AssertionError("`" + line + "' failed: " + o);
        }
        return o.out();
    }

    Shell shell() {
        return shell;
    }

    /** The database the shell runs on. */
    Database database() {
        return db;
    }

    @Override
    public void close() {
        shell.close();
        if (ownsDatabase) {
            db.close();
        }
    }
}
