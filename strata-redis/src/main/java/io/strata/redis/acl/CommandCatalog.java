package io.strata.redis.acl;

import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands ACL rules speak of: every command and subcommand of the server's table with a
 * small id (the bit a selector keeps for it) and its categories as a bit mask over
 * {@link AclCategories}. A container with subcommands has only Redis's implicit {@code slow}
 * category itself (its subcommands carry the real ones), as in Redis's command table.
 *
 * <p>Order matters for descriptions: commands are visited by name, each container followed by
 * its subcommands by name, so that ACL LIST and GETUSER print rules in a stable order.
 *
 * <p>Concurrency: immutable once built (the command table does not change while the server runs).
 */
final class CommandCatalog {
    /** One command or subcommand. */
    static final class Entry {
        final int id;
        final CommandSpec spec;
        final Entry parent;
        final List<Entry> children = new ArrayList<>();
        final long categories;

        Entry(int id, CommandSpec spec, Entry parent, long categories) {
            this.id = id;
            this.spec = spec;
            this.parent = parent;
            this.categories = categories;
        }

        /** The name rules use: {@code get}, {@code client|id}. */
        String fullName() {
            return spec.name();
        }

        boolean inCategory(int category) {
            return (categories & (1L << category)) != 0;
        }
    }

    private final CommandTable table;
    private final List<Entry> topLevel = new ArrayList<>();
    private final List<Entry> byId = new ArrayList<>();
    private final Map<CommandSpec, Entry> bySpec = new IdentityHashMap<>();

    CommandCatalog(CommandTable table) {
        this.table = table;
        for (CommandSpec spec : table.all()) {
            Entry e = add(spec, null, mask(spec));
            topLevel.add(e);
            for (CommandSpec sub : table.subcommands(spec.name())) {
                e.children.add(add(sub, e, mask(sub)));
            }
        }
    }

    private Entry add(CommandSpec spec, Entry parent, long categories) {
        Entry e = new Entry(byId.size(), spec, parent, categories);
        byId.add(e);
        bySpec.put(spec, e);
        return e;
    }

    private static long mask(CommandSpec spec) {
        long m = 0;
        for (String c : spec.categories()) {
            int i = AclCategories.indexOf(c);
            if (i >= 0) {
                m |= 1L << i;
            }
        }
        return m;
    }

    /** Top-level commands in name order; each entry's children are its subcommands. */
    List<Entry> topLevel() {
        return Collections.unmodifiableList(topLevel);
    }

    int size() {
        return byId.size();
    }

    /** The entry of a spec from the server's table (a command or a subcommand), or null. */
    Entry of(CommandSpec spec) {
        return bySpec.get(spec);
    }

    /** A command or subcommand by the name a rule uses ({@code config|get}), or null. */
    Entry byName(String fullName) {
        CommandSpec spec = table.lookupFullName(fullName);
        return spec == null ? null : bySpec.get(spec);
    }

    CommandTable table() {
        return table;
    }
}
