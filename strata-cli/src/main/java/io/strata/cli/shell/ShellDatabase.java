package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import io.strata.ClusterFile;
import io.strata.ConnectionString;
import io.strata.Strata;
import io.strata.cli.ClusterDatabase;
import io.strata.cli.StorageOptions;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Which database {@code strata cli} opens, and the line it says so with. The only class of
 * the shell that names the engine ({@link Strata}) — to open a Strata database; the shell
 * itself sees a {@link Database}.
 *
 * <ol>
 *   <li>{@code --dir PATH}: the durable Strata database in that directory (created if new, with
 *       {@code --storage} when given).</li>
 *   <li>{@code --memory}: a new, empty in-memory database.</li>
 *   <li>Otherwise FoundationDB's discovery rules ({@link ClusterFile#locate}, with Strata's
 *       {@code strata.database} / {@code STRATA_DATABASE} setting in front): {@code -C FILE},
 *       {@code FDB_CLUSTER_FILE}, {@code ./fdb.cluster}, the platform's default. A Strata
 *       connection string found there is opened with the engine; a FoundationDB one opens the
 *       real cluster through fdb-java (which needs the native client).</li>
 * </ol>
 *
 * {@code --storage} and {@code --disk-cache} apply to a Strata database directory, named by
 * {@code --dir} or by a connection string; for any other database they are refused.
 */
final class ShellDatabase {
    /** Why no database could be opened, in one line. */
    static final class CannotOpen extends Exception {
        CannotOpen(String message) {
            super(message);
        }
    }

    /**
     * An open database.
     *
     * @param database    the database, which {@link #close} closes
     * @param description what fdbcli's "Using cluster file `...'." line says, one or two lines
     */
    record Opened(Database database, String description) implements AutoCloseable {
        @Override
        public void close() {
            database.close();
        }
    }

    private ShellDatabase() {}

    /**
     * Opens the database the arguments name (at most one of them is set).
     *
     * @param storage {@code --storage} and {@code --disk-cache}, for a database directory
     * @param rules the discovery rules, for when none is set
     */
    static Opened open(Path dir, boolean memory, String clusterFile, StorageOptions storage, ClusterFile rules) throws CannotOpen {
        if (dir != null) {
            Path absolute = dir.toAbsolutePath().normalize();
            return new Opened(openDirectory(() -> storage.builder().open(absolute), absolute),
                    "Using Strata database directory `" + absolute + "'.");
        }
        if (memory) {
            return new Opened(Strata.inMemory(), "Using a new in-memory Strata database.");
        }
        Optional<ClusterFile.Found> found;
        try {
            found = rules.locate(clusterFile);
        } catch (FDBException e) {
            throw new CannotOpen(e.getMessage() + " (" + e.getCode() + ")");
        }
        if (found.isEmpty()) {
            throw new CannotOpen("no database to open: give --dir PATH, --memory or -C CLUSTER_FILE"
                    + " (or set " + ClusterFile.DATABASE_ENV + " or " + ClusterFile.CLUSTER_FILE_ENV + ")");
        }
        return open(found.get(), storage);
    }

    private static Opened open(ClusterFile.Found found, StorageOptions storage) throws CannotOpen {
        String contents = found.contents();
        String using = found.file() != null ? "Using cluster file `" + found.file() + "'." : null;
        if (ConnectionString.isStrata(contents)) {
            ConnectionString cs;
            try {
                cs = ConnectionString.parse(contents, found.baseDirectory());
            } catch (IllegalArgumentException e) {
                throw new CannotOpen(e.getMessage() + " (in the " + found.source() + ")");
            }
            if (cs.inMemory() && storage.given()) {
                throw new CannotOpen(storage.named() + " applies to a database directory; the " + found.source()
                        + " names an in-memory database (`" + cs.text() + "')");
            }
            Database db = cs.inMemory() ? cs.builder().inMemory()
                    : openDirectory(() -> storage.applyTo(cs.builder()).open(cs.directory()), cs.directory());
            String what = "Strata database `" + cs.text() + "'" + (cs.inMemory() ? ", new and in memory" : "");
            return new Opened(db, using != null ? using + "\nIt names the " + what + "."
                    : "Using the " + what + " (from the " + found.source() + ").");
        }
        if (ConnectionString.looksLikeFoundationDb(contents)) {
            if (storage.given()) {
                throw new CannotOpen(storage.named() + " applies to a Strata database directory, not to the FoundationDB cluster"
                        + " the " + found.source() + " names");
            }
            if (found.file() == null) {
                throw new CannotOpen("the " + found.source() + " holds a FoundationDB connection string;"
                        + " put it in a cluster file and give -C FILE");
            }
            try {
                return new Opened(ClusterDatabase.open(found.file()), using);
            } catch (LinkageError e) {
                throw new CannotOpen("The FoundationDB client library (libfdb_c) must be installed to open the"
                        + " FoundationDB cluster of `" + found.file() + "'.");
            }
        }
        throw new CannotOpen("the " + found.source() + " holds neither a Strata connection string (strata:...)"
                + " nor a FoundationDB one (description:id@host:port)");
    }

    private interface Opener {
        Database open();
    }

    /** Opens a durable database, turning the engine's refusals (locked, unreadable) into one line. */
    private static Database openDirectory(Opener opener, Path dir) throws CannotOpen {
        try {
            return opener.open();
        } catch (IllegalStateException | UncheckedIOException e) {
            throw new CannotOpen("cannot open the Strata database in " + dir + ": " + e.getMessage());
        }
    }
}
