package io.strata.redis.command;

import io.strata.redis.protocol.ErrorText;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The commands a server knows, by name. Command groups register into it at start; after
 * that it is only read (by every connection at once, without locks: the maps are not changed
 * once the server runs).
 *
 * <p>A <em>container</em> command (CONFIG, CLIENT, COMMAND …) has subcommands, each a command
 * of its own named {@code container|sub} with its own arity, flags and handler, as in Redis 7:
 * {@link #resolve} picks the subcommand from the request's second argument.
 */
public final class CommandTable {
    private final Map<String, CommandSpec> byName = new TreeMap<>();
    private final Map<String, Map<String, CommandSpec>> subcommands = new TreeMap<>();
    /**
     * {@link #byName} again, with each container's subcommands, for lookups by a request's
     * bytes: one lookup finds both the command and where its subcommand would be.
     */
    private final CommandNames<Named> byRequestName = new CommandNames<>();
    private final Map<String, StagedArgument> stagedArguments = new HashMap<>();

    /**
     * An argument of a command that stands for a string value which may be too large for one
     * transaction (RESTORE's payload): its position, and the value it stands for (null when
     * it stands for none, or for something else than a string).
     */
    public record StagedArgument(int position, java.util.function.Function<byte[], byte[]> value) {
    }

    /** Declares that {@code command}'s argument {@code position} stands for a string value, for staging. */
    public void stagesValueOf(String command, int position, java.util.function.Function<byte[], byte[]> value) {
        stagedArguments.put(command.toLowerCase(Locale.ROOT), new StagedArgument(position, value));
    }

    /** The argument {@code command} declared with {@link #stagesValueOf}, or null. */
    public StagedArgument stagedArgument(String command) {
        return stagedArguments.get(command);
    }

    /**
     * Stages what an argument stands for when it is a value (not a string) too large to be
     * written in its command's transaction: RESTORE's payload of a big collection, COPY's and
     * MOVE's source key.
     */
    @FunctionalInterface
    public interface ObjectStager {
        /**
         * Writes the value the declared argument of {@code args} stands for into an object no
         * key names yet and registers it with {@link io.strata.redis.keyspace.LargeValues} under
         * that argument, for a request run in database {@code db}; null, or a future that
         * registers nothing, when it needs no staging (small, or not such a value, or a request
         * the command itself will refuse).
         */
        java.util.concurrent.CompletableFuture<?> stageIfLarge(ServerContext server, byte[][] args, int db);
    }

    private final Map<String, Map.Entry<Integer, ObjectStager>> objectStagers = new HashMap<>();
    /** The names in {@link #objectStagers}, lower-case bytes: a handful, checked before any lookup. */
    private byte[][] objectStagerNames = new byte[0][];

    /** Declares that {@code command}'s argument {@code position} may stand for a value {@code stager} stages. */
    public void stagesObjectOf(String command, int position, ObjectStager stager) {
        String name = command.toLowerCase(Locale.ROOT);
        if (objectStagers.put(name, Map.entry(position, stager)) == null) {
            objectStagerNames = java.util.Arrays.copyOf(objectStagerNames, objectStagerNames.length + 1);
            objectStagerNames[objectStagerNames.length - 1] = name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Whether a request named {@code requestName} (any case) may have an object to stage: false
     * for every command but the few declared with {@link #stagesObjectOf}, without the cost of a
     * command lookup, which every request of every batch would otherwise pay again.
     */
    public boolean mayStageObject(byte[] requestName) {
        for (byte[] name : objectStagerNames) {
            if (name.length == requestName.length && CommandNames.foldedEquals(name, requestName)) {
                return true;
            }
        }
        return false;
    }

    /** The argument position and stager {@code command} declared with {@link #stagesObjectOf}, or null. */
    public Map.Entry<Integer, ObjectStager> objectStager(String command) {
        return objectStagers.get(command);
    }

    /** Adds a command; its name must be new. */
    public void register(CommandSpec spec) {
        if (byName.putIfAbsent(spec.name(), spec) != null) {
            throw new IllegalStateException("command registered twice: " + spec.name());
        }
        byRequestName.put(spec.name(), new Named(spec, null));
    }

    /** A command as a request names it, and its subcommands when it is a container (else null). */
    private record Named(CommandSpec spec, CommandNames<CommandSpec> subcommands) {
    }

    private void subcommandsOf(String container) {
        String name = container.toLowerCase(Locale.ROOT);
        subcommands.put(name, new TreeMap<>());
        byRequestName.put(name, new Named(byName.get(name), new CommandNames<>()));
    }

    /**
     * Adds a command described the way Redis's command table reads.
     *
     * @param flags Redis flags separated by spaces, e.g. {@code "write denyoom fast"}
     * @param types the data-type categories, e.g. {@code "string"} or {@code "keyspace"}; the
     *     categories that follow from the flags ({@code read}, {@code write}, {@code fast} or
     *     {@code slow}, {@code admin} and {@code dangerous}, {@code pubsub}, {@code blocking})
     *     are added as Redis adds them
     */
    public void add(String name, int arity, String flags, int firstKey, int lastKey, int step, String types,
                    CommandSpec.Kind kind, CommandHandler handler) {
        Set<CommandFlag> parsed = parseFlags(flags);
        register(new CommandSpec(name, arity, parsed, firstKey, lastKey, step, categories(parsed, types), kind, handler));
    }

    /**
     * Adds a container command: it only dispatches to its subcommands (added with
     * {@link #addSubcommand}); Redis gives containers arity -2 and no flags.
     */
    public void addContainer(String name) {
        add(name, -2, "", 0, 0, 0, "", CommandSpec.Kind.LOCAL, (inv, tr) -> {
            throw new io.strata.redis.protocol.RedisException(unknownSubcommand(inv.arg(0), inv.arg(1)));
        });
        subcommandsOf(name);
    }

    /**
     * Adds a container command that also runs on its own when given no subcommand (COMMAND
     * with no argument lists every command); arguments as {@link #add}.
     */
    public void addContainer(String name, int arity, String flags, String types, CommandSpec.Kind kind, CommandHandler alone) {
        add(name, arity, flags, 0, 0, 0, types, kind, alone);
        subcommandsOf(name);
    }

    /**
     * Adds subcommand {@code sub} of container {@code parent} (registered first with
     * {@link #addContainer}); arguments as {@link #add}, positions counted from the container's
     * name (CONFIG GET's first argument is 2).
     */
    public void addSubcommand(String parent, String sub, int arity, String flags, int firstKey, int lastKey, int step,
                              String types, CommandSpec.Kind kind, CommandHandler handler) {
        Map<String, CommandSpec> subs = subcommands.get(parent.toLowerCase(Locale.ROOT));
        if (subs == null) {
            throw new IllegalStateException("not a container: " + parent);
        }
        CommandSpec spec = new CommandSpec(parent + "|" + sub, arity, parseFlags(flags), firstKey, lastKey, step,
                categories(parseFlags(flags), types), kind, handler);
        if (subs.putIfAbsent(sub.toLowerCase(Locale.ROOT), spec) != null) {
            throw new IllegalStateException("subcommand registered twice: " + spec.name());
        }
        byRequestName.get(parent.getBytes(StandardCharsets.ISO_8859_1)).subcommands().put(sub.toLowerCase(Locale.ROOT), spec);
    }

    /** Whether {@code name} is a container command. */
    public boolean isContainer(String name) {
        return subcommands.containsKey(name);
    }

    /** A container's subcommands, by name; empty for a plain command. */
    public Collection<CommandSpec> subcommands(String container) {
        Map<String, CommandSpec> subs = subcommands.get(container);
        return subs == null ? List.of() : Collections.unmodifiableCollection(subs.values());
    }

    /**
     * The command a request runs, as Redis's {@code lookupCommand}: the command its first
     * argument names or, for a container given a second argument, that subcommand. Null when
     * unknown ({@link #unknownError} says why).
     */
    public CommandSpec resolve(byte[][] args) {
        Named named = named(args[0]);
        if (named == null || args.length < 2 || named.subcommands() == null) {
            return named == null ? null : named.spec();
        }
        return named.subcommands().get(args[1]);
    }

    /** The command or subcommand by its full name ({@code config|get}), or null. */
    public CommandSpec lookupFullName(String fullName) {
        String name = fullName.toLowerCase(Locale.ROOT);
        int bar = name.indexOf('|');
        if (bar < 0) {
            return byName.get(name);
        }
        Map<String, CommandSpec> subs = subcommands.get(name.substring(0, bar));
        return subs == null ? null : subs.get(name.substring(bar + 1));
    }

    /** Redis's error for a request {@link #resolve} found nothing for. */
    public String unknownError(byte[][] args) {
        CommandSpec spec = lookup(args[0]);
        if (spec != null && args.length >= 2 && subcommands.containsKey(spec.name())) {
            String note = UnsupportedFeatures.noteFor(spec.name() + "|" + new String(args[1], StandardCharsets.UTF_8));
            return note != null ? "ERR " + note : unknownSubcommand(args[0], args[1]);
        }
        return CommandExecutor.unknownCommand(args);
    }

    /**
     * {@code ERR unknown subcommand '%.128s'. Try CONFIG HELP.}, as Redis's
     * {@code commandCheckExistence} prints it: the subcommand's bytes up to a NUL, at most 128,
     * and the container's name up to a NUL in ASCII upper case.
     */
    static String unknownSubcommand(byte[] container, byte[] sub) {
        return "ERR unknown subcommand '" + ErrorText.of(sub, 128) + "'. Try "
                + asciiUpper(ErrorText.of(container)) + " HELP.";
    }

    private static String asciiUpper(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
        }
        return sb.toString();
    }

    private static Set<CommandFlag> parseFlags(String flags) {
        Set<CommandFlag> parsed = EnumSet.noneOf(CommandFlag.class);
        for (String f : flags.trim().split("\\s+")) {
            if (!f.isEmpty()) {
                parsed.add(CommandFlag.valueOf(f.toUpperCase(Locale.ROOT)));
            }
        }
        return parsed;
    }

    /** Redis's {@code setImplicitACLCategories} plus the given type categories. */
    private static List<String> categories(Set<CommandFlag> flags, String types) {
        Set<String> c = new LinkedHashSet<>();
        if (flags.contains(CommandFlag.WRITE)) {
            c.add("write");
        }
        if (flags.contains(CommandFlag.READONLY) && !types.contains("scripting")) {
            c.add("read");
        }
        for (String t : types.trim().split("\\s+")) {
            if (!t.isEmpty()) {
                c.add(t);
            }
        }
        if (flags.contains(CommandFlag.ADMIN)) {
            c.add("admin");
            c.add("dangerous");
        }
        if (flags.contains(CommandFlag.PUBSUB)) {
            c.add("pubsub");
        }
        if (flags.contains(CommandFlag.FAST)) {
            c.add("fast");
        }
        if (flags.contains(CommandFlag.BLOCKING)) {
            c.add("blocking");
        }
        if (!c.contains("fast")) {
            c.add("slow");
        }
        return new ArrayList<>(c);
    }

    /** The command named by a request's first argument (any case), or null. */
    public CommandSpec lookup(byte[] name) {
        Named named = named(name);
        return named == null ? null : named.spec();
    }

    private Named named(byte[] name) {
        return name.length > 32 ? null : byRequestName.get(name);
    }

    public CommandSpec lookup(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    public Collection<CommandSpec> all() {
        return Collections.unmodifiableCollection(byName.values());
    }

    public int size() {
        return byName.size();
    }

    /** The name as Redis prints it in errors: the bytes as sent. */
    static String printable(byte[] name) {
        return new String(name, StandardCharsets.UTF_8);
    }
}
