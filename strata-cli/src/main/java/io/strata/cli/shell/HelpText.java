package io.strata.cli.shell;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The shell's {@code help}: the commands it knows, their usage lines (fdbcli's, word for word,
 * since {@code Usage:} lines are what scripts and users compare), and the layout of fdbcli's
 * help pages ({@code printHelpOverview}, {@code printHelp}, {@code printAtCol} wrapping at 80
 * columns). The descriptions are this project's words.
 */
final class HelpText {
    /**
     * One command's help.
     *
     * @param usage   the usage line
     * @param summary a short phrase (lower case, no full stop); empty for commands left out of
     *                the overview, such as {@code quit}
     * @param details a paragraph or more, or empty
     */
    record Entry(String usage, String summary, String details) {}

    private static final String ESCAPING_KEYS = "\n\nFor how to write keys with spaces or binary bytes, type `help escaping'.";
    private static final String ESCAPING_KEYS_VALUES =
            "\n\nFor how to write keys and values with spaces or binary bytes, type `help escaping'.";

    private static final Map<String, Entry> COMMANDS = new TreeMap<>();

    /**
     * fdbcli commands that manage a FoundationDB cluster (processes, coordinators,
     * configuration, tenants, backups...): a single-process database has none of that, so the
     * shell answers each with one line and carries on.
     */
    static final Set<String> UNSUPPORTED = Collections.unmodifiableSet(new TreeSet<>(List.of(
            "advanceversion", "audit_storage", "blobkey", "blobrange", "blobrestore", "cache_range", "changefeed",
            "checkall", "configure", "configuretenant", "consistencycheck", "consistencyscan", "coordinators",
            "createtenant", "datadistribution", "defaulttenant", "deletetenant", "exclude", "expensive_data_check",
            "fileconfigure", "force_recovery_with_data_loss", "get_audit_status", "getall", "getknob", "getlocation",
            "gettenant", "hotrange", "idempotencyids", "include", "kill", "listtenants", "location_metadata", "lock",
            "maintenance", "metacluster", "profile", "quota", "rangeconfig", "renametenant", "setclass", "setknob",
            "snapshot", "suspend", "tenant", "tenantgroup", "throttle", "triggerddteaminfolog", "tssq", "unlock",
            "usetenant", "versionepoch")));

    static {
        add("begin", "begin", "start a transaction",
                "Outside a transaction every command runs in a transaction of its own, committed at once. After "
                        + "`begin', the commands that follow share one transaction until `commit' makes its writes "
                        + "durable, or `rollback' or `reset' discard them.");
        add("commit", "commit [description]", "commit the current transaction",
                "Commits the sets and clears made since `begin' and prints the version they were committed at. "
                        + "If the commit fails (a conflict, for instance), the error is printed and the transaction is "
                        + "rolled back: run it again. The optional description is accepted for fdbcli's sake and "
                        + "ignored: there is no configuration database here.");
        add("clear", "clear <KEY>", "clear a key",
                "Removes KEY. Succeeds whether or not KEY is present, but can fail with a conflict." + ESCAPING_KEYS);
        add("clearrange", "clearrange <BEGINKEY> <ENDKEY>", "clear a range of keys",
                "Removes every key from BEGINKEY (included) to ENDKEY (excluded). Succeeds even when the range is "
                        + "empty, but can fail with a conflict." + ESCAPING_KEYS);
        add("exit", "exit", "leave the shell", "");
        add("quit", "", "", "");
        add("waitconnected", "", "", "");
        add("waitopen", "", "", "");
        add("sleep", "sleep <SECONDS>", "wait a number of seconds", "");
        add("get", "get <KEY>", "read the value of a key",
                "Prints the value of KEY, or `not found' when it has none." + ESCAPING_KEYS);
        add("getrange", "getrange <BEGINKEY> [ENDKEY] [LIMIT]", "read the keys and values of a range",
                "Prints at most LIMIT keys with their values, from BEGINKEY (included) to ENDKEY (excluded). "
                        + "Without ENDKEY, the range is every key that starts with BEGINKEY. LIMIT is 25 when "
                        + "not given." + ESCAPING_KEYS);
        add("getrangekeys", "getrangekeys <BEGINKEY> [ENDKEY] [LIMIT]", "read the keys of a range",
                "Prints at most LIMIT keys, from BEGINKEY (included) to ENDKEY (excluded). Without ENDKEY, the "
                        + "range is every key that starts with BEGINKEY. LIMIT is 25 when not given." + ESCAPING_KEYS);
        add("getversion", "getversion", "print the current read version",
                "Prints the read version of the current transaction, or of a new one outside a transaction.");
        add("reset", "reset", "discard the current transaction's work",
                "Discards the sets and clears made since `begin' and keeps the transaction open, with the "
                        + "options of all transactions again.");
        add("rollback", "rollback", "discard the current transaction",
                "Discards the transaction opened by `begin', with every set and clear made in it.");
        add("set", "set <KEY> <VALUE>", "write a value for a key",
                "Writes VALUE for KEY, creating KEY if it is not there. Needs `writemode on'." + ESCAPING_KEYS_VALUES);
        add("option", "option <STATE> <OPTION> <ARG>", "switch a transaction option on or off",
                "With STATE `on', switches OPTION on, with ARG when the option takes a parameter; with `off', "
                        + "switches it off.\n\nOutside a transaction the option applies to every transaction from "
                        + "then on, those opened by `begin' included. Inside a transaction opened by `begin' it "
                        + "applies to that transaction only, and cannot be switched off.\n\n`option' alone lists "
                        + "the options switched on.\n\nFor the options and what they do, type `help options'.");
        add("help", "help [<topic>]", "get help about a topic or command", "");
        add("writemode", "writemode <on|off>", "allow or refuse sets and clears",
                "Sets and clears are refused until `writemode on', so that a slip at the prompt cannot change data.");
        add("status", "status [minimal|details|json]", "print the status of the database",
                "Prints the database's status document (the special key \\xff\\xff/status/json) as fdbcli does.\n\n"
                        + "`minimal' says only whether the database is available; `details' adds each process; "
                        + "`json' prints the whole document.");
    }

    private HelpText() {}

    private static void add(String name, String usage, String summary, String details) {
        COMMANDS.put(name, new Entry(usage, summary, details));
    }

    /** Whether {@code name} is a command of this shell (including those listed nowhere, like {@code quit}). */
    static boolean known(String name) {
        return COMMANDS.containsKey(name);
    }

    /** The help of {@code name}, or null. */
    static Entry entry(String name) {
        return COMMANDS.get(name);
    }

    /** Every command name of the shell, for completion. */
    static Set<String> commandNames() {
        return Collections.unmodifiableSet(COMMANDS.keySet());
    }

    /** fdbcli's {@code printUsage}: "Usage: ..." on stdout. */
    static void usage(PrintWriter out, String command) {
        Entry e = COMMANDS.get(command);
        out.print("Usage: " + (e == null ? command : e.usage()) + "\n");
    }

    /** {@code help} alone: every command with a summary, in name order. */
    static void overview(PrintWriter out) {
        out.print("\nList of commands:\n\n");
        COMMANDS.forEach((name, e) -> {
            if (!e.summary().isEmpty()) {
                out.print(" " + name + ":\n      " + e.summary() + "\n");
            }
        });
        out.print("\nFor information on a specific command, type `help <command>'.");
        out.print("\nFor information on escaping keys and values, type `help escaping'.");
        out.print("\nFor information on available options, type `help options'.\n\n");
        out.print(LineWrap.printAtCol(
                "Not supported on a single-process database: " + String.join(", ", UNSUPPORTED) + ".", 80));
        out.print("\n");
    }

    /** {@code help COMMAND}. */
    static void command(PrintWriter out, String name, byte[] asTyped) {
        Entry e = COMMANDS.get(name);
        if (e == null || e.summary().isEmpty()) {
            if (UNSUPPORTED.contains(name)) {
                out.print("`" + name + "' is not supported on a single-process database.\n");
            } else {
                out.print("I don't know anything about `" + Printable.token(asTyped, false) + "'\n");
            }
            return;
        }
        out.print("\n" + e.usage() + "\n\n");
        out.print(Character.toUpperCase(e.summary().charAt(0)) + e.summary().substring(1) + ".\n");
        if (!e.details().isEmpty()) {
            out.print("\n");
            out.print(LineWrap.printAtCol(e.details(), 80));
        }
        out.print("\n");
    }

    /** {@code help escaping}: the tokenizer's rules ({@link Tokenizer}) and the printed form ({@link Printable}). */
    static void escaping(PrintWriter out) {
        out.print("""

                A space separates the words of a command, and `;' separates commands. To put a space
                in a word, quote the word ("hello world"), put a backslash before the space
                (hello\\ world), or write the byte in hex (hello\\x20world). A backslash also makes
                a quotation mark, a semicolon or a backslash literal: \\", \\; and \\\\.

                Any byte can be written as \\x and two hex digits, or as \\u and four hex digits from
                0000 to 00FF: \\x0a\\x00\\x00\\x00 and \\u000a\\u0000\\u0000\\u0000 are both the 32-bit
                little-endian integer 10, and the two forms can be mixed.

                Keys and values are printed with each byte that is not printable ASCII written as
                \\x and two hex digits, and each backslash doubled, so that what is printed can be
                typed back in.

                """);
    }

    /** {@code help options}: every documented option, wrapped at 80 columns. */
    static void options(PrintWriter out) {
        out.print("\nThe following options are available to be set using the `option' command:\n\n");
        for (OptionCatalog.Option o : OptionCatalog.all().values()) {
            if (o.documented()) {
                String text = o.name() + " - " + o.description();
                if (o.hasParameter()) {
                    text += " (" + typeName(o.type()) + ") " + o.parameter();
                }
                out.print(LineWrap.printAtCol(text + "\n", 80));
            }
        }
    }

    private static String typeName(OptionCatalog.ParamType type) {
        return switch (type) {
            case INT -> "Int";
            case STRING -> "String";
            case BYTES -> "Bytes";
            case NONE -> "None";
        };
    }
}
