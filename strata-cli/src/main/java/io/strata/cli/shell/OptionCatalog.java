package io.strata.cli.shell;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The transaction options the {@code option} command knows, by the names fdbcli uses: each
 * {@code TransactionOption} of FoundationDB 7.3's {@code fdb.options}, upper-cased, with its
 * code and parameter type. fdbcli accepts every one of them, hidden and deprecated ones
 * included, and lists in {@code help options} those it calls documented (a description that
 * does not begin with "Deprecated"); so does this catalog. The descriptions are this
 * project's own one-line summaries; fdb-java's {@code TransactionOptions} has the full text.
 *
 * <p>Whether an option does anything is the database's business: the shell hands the code
 * and parameter to {@code Transaction.options().getOptionConsumer()}, so the engine (or a real
 * cluster) accepts or refuses it as it would from any program.
 */
public final class OptionCatalog {
    /** How an option's parameter is typed on the command line and passed to the database. */
    public enum ParamType {
        /** No parameter. */
        NONE,
        /** A decimal integer, passed as 8 bytes little-endian. */
        INT,
        /** Text, passed as its bytes. */
        STRING,
        /** Bytes, passed as they are. */
        BYTES
    }

    /**
     * One option.
     *
     * @param name        fdbcli's name (upper case)
     * @param code        its code in {@code fdb.options}
     * @param type        its parameter's type
     * @param description what it does, or empty (undocumented), or starting "Deprecated"
     * @param parameter   what its parameter means, or null when it takes none
     */
    public record Option(String name, int code, ParamType type, String description, String parameter) {
        /** Whether a parameter must be given (fdbcli: the option has a parameter description). */
        public boolean hasParameter() {
            return parameter != null;
        }

        /** Whether {@code help options} lists it. */
        public boolean documented() {
            return !description.isEmpty() && !description.startsWith("Deprecated");
        }
    }

    private static final Map<String, Option> BY_NAME = new TreeMap<>();

    static {
        add("CAUSAL_WRITE_RISKY", 10, "The transaction may commit a second time after a successful commit if a fault occurs (unless it conflicts with itself).");
        add("CAUSAL_READ_RISKY", 20, "The read version may, under a simultaneous fault and clock skew, not be the latest committed one.");
        add("CAUSAL_READ_DISABLE", 21, "");
        add("INCLUDE_PORT_IN_ADDRESS", 23, "Addresses of a key include the port; the default since API version 630, so setting it changes nothing.");
        add("NEXT_WRITE_NO_WRITE_CONFLICT_RANGE", 30, "The next write of this transaction adds no write conflict range, so readers of that key do not conflict with it.");
        add("COMMIT_ON_FIRST_PROXY", 40, "Commit through the first commit proxy instead of the load-balanced one.");
        add("CHECK_WRITES_ENABLE", 50, "");
        add("READ_YOUR_WRITES_DISABLE", 51, "Reads see the database at the read version, not this transaction's own writes; set it before any read or write.");
        add("READ_AHEAD_DISABLE", 52, "Deprecated");
        add("READ_SERVER_SIDE_CACHE_ENABLE", 507, "Storage servers cache the disk blocks these reads need (the default).");
        add("READ_SERVER_SIDE_CACHE_DISABLE", 508, "Storage servers do not cache the disk blocks these reads need.");
        add("READ_PRIORITY_NORMAL", 509, "Later reads of this transaction run at normal priority (the default).");
        add("READ_PRIORITY_LOW", 510, "Later reads of this transaction run at low priority.");
        add("READ_PRIORITY_HIGH", 511, "Later reads of this transaction run at high priority.");
        add("DURABILITY_DATACENTER", 110, "");
        add("DURABILITY_RISKY", 120, "");
        add("DURABILITY_DEV_NULL_IS_WEB_SCALE", 130, "Deprecated");
        add("PRIORITY_SYSTEM_IMMEDIATE", 200, "Highest priority: lower priority transactions wait behind it. For low-level tools.");
        add("PRIORITY_BATCH", 201, "Low priority: default priority work goes first, and batch work is throttled sooner.");
        add("INITIALIZE_NEW_DATABASE", 300, "A write-only transaction that sets the initial configuration. For system tools.");
        add("ACCESS_SYSTEM_KEYS", 301, "Read and write system keys (those starting with byte 0xFF). Implies RAW_ACCESS.");
        add("READ_SYSTEM_KEYS", 302, "Read system keys (those starting with byte 0xFF). Implies RAW_ACCESS.");
        add("RAW_ACCESS", 303, "Access the raw key space when tenant mode is on.");
        add("BYPASS_STORAGE_QUOTA", 304, "Skip storage quota enforcement, for work that shrinks a tenant group's data.");
        add("DEBUG_DUMP", 400, "");
        add("DEBUG_RETRY_LOGGING", 401, ParamType.STRING, "", "Optional transaction name");
        add("TRANSACTION_LOGGING_ENABLE", 402, ParamType.STRING, "Deprecated", "Identifier used in the logs for this transaction (at most 100 characters)");
        add("DEBUG_TRANSACTION_IDENTIFIER", 403, ParamType.STRING,
                "An identifier for this transaction in tracing and profiling (which must be enabled separately).",
                "Identifier (at most 100 characters)");
        add("LOG_TRANSACTION", 404, "Trace this transaction to the client trace logs; needs DEBUG_TRANSACTION_IDENTIFIER first.");
        add("TRANSACTION_LOGGING_MAX_FIELD_LENGTH", 405, ParamType.INT,
                "Longest escaped key or value field that LOG_TRANSACTION writes; negative means no limit.",
                "Maximum length of escaped key and value fields");
        add("SERVER_REQUEST_TRACING", 406, "Servers log this transaction's commit under a random identifier, to diagnose slow clusters.");
        add("TIMEOUT", 500, ParamType.INT,
                "Cancel the transaction after this many milliseconds (0 disables timeouts); kept across onError.",
                "Value in milliseconds of timeout");
        add("RETRY_LIMIT", 501, ParamType.INT,
                "Most retries onError allows before it throws the last error (-1 for no limit); kept across onError.",
                "Number of times to retry");
        add("MAX_RETRY_DELAY", 502, ParamType.INT,
                "Longest backoff onError waits, in milliseconds (default 1000); kept across onError.",
                "Value in milliseconds of maximum delay");
        add("SIZE_LIMIT", 503, ParamType.INT,
                "Largest commit allowed, in bytes: 32 to 10,000,000 (the default).",
                "Value in bytes");
        add("IDEMPOTENCY_ID", 504, ParamType.STRING,
                "Tag the transaction with an id (16 to 255 bytes) to learn later whether it committed. In development.",
                "Unique ID");
        add("AUTOMATIC_IDEMPOTENCY", 505, "Give the transaction a random idempotency id so that commit never fails with commit_unknown_result. In development.");
        add("SNAPSHOT_RYW_ENABLE", 600, "Snapshot reads see this transaction's own writes (the default).");
        add("SNAPSHOT_RYW_DISABLE", 601, "Snapshot reads do not see this transaction's own writes.");
        add("LOCK_AWARE", 700, "Read and write a locked database; the transaction checks the lock itself.");
        add("USED_DURING_COMMIT_PROTECTION_DISABLE", 701, "An operation during commit fails alone, without failing the commit too.");
        add("READ_LOCK_AWARE", 702, "Read a locked database.");
        add("FIRST_IN_BATCH", 710, "No other transaction is applied before this one in its commit version.");
        add("USE_PROVISIONAL_PROXIES", 711, "For tools that change the database configuration.");
        add("REPORT_CONFLICTING_KEYS", 712, "Record which keys conflicted, readable after a conflict under \\xff\\xff/transaction/conflicting_keys/.");
        add("SPECIAL_KEY_SPACE_RELAXED", 713, "Reads of the special key space may span zero or several modules.");
        add("SPECIAL_KEY_SPACE_ENABLE_WRITES", 714, "Allow writes to special keys, with the options such a change needs.");
        add("TAG", 800, ParamType.STRING,
                "Add a tag for manual throttling (at most 5 tags per transaction).",
                "Tag (at most 16 characters)");
        add("AUTO_THROTTLE_TAG", 801, ParamType.STRING,
                "Add a tag for manual or automatic throttling (at most 5 tags per transaction).",
                "Tag (at most 16 characters)");
        add("SPAN_PARENT", 900, ParamType.BYTES,
                "Make this transaction's span a child of the given one, for tracing.",
                "Serialized 33-byte span context");
        add("EXPENSIVE_CLEAR_COST_ESTIMATION_ENABLE", 1000, "Ask storage servers how many bytes a cleared range holds instead of estimating.");
        add("BYPASS_UNREADABLE", 1100, "Reads of keys made unreadable by versionstamp operations see those operations as plain sets.");
        add("USE_GRV_CACHE", 1101, "Use the database's cached read version (needs the disable_client_bypass database option).");
        add("SKIP_GRV_CACHE", 1102, "Never use the cached read version.");
        add("AUTHORIZATION_TOKEN", 2000, ParamType.STRING,
                "Attach an authorization token for the tenants it names.",
                "JSON Web Token");
    }

    private OptionCatalog() {}

    private static void add(String name, int code, String description) {
        add(name, code, ParamType.NONE, description, null);
    }

    private static void add(String name, int code, ParamType type, String description, String parameter) {
        BY_NAME.put(name, new Option(name, code, type, description, parameter));
    }

    /** The option fdbcli calls {@code name} (exact, case-sensitive), or null. */
    public static Option byName(String name) {
        return BY_NAME.get(name);
    }

    /** Every option, by name in byte order, as fdbcli lists them. */
    public static Map<String, Option> all() {
        return Collections.unmodifiableMap(BY_NAME);
    }
}
