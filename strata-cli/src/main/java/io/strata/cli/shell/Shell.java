package io.strata.cli.shell;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.ByteArrayUtil;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * fdbcli's commands for one database, written against fdb-java's {@link Database} and
 * {@link Transaction} only, so that the same shell runs on the engine and on a real cluster.
 * It reproduces fdbcli 7.3's behaviour ({@code fdbcli/fdbcli.actor.cpp}, function {@code cli}):
 *
 * <ul>
 *   <li><b>Autocommit.</b> Outside {@code begin}, each command gets a new transaction (with
 *       the options of "all transactions"); {@code set}, {@code clear} and {@code clearrange}
 *       commit it at once and print {@code Committed (VERSION)}.</li>
 *   <li><b>Transactions.</b> {@code begin} opens one transaction that later commands share
 *       until {@code commit}, {@code rollback} or {@code reset}. An error in any command
 *       inside it prints {@code Rolling back current transaction} and leaves it, as fdbcli's
 *       outer {@code catch} does.</li>
 *   <li><b>Errors.</b> A database error prints {@code ERROR: DESCRIPTION (CODE)} on stderr;
 *       mistakes of use print fdbcli's own lines (usage on stdout, the rest on stderr). After a
 *       failed command, the remaining commands of the line are skipped with a warning.</li>
 *   <li><b>Several commands on a line.</b> Separated by {@code ;}; each is echoed after
 *       {@code >>>} before it runs.</li>
 * </ul>
 *
 * <p>Output goes to the two writers given, always with {@code \n} line ends, as fdbcli writes
 * them. Not thread-safe: one shell is one user's session; two shells on one database are two
 * sessions (and can conflict, as two fdbcli processes can).
 */
public final class Shell implements AutoCloseable {
    /** What a line asked of the session. */
    public enum Outcome {
        /** Read the next line. */
        CONTINUE,
        /** {@code exit} or {@code quit}. */
        EXIT
    }

    /** fdbcli's default {@code getrange} limit. */
    static final int DEFAULT_RANGE_LIMIT = 25;
    static final byte[] NORMAL_END = {(byte) 0xff};
    static final byte[] SYSTEM_END = {(byte) 0xff, (byte) 0xff};

    private final Database db;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean execMode;
    private final StatusCommand status;

    private Transaction tr;
    private boolean inTransaction;
    private boolean writeMode;
    private EnabledOptions globalOptions = new EnabledOptions();
    private EnabledOptions transactionOptions;
    private boolean lastLineFailed;

    /**
     * A session on {@code db}.
     *
     * @param execMode whether the commands come from {@code --exec} (fdbcli then leaves out
     *                 the blank lines around {@code status})
     */
    public Shell(Database db, PrintWriter out, PrintWriter err, boolean execMode) {
        this(db, out, err, execMode, null);
    }

    /** A session whose {@code status} reads {@code statusSource} instead of the database (for tests). */
    Shell(Database db, PrintWriter out, PrintWriter err, boolean execMode, StatusCommand.Source statusSource) {
        this.db = db;
        this.out = out;
        this.err = err;
        this.execMode = execMode;
        this.status = statusSource == null ? new StatusCommand(db, out, err) : new StatusCommand(db, statusSource, out, err);
    }

    /** Whether a command of the last line failed: the exit status of {@code --exec}. */
    public boolean lastLineFailed() {
        return lastLineFailed;
    }

    /** Whether a transaction opened by {@code begin} is open. */
    public boolean inTransaction() {
        return inTransaction;
    }

    /** Prints fdbcli's start-up check: whether the database is available. */
    public void printAvailability() {
        status.printAvailability();
    }

    /** Runs one line: one or more commands separated by {@code ;}. */
    public Outcome runLine(String line) {
        boolean failed = false;
        try {
            Tokenizer.Line parsed = Tokenizer.parse(line);
            if (parsed.malformed()) {
                out.print("ERROR: malformed escape sequence\n");
            }
            if (parsed.partial()) {
                out.print("ERROR: unterminated quote\n");
            }
            boolean parseError = parsed.malformed() || parsed.partial();
            List<List<byte[]>> commands = parsed.commands();
            boolean multi = commands.size() > 1;
            for (int c = 0; c < commands.size(); c++) {
                List<byte[]> words = commands.get(c);
                if (failed) {
                    out.print("WARNING: the previous command failed, the remaining commands will not be executed.\n");
                    break;
                }
                if (parseError && c == commands.size() - 1) {
                    // fdbcli runs the commands before the one it could not parse, then refuses that one.
                    error("ERROR: Command failed to completely parse.\n");
                    if (!words.isEmpty()) {
                        error("ERROR: Not running partial or malformed command:");
                        StringBuilder echo = new StringBuilder();
                        for (byte[] w : words) {
                            echo.append(' ').append(Printable.token(w, true));
                        }
                        out.print(echo + "\n");
                    }
                    failed = true;
                    continue;
                }
                if (words.isEmpty()) {
                    continue;
                }
                if (multi) {
                    StringBuilder echo = new StringBuilder(">>>");
                    for (byte[] w : words) {
                        echo.append(' ').append(Printable.token(w, true));
                    }
                    out.print(echo + "\n");
                }
                CommandResult result = runCommand(words);
                if (result == CommandResult.EXIT) {
                    return Outcome.EXIT;
                }
                failed = result == CommandResult.FAILED;
            }
        } catch (FDBException e) {
            failed = true;
            error("ERROR: " + e.getMessage() + " (" + e.getCode() + ")\n");
            rollBackAfterError();
        } catch (RuntimeException e) {
            // Not a database error (fdb-java refusing an argument, say): still one line, and
            // the transaction is left as after any error.
            failed = true;
            error("ERROR: " + (e.getMessage() == null ? e.toString() : e.getMessage()) + "\n");
            rollBackAfterError();
        } finally {
            out.flush();
            err.flush();
        }
        lastLineFailed = failed;
        return Outcome.CONTINUE;
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

    private void rollBackAfterError() {
        if (inTransaction) {
            out.print("Rolling back current transaction\n");
            inTransaction = false;
        }
    }

    private enum CommandResult { OK, FAILED, EXIT }

    private CommandResult runCommand(List<byte[]> words) {
        String name = new String(words.get(0), StandardCharsets.ISO_8859_1);
        if (HelpText.UNSUPPORTED.contains(name)) {
            error("ERROR: `" + name + "' is not supported on a single-process database"
                    + " (use fdbcli to manage a FoundationDB cluster).\n");
            return CommandResult.FAILED;
        }
        if (!HelpText.known(name)) {
            error("ERROR: Unknown command `" + Printable.token(words.get(0), false) + "'. Try `help'?\n");
            return CommandResult.FAILED;
        }
        boolean ok = switch (name) {
            case "exit", "quit" -> {
                yield true;
            }
            case "help" -> help(words);
            case "waitconnected" -> true;
            case "waitopen" -> {
                await(transaction().getReadVersion());
                yield true;
            }
            case "sleep" -> sleep(words);
            case "status" -> status.run(words, execMode);
            case "begin" -> begin(words);
            case "commit" -> commitCommand(words);
            case "reset" -> reset(words);
            case "rollback" -> rollback(words);
            case "get" -> get(words);
            case "getversion" -> getVersion(words);
            case "getrange", "getrangekeys" -> getRange(words, name.equals("getrangekeys"));
            case "writemode" -> writeMode(words);
            case "set" -> set(words);
            case "clear" -> clear(words);
            case "clearrange" -> clearRange(words);
            case "option" -> option(words);
            default -> throw new IllegalStateException("no handler for " + name);
        };
        if (name.equals("exit") || name.equals("quit")) {
            return CommandResult.EXIT;
        }
        return ok ? CommandResult.OK : CommandResult.FAILED;
    }

    private boolean usage(String command) {
        HelpText.usage(out, command);
        return false;
    }

    private boolean help(List<byte[]> words) {
        if (words.size() == 1) {
            HelpText.overview(out);
        } else if (words.size() == 2) {
            String topic = new String(words.get(1), StandardCharsets.ISO_8859_1);
            switch (topic) {
                case "escaping" -> HelpText.escaping(out);
                case "options" -> HelpText.options(out);
                case "help" -> HelpText.overview(out);
                default -> HelpText.command(out, topic, words.get(1));
            }
        } else {
            out.print("Usage: help [topic]\n");
        }
        return true;
    }

    private boolean sleep(List<byte[]> words) {
        if (words.size() != 2) {
            return usage("sleep");
        }
        double seconds;
        try {
            seconds = Double.parseDouble(new String(words.get(1), StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            return usage("sleep");
        }
        try {
            Thread.sleep((long) (Math.max(0, seconds) * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    // ---- transactions -------------------------------------------------------------------

    /**
     * fdbcli's {@code getTransaction}: the open transaction inside {@code begin}, else a new
     * one with the options of all transactions.
     */
    private Transaction transaction() {
        if (tr == null || !inTransaction) {
            newTransaction();
        }
        return tr;
    }

    private void newTransaction() {
        if (tr != null) {
            tr.close();
        }
        tr = db.createTransaction();
        options().applyTo(tr);
    }

    /** The options in force: the transaction's inside {@code begin}, else those of all transactions. */
    private EnabledOptions options() {
        return inTransaction ? transactionOptions : globalOptions;
    }

    private boolean begin(List<byte[]> words) {
        if (words.size() != 1) {
            return usage("begin");
        }
        if (inTransaction) {
            error("ERROR: Already in transaction\n");
            return false;
        }
        transactionOptions = globalOptions.copy();
        inTransaction = true;
        newTransaction();
        out.print("Transaction started\n");
        return true;
    }

    private boolean commitCommand(List<byte[]> words) {
        if (words.size() > 2) {
            return usage("commit");
        }
        if (!inTransaction) {
            error("ERROR: No active transaction\n");
            return false;
        }
        commit(tr);
        inTransaction = false;
        return true;
    }

    /** Commits and prints what fdbcli's {@code commitTransaction} prints. */
    private void commit(Transaction t) {
        await(t.commit());
        long version = t.getCommittedVersion();
        out.print(version != -1 ? "Committed (" + version + ")\n" : "Nothing to commit\n");
    }

    private boolean reset(List<byte[]> words) {
        if (words.size() != 1) {
            return usage("reset");
        }
        if (!inTransaction) {
            error("ERROR: No active transaction\n");
            return false;
        }
        // fdb-java has no Transaction.reset(): a new transaction is what a reset one is
        // (no writes, no read version, the options given again).
        transactionOptions = globalOptions.copy();
        newTransaction();
        out.print("Transaction reset\n");
        return true;
    }

    private boolean rollback(List<byte[]> words) {
        if (words.size() != 1) {
            return usage("rollback");
        }
        if (!inTransaction) {
            error("ERROR: No active transaction\n");
            return false;
        }
        inTransaction = false;
        out.print("Transaction rolled back\n");
        return true;
    }

    // ---- reads ----------------------------------------------------------------------------

    private boolean get(List<byte[]> words) {
        if (words.size() != 2) {
            return usage("get");
        }
        byte[] key = words.get(1);
        byte[] value = await(transaction().get(key));
        if (value != null) {
            out.print("`" + Printable.printable(key) + "' is `" + Printable.printable(value) + "'\n");
        } else {
            out.print("`" + Printable.printable(key) + "': not found\n");
        }
        return true;
    }

    private boolean getVersion(List<byte[]> words) {
        if (words.size() != 1) {
            return usage("getversion");
        }
        out.print(await(transaction().getReadVersion()) + "\n");
        return true;
    }

    private boolean getRange(List<byte[]> words, boolean keysOnly) {
        String command = keysOnly ? "getrangekeys" : "getrange";
        if (words.size() < 2 || words.size() > 4) {
            return usage(command);
        }
        int limit = DEFAULT_RANGE_LIMIT;
        if (words.size() == 4) {
            limit = parseLimit(words.get(3));
            if (limit < 0) {
                error("ERROR: bad limit\n");
                return false;
            }
        }
        byte[] begin = words.get(1);
        byte[] end = words.size() >= 3 ? words.get(2) : impliedEnd(begin);
        requireOrdered(begin, end);
        Transaction t = transaction();
        // fdb-java reads a limit of 0 as "no limit"; fdbcli's 0 reads nothing (RYW returns at once).
        List<KeyValue> rows = limit == 0 ? List.of() : await(t.getRange(begin, end, limit).asList());
        out.print("\nRange limited to " + limit + " keys\n");
        for (KeyValue kv : rows) {
            if (keysOnly) {
                out.print("`" + Printable.printable(kv.getKey()) + "'\n");
            } else {
                out.print("`" + Printable.printable(kv.getKey()) + "' is `" + Printable.printable(kv.getValue()) + "'\n");
            }
        }
        out.print("\n");
        return true;
    }

    /** fdbcli's limit: at most 9 decimal digits and nothing else (the empty word is 0); -1 when bad. */
    static int parseLimit(byte[] word) {
        if (word.length > 9) {
            return -1;
        }
        int limit = 0;
        for (byte b : word) {
            if (b < '0' || b > '9') {
                return -1;
            }
            limit = limit * 10 + (b - '0');
        }
        return limit;
    }

    /** The end of a range given by its begin alone: every key with that prefix, as fdbcli reads it. */
    static byte[] impliedEnd(byte[] begin) {
        if (begin.length == 0) {
            return NORMAL_END;
        }
        if (Arrays.equals(begin, NORMAL_END)) {
            return SYSTEM_END;
        }
        if (Arrays.compareUnsigned(begin, SYSTEM_END) >= 0) {
            throw new FDBException("Key outside legal range", 2004);
        }
        return ByteArrayUtil.strinc(begin);
    }

    /** fdbcli builds a {@code KeyRangeRef}, whose constructor refuses an inverted range. */
    private static void requireOrdered(byte[] begin, byte[] end) {
        if (Arrays.compareUnsigned(begin, end) > 0) {
            throw new FDBException("Range begin key larger than end key", 2005);
        }
    }

    // ---- writes ---------------------------------------------------------------------------

    private boolean writeMode(List<byte[]> words) {
        if (words.size() != 2) {
            return usage("writemode");
        }
        String state = new String(words.get(1), StandardCharsets.ISO_8859_1);
        switch (state) {
            case "on" -> writeMode = true;
            case "off" -> writeMode = false;
            default -> {
                return usage("writemode");
            }
        }
        return true;
    }

    private boolean refuseWithoutWriteMode() {
        if (!writeMode) {
            error("ERROR: writemode must be enabled to set or clear keys in the database.\n");
            return true;
        }
        return false;
    }

    private boolean set(List<byte[]> words) {
        if (refuseWithoutWriteMode()) {
            return false;
        }
        if (words.size() != 3) {
            return usage("set");
        }
        Transaction t = transaction();
        t.set(words.get(1), words.get(2));
        commitIfAutocommit(t);
        return true;
    }

    private boolean clear(List<byte[]> words) {
        if (refuseWithoutWriteMode()) {
            return false;
        }
        if (words.size() != 2) {
            return usage("clear");
        }
        Transaction t = transaction();
        t.clear(words.get(1));
        commitIfAutocommit(t);
        return true;
    }

    private boolean clearRange(List<byte[]> words) {
        if (refuseWithoutWriteMode()) {
            return false;
        }
        if (words.size() != 3) {
            return usage("clearrange");
        }
        requireOrdered(words.get(1), words.get(2));
        Transaction t = transaction();
        t.clear(words.get(1), words.get(2));
        commitIfAutocommit(t);
        return true;
    }

    private void commitIfAutocommit(Transaction t) {
        if (!inTransaction) {
            commit(t);
        }
    }

    // ---- options --------------------------------------------------------------------------

    private boolean option(List<byte[]> words) {
        if (words.size() == 2 || words.size() > 4) {
            return usage("option");
        }
        if (words.size() == 1) {
            if (options().isEmpty()) {
                error("There are no options enabled\n");
            } else {
                out.print("\nCurrently enabled options:\n\n");
                options().print(out);
                out.print("\n");
            }
            return true;
        }
        String state = new String(words.get(1), StandardCharsets.ISO_8859_1);
        boolean on;
        if (state.equals("on")) {
            on = true;
        } else if (state.equals("off")) {
            if (inTransaction) {
                error("ERROR: Cannot turn option off when using a transaction created with `begin'\n");
                return false;
            }
            if (words.size() > 3) {
                error("ERROR: Cannot specify option argument when turning option off\n");
                return false;
            }
            on = false;
        } else {
            error("ERROR: Invalid option state `" + Printable.token(words.get(1), false)
                    + "': option must be turned `on' or `off'\n");
            return false;
        }
        String name = new String(words.get(2), StandardCharsets.ISO_8859_1);
        OptionCatalog.Option option = OptionCatalog.byName(name);
        if (option == null) {
            error("ERROR: invalid option '" + name + "'. Try `help options' for a list of available options.\n");
            return false;
        }
        byte[] parameter = words.size() > 3 ? words.get(3) : null;
        if (on) {
            if ((parameter != null) != option.hasParameter()) {
                error("ERROR: option " + (parameter != null ? "did not expect" : "expected") + " a parameter\n");
                return false;
            }
            if (parameter != null && option.type() == OptionCatalog.ParamType.INT) {
                Long value = parseInteger(new String(parameter, StandardCharsets.ISO_8859_1));
                if (value == null) {
                    error("ERROR: could not parse value `" + new String(parameter, StandardCharsets.ISO_8859_1)
                            + "' as an integer\n");
                    return false;
                }
                parameter = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
            }
        }
        if (inTransaction) {
            // Inside `begin', fdbcli sets the option on the open transaction at once. If the
            // database refuses it, fdbcli fails the command but keeps the transaction.
            try {
                tr.options().getOptionConsumer().setOption(option.code(), parameter);
            } catch (FDBException e) {
                error("ERROR: " + e.getMessage() + " (" + e.getCode() + ")\n");
                return false;
            }
        }
        options().set(option, on, parameter);
        out.print("Option " + (on ? "enabled" : "disabled") + " for "
                + (inTransaction ? "current transaction" : "all transactions") + "\n");
        return true;
    }

    /**
     * C++'s {@code std::stoll} as fdbcli uses it: leading blanks, an optional sign, decimal
     * digits, and nothing after them; null when that is not the whole text or it overflows.
     */
    static Long parseInteger(String text) {
        String t = text.stripLeading();
        int p = 0;
        if (p < t.length() && (t.charAt(p) == '+' || t.charAt(p) == '-')) {
            p++;
        }
        if (p == t.length()) {
            return null;
        }
        for (int i = p; i < t.length(); i++) {
            if (t.charAt(i) < '0' || t.charAt(i) > '9') {
                return null;
            }
        }
        try {
            return Long.parseLong(t.charAt(0) == '+' ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---- plumbing -------------------------------------------------------------------------

    /** The result of {@code future}, with fdb-java's {@link CompletionException} unwrapped to its cause. */
    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** Closes the open transaction, if any; the database is the caller's. */
    @Override
    public void close() {
        if (tr != null) {
            tr.close();
            tr = null;
        }
    }
}
