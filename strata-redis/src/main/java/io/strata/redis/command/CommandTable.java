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
 * The commands a server knows, by name. Command groups register into it at start; after
 * that it is only read (by every connection at once, without locks: the map is not changed
 * once the server runs).
 */
public final class CommandTable {
    private final Map<String, CommandSpec> byName = new TreeMap<>();

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
        Set<CommandFlag> parsed = EnumSet.noneOf(CommandFlag.class);
        for (String f : flags.trim().split("\\s+")) {
            if (!f.isEmpty()) {
                parsed.add(CommandFlag.valueOf(f.toUpperCase(Locale.ROOT)));
            }
        }
        register(new CommandSpec(name, arity, parsed, firstKey, lastKey, step, categories(parsed, types), kind, handler));
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
