package io.strata.redis.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The commands a server knows, by name, and the subcommands of its container commands
 * ({@code client|id}: a spec of its own, named {@code container|subcommand}, run by the
 * container's handler). Command groups register into it at start; after that it is only read
 * (by every connection at once, without locks: the maps are not changed once the server runs).
 */
public final class CommandTable {
    private final Map<String, CommandSpec> byName = new TreeMap<>();
    private final Map<String, Map<String, CommandSpec>> subcommands = new TreeMap<>();

    /** Adds a command; its name must be new. */
    public void register(CommandSpec spec) {
        if (byName.putIfAbsent(spec.name(), spec) != null) {
            throw new IllegalStateException("command registered twice: " + spec.name());
        }
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
     * Adds a subcommand of a registered container: its spec is named
     * {@code container|name}, takes the container's kind and handler, and the given arity,
     * flags and categories (as {@link #add} reads them).
     */
    public void addSubcommand(CommandSpec container, String name, int arity, String flags, int firstKey, int lastKey,
                              int step, String types) {
        Set<CommandFlag> parsed = parseFlags(flags);
        String sub = name.toLowerCase(Locale.ROOT);
        CommandSpec spec = new CommandSpec(container.name() + "|" + sub, arity, parsed, firstKey, lastKey, step,
                categories(parsed, types), container.kind(), container.handler());
        if (subcommands.computeIfAbsent(container.name(), k -> new TreeMap<>()).putIfAbsent(sub, spec) != null) {
            throw new IllegalStateException("subcommand registered twice: " + spec.name());
        }
    }

    /** Whether {@code spec} is a container whose subcommands are known. */
    public boolean hasSubcommands(CommandSpec spec) {
        return subcommands.containsKey(spec.name());
    }

    /** The subcommands of a container, by name (empty for other commands). */
    public Collection<CommandSpec> subcommands(CommandSpec container) {
        Map<String, CommandSpec> subs = subcommands.get(container.name());
        return subs == null ? List.of() : Collections.unmodifiableCollection(subs.values());
    }

    /** The subcommand {@code name} (any case) of {@code container}, or null. */
    public CommandSpec subcommand(CommandSpec container, byte[] name) {
        Map<String, CommandSpec> subs = subcommands.get(container.name());
        return subs == null || name.length > 64 ? null : subs.get(lowerAscii(name));
    }

    /**
     * What a request runs, as Redis's {@code lookupCommand}: the subcommand its second argument
     * names when {@code spec} is a container, else {@code spec} itself; null for a container
     * with an unknown subcommand.
     */
    public CommandSpec resolve(CommandSpec spec, byte[][] args) {
        if (args.length < 2 || !hasSubcommands(spec)) {
            return spec;
        }
        return subcommand(spec, args[1]);
    }

    /** A command or subcommand by its full name ({@code get}, {@code client|id}), any case; null if unknown. */
    public CommandSpec lookupFullName(String fullName) {
        String name = fullName.toLowerCase(Locale.ROOT);
        int bar = name.indexOf('|');
        if (bar < 0) {
            return byName.get(name);
        }
        Map<String, CommandSpec> subs = subcommands.get(name.substring(0, bar));
        return subs == null ? null : subs.get(name.substring(bar + 1));
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
        if (name.length > 32) {
            return null;
        }
        return byName.get(lowerAscii(name));
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

    private static String lowerAscii(byte[] b) {
        char[] c = new char[b.length];
        for (int i = 0; i < b.length; i++) {
            int x = b[i] & 0xff;
            c[i] = (char) (x >= 'A' && x <= 'Z' ? x + 32 : x);
        }
        return new String(c);
    }

    /** The name as Redis prints it in errors: the bytes as sent. */
    static String printable(byte[] name) {
        return new String(name, StandardCharsets.UTF_8);
    }
}
