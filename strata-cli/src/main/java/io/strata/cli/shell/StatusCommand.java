package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code status [minimal|details|json]} and the start-up availability check: read the special
 * key {@code \xff\xff/status/json} in a fresh transaction, as fdbcli's
 * {@code statusCommandActor} does, and print it with {@link StatusFormatter}.
 *
 * <p>When the database does not answer that key (an engine that does not serve the status
 * document yet, or an error), the command prints fdbcli's line for a status it could not
 * retrieve — "Could not retrieve status, type 'status json' for more information." and its
 * variants — after the error itself on stderr, and fails.
 */
final class StatusCommand {
    /** FoundationDB's status document, as a special key. */
    static final byte[] STATUS_KEY = "\u00ff\u00ff/status/json".getBytes(StandardCharsets.ISO_8859_1);
    /** How long the start-up check waits for a read version before it calls the database unavailable. */
    private static final long AVAILABILITY_TIMEOUT_SECONDS = 3;

    /** Reads the raw status document (null when the key is absent); may throw {@link FDBException}. */
    @FunctionalInterface
    interface Source {
        byte[] read();
    }

    private final Database db;
    private final Source source;
    private final PrintWriter out;
    private final PrintWriter err;
    private final StatusFormatter formatter = new StatusFormatter(ZoneId.systemDefault());

    /** Reads the status key of {@code db}. */
    StatusCommand(Database db, PrintWriter out, PrintWriter err) {
        this(db, () -> readStatusKey(db), out, err);
    }

    /** Reads the document from {@code source} (tests give a canned one); {@code db} for the availability fallback. */
    StatusCommand(Database db, Source source, PrintWriter out, PrintWriter err) {
        this.db = db;
        this.source = source;
        this.out = out;
        this.err = err;
    }

    private static byte[] readStatusKey(Database db) {
        try (Transaction t = db.createTransaction()) {
            return Shell.await(t.get(STATUS_KEY));
        }
    }

    /**
     * Writes to stderr after flushing stdout, so that a terminal shows the two in the order
     * they were written (fdbcli's stdout is line-buffered on a terminal, its stderr unbuffered).
     */
    private void error(String text) {
        out.flush();
        err.print(text);
        err.flush();
    }

    /** The {@code status} command; false when it failed. */
    boolean run(List<byte[]> words, boolean execMode) {
        StatusFormatter.Level level = level(words);
        if (level == null) {
            HelpText.usage(out, "status");
            return false;
        }
        Map<String, Object> doc;
        try {
            doc = fetch();
        } catch (FDBException e) {
            error("ERROR: " + e.getMessage() + " (" + e.getCode() + ")\n");
            unavailable(level);
            return false;
        } catch (IllegalArgumentException e) {
            error("ERROR: the status document is not valid JSON: " + e.getMessage() + "\n");
            unavailable(level);
            return false;
        }
        if (doc == null) {
            error("ERROR: Failed to get status json from the cluster\n");
            return false;
        }
        if (!execMode) {
            out.print("\n");
        }
        formatter.print(doc, level, true, out, err);
        if (!execMode) {
            out.print("\n");
        }
        return true;
    }

    /**
     * fdbcli's check when it starts: a blank line, "The database is available." (or what the
     * status document says instead), a blank line. Without a status document, a read version
     * obtained within three seconds is what "available" means.
     */
    void printAvailability() {
        out.print("\n");
        Map<String, Object> doc = null;
        try {
            doc = fetch();
        } catch (FDBException | IllegalArgumentException e) {
            // no status document: fall back to a read version below
        }
        if (doc != null) {
            formatter.print(doc, StatusFormatter.Level.MINIMAL, true, out, err);
        } else if (readVersionWithin(AVAILABILITY_TIMEOUT_SECONDS)) {
            out.print("The database is available.\n");
        } else {
            out.print("The database is unavailable; type `status' for more information.\n");
        }
        out.print("\n");
    }

    private boolean readVersionWithin(long seconds) {
        try (Transaction t = db.createTransaction()) {
            t.getReadVersion().get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The parsed document, or null when the key is absent. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> fetch() {
        byte[] value = source.read();
        if (value == null) {
            return null;
        }
        Object parsed = Json.parse(new String(value, StandardCharsets.UTF_8));
        if (!(parsed instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("it is not a JSON object");
        }
        return (Map<String, Object>) parsed;
    }

    private void unavailable(StatusFormatter.Level level) {
        switch (level) {
            case MINIMAL -> out.print("Unable to determine database state, type 'status' for more information.\n");
            case JSON -> out.print("Could not retrieve status json.\n\n");
            default -> out.print("Could not retrieve status, type 'status json' for more information.\n");
        }
    }

    private static StatusFormatter.Level level(List<byte[]> words) {
        if (words.size() == 1) {
            return StatusFormatter.Level.NORMAL;
        }
        if (words.size() != 2) {
            return null;
        }
        return switch (new String(words.get(1), StandardCharsets.ISO_8859_1)) {
            case "details" -> StatusFormatter.Level.DETAILED;
            case "minimal" -> StatusFormatter.Level.MINIMAL;
            case "json" -> StatusFormatter.Level.JSON;
            default -> null;
        };
    }
}
