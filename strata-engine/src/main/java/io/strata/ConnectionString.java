package io.strata;

import io.strata.engine.client.Completion;
import io.strata.engine.durability.Durability;
import io.strata.engine.fault.FaultPolicy;
import io.strata.engine.fault.LatencyModel;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A Strata connection string: what a FoundationDB cluster file (or the {@code strata.database}
 * setting) holds to name a Strata database instead of a FoundationDB cluster.
 *
 * <pre>
 * strata:memory                      the default in-memory database of this JVM
 * strata:memory:NAME                 the in-memory database NAME of this JVM
 * strata:PATH                        the durable database in directory PATH
 * strata:PATH?durability=os_buffered&amp;latency=cluster&amp;faults=seed:42,not_committed:0.05
 * </pre>
 *
 * <p>A relative {@code PATH} is resolved against the directory of the cluster file that holds
 * it (or against the working directory for a string given directly), as FoundationDB resolves
 * nothing relative but users expect a cluster file beside its data to keep working when the
 * two move together. Options, after {@code ?}, joined by {@code &}:
 * <ul>
 *   <li>{@code durability=fsync|os_buffered} — see {@link Durability}; durable databases only;</li>
 *   <li>{@code latency=none|cluster|RV/READ/COMMIT} — the {@link LatencyModel}, the last form in
 *       microseconds (e.g. {@code 1000/1000/4000});</li>
 *   <li>{@code faults=seed:S[,not_committed:P][,unknown_result_committed:P]
 *       [,unknown_result_not_committed:P][,transaction_too_old:P]} — the {@link FaultPolicy};</li>
 *   <li>{@code completion=fdb_java|immediate} — how the futures of a handle opened through
 *       strata-fdb complete ({@link Completion}): {@code fdb_java}, the default, as fdb-java's,
 *       on the executor and never before the call returns; {@code immediate} as soon as the
 *       engine knows the answer, much faster, for code that does not rely on fdb-java's
 *       asynchronous completion. A property of each handle, not of the database.</li>
 * </ul>
 *
 * <p>As in a FoundationDB cluster file, {@code #} starts a comment that runs to the end of the
 * line, and the text is trimmed; line breaks inside are ignored. Anything that is not a Strata
 * string is either a FoundationDB one ({@link #looksLikeFoundationDb}: {@code description:id@addresses})
 * or invalid. Immutable.
 */
public final class ConnectionString {
    /** What every Strata connection string starts with. */
    public static final String SCHEME = "strata:";
    private static final String MEMORY = "memory";

    private final String text;
    private final String memoryName;
    private final Path directory;
    private final Durability durability;
    private final LatencyModel latency;
    private final FaultPolicy faults;
    private final Completion completion;
    /** The options that shape the engine, as written, for {@link #sameOptions}. */
    private final Map<String, String> options;

    private ConnectionString(String text, String memoryName, Path directory, Durability durability,
                             LatencyModel latency, FaultPolicy faults, Completion completion, Map<String, String> options) {
        this.text = text;
        this.memoryName = memoryName;
        this.directory = directory;
        this.durability = durability;
        this.latency = latency;
        this.faults = faults;
        this.completion = completion;
        this.options = options;
    }

    /** Whether {@code contents} (a cluster file's, comments allowed) holds a Strata connection string. */
    public static boolean isStrata(String contents) {
        return clean(contents).startsWith(SCHEME);
    }

    /**
     * Whether {@code contents} has the shape of a FoundationDB connection string,
     * {@code description:id@address[,address…]}, which only a FoundationDB cluster serves.
     */
    public static boolean looksLikeFoundationDb(String contents) {
        String s = clean(contents).replaceAll("\\s", "");
        int at = s.indexOf('@');
        return at > 0 && at < s.length() - 1 && s.substring(0, at).contains(":") && !s.startsWith(SCHEME);
    }

    /**
     * Parses a Strata connection string.
     *
     * @param contents      the string, or a cluster file's whole contents
     * @param baseDirectory what a relative path is resolved against
     * @throws IllegalArgumentException naming what is wrong, when it is not a valid Strata string
     */
    public static ConnectionString parse(String contents, Path baseDirectory) {
        Objects.requireNonNull(baseDirectory, "baseDirectory");
        String s = clean(contents);
        if (!s.startsWith(SCHEME)) {
            throw new IllegalArgumentException("not a Strata connection string (it must start with '" + SCHEME + "'): '" + s + "'");
        }
        String body = s.substring(SCHEME.length());
        Map<String, String> options = new LinkedHashMap<>();
        int question = body.indexOf('?');
        if (question >= 0) {
            parseOptions(body.substring(question + 1), options, s);
            body = body.substring(0, question);
        }
        if (body.isEmpty()) {
            throw new IllegalArgumentException("connection string '" + s + "' names no database: use 'strata:memory' or 'strata:PATH'");
        }
        String memoryName = null;
        Path directory = null;
        if (body.equals(MEMORY)) {
            memoryName = "default";
        } else if (body.startsWith(MEMORY + ":")) {
            memoryName = body.substring(MEMORY.length() + 1);
            if (memoryName.isEmpty()) {
                throw new IllegalArgumentException("connection string '" + s + "' has an empty in-memory database name");
            }
        } else {
            directory = baseDirectory.resolve(body).toAbsolutePath().normalize();
        }
        Durability durability = Durability.FSYNC;
        LatencyModel latency = LatencyModel.none();
        FaultPolicy faults = FaultPolicy.none();
        Completion completion = Completion.FDB_JAVA;
        for (Map.Entry<String, String> option : options.entrySet()) {
            String value = option.getValue();
            switch (option.getKey()) {
                case "durability" -> {
                    if (memoryName != null) {
                        throw new IllegalArgumentException("connection string '" + s + "': durability applies to durable databases only");
                    }
                    durability = parseDurability(value, s);
                }
                case "latency" -> latency = parseLatency(value, s);
                case "faults" -> faults = parseFaults(value, s);
                case "completion" -> completion = parseCompletion(value, s);
                default -> throw new IllegalArgumentException("connection string '" + s + "': unknown option '" + option.getKey()
                        + "' (known: durability, latency, faults, completion)");
            }
        }
        Map<String, String> engineOptions = new LinkedHashMap<>(options);
        engineOptions.remove("completion");
        return new ConnectionString(s, memoryName, directory, durability, latency, faults, completion, Map.copyOf(engineOptions));
    }

    /**
     * The text of a cluster file without comments, line breaks or surrounding blanks — what
     * FoundationDB's parser reads, but for blanks inside, which a Strata path may contain
     * (FoundationDB drops every blank of its connection strings).
     */
    public static String clean(String contents) {
        StringBuilder out = new StringBuilder(contents.length());
        boolean comment = false;
        for (int i = 0; i < contents.length(); i++) {
            char c = contents.charAt(i);
            if (c == '\n' || c == '\r') {
                comment = false;
            } else if (c == '#') {
                comment = true;
            } else if (!comment) {
                out.append(c);
            }
        }
        return out.toString().strip();
    }

    private static void parseOptions(String query, Map<String, String> into, String whole) {
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                throw new IllegalArgumentException("connection string '" + whole + "': option '" + pair + "' is not name=value");
            }
            String name = pair.substring(0, eq).toLowerCase(Locale.ROOT);
            if (into.put(name, pair.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("connection string '" + whole + "': option '" + name + "' given twice");
            }
        }
    }

    private static Durability parseDurability(String value, String whole) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "fsync" -> Durability.FSYNC;
            case "os_buffered" -> Durability.OS_BUFFERED;
            default -> throw new IllegalArgumentException("connection string '" + whole + "': durability must be fsync or os_buffered, got '" + value + "'");
        };
    }

    private static Completion parseCompletion(String value, String whole) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "fdb_java" -> Completion.FDB_JAVA;
            case "immediate" -> Completion.IMMEDIATE;
            default -> throw new IllegalArgumentException("connection string '" + whole + "': completion must be fdb_java or immediate, got '"
                    + value + "'");
        };
    }

    private static LatencyModel parseLatency(String value, String whole) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "none":
                return LatencyModel.none();
            case "cluster":
                return LatencyModel.cluster();
            default:
                String[] parts = value.split("/", -1);
                try {
                    if (parts.length == 3) {
                        return new LatencyModel(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
                    }
                } catch (IllegalArgumentException e) {
                    // falls through to the message below, which says what is expected
                }
                throw new IllegalArgumentException("connection string '" + whole + "': latency must be none, cluster or "
                        + "READ_VERSION/READ/COMMIT in microseconds (e.g. 1000/1000/4000), got '" + value + "'");
        }
    }

    private static FaultPolicy parseFaults(String value, String whole) {
        FaultPolicy.Builder builder = null;
        for (String item : value.split(",", -1)) {
            int colon = item.indexOf(':');
            String name = colon < 0 ? item : item.substring(0, colon).toLowerCase(Locale.ROOT);
            String number = colon < 0 ? "" : item.substring(colon + 1);
            try {
                if (builder == null) {
                    if (!name.equals("seed")) {
                        break;
                    }
                    builder = FaultPolicy.seeded(Long.parseLong(number));
                    continue;
                }
                double rate = Double.parseDouble(number);
                switch (name) {
                    case "not_committed" -> builder.notCommitted(rate);
                    case "unknown_result_committed" -> builder.unknownResultCommitted(rate);
                    case "unknown_result_not_committed" -> builder.unknownResultNotCommitted(rate);
                    case "transaction_too_old" -> builder.transactionTooOld(rate);
                    default -> throw new IllegalArgumentException("unknown fault '" + name + "'");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("connection string '" + whole + "': bad faults entry '" + item + "': " + e.getMessage()
                        + " (expected seed:S then not_committed:P, unknown_result_committed:P, "
                        + "unknown_result_not_committed:P, transaction_too_old:P)", e);
            }
        }
        if (builder == null) {
            throw new IllegalArgumentException("connection string '" + whole + "': faults must start with seed:S, got '" + value + "'");
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("connection string '" + whole + "': " + e.getMessage(), e);
        }
    }

    /** The string as written, without comments or surrounding blanks. */
    public String text() {
        return text;
    }

    /** Whether this names an in-memory database (else a durable directory). */
    public boolean inMemory() {
        return memoryName != null;
    }

    /** The in-memory database's name ({@code default} for {@code strata:memory}); null for a directory. */
    public String memoryName() {
        return memoryName;
    }

    /** The durable database's directory, absolute and normalized; null for an in-memory database. */
    public Path directory() {
        return directory;
    }

    public Durability durability() {
        return durability;
    }

    public LatencyModel latency() {
        return latency;
    }

    public FaultPolicy faults() {
        return faults;
    }

    /** How a handle opened through strata-fdb completes its futures (default {@link Completion#FDB_JAVA}). */
    public Completion completion() {
        return completion;
    }

    /**
     * What identifies the database within a JVM: two strings with the same target reach the
     * same data ({@code memory:NAME}, or the directory's absolute path).
     */
    public String target() {
        return inMemory() ? "memory:" + memoryName : directory.toString();
    }

    /** Whether {@code other} asks for the same engine as this (durability, latency, faults; not completion, a handle's). */
    public boolean sameOptions(ConnectionString other) {
        return options.equals(other.options);
    }

    /** A builder for this database, configured as the options say. */
    public Strata.Builder builder() {
        return Strata.builder().durability(durability).latency(latency).faults(faults);
    }

    @Override
    public String toString() {
        return text;
    }
}
