package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.Reply;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * INFO [section ...]: Redis 7.0's report, section by section ({@link InfoSections} writes
 * them). With no argument, or {@code default}, the default sections; {@code all} adds
 * commandstats and latencystats; {@code everything} adds the (empty) module sections too.
 * Section names match in any case; unknown ones add nothing, as in Redis.
 *
 * <p>It is a data command because the keyspace section reads each database's key counters
 * (one range read); everything else comes from the server's memory.
 */
final class InfoCommand {
    static final List<String> DEFAULT_SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "module_list", "errorstats", "cluster", "keyspace");
    static final List<String> ALL_SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "module_list", "commandstats", "errorstats", "latencystats", "cluster", "keyspace");

    private InfoCommand() {
    }

    static void register(CommandTable t) {
        t.add("info", -1, "loading stale", 0, 0, 0, "dangerous", DATA, InfoCommand::info);
    }

    private static CompletableFuture<Reply> info(Invocation inv, Transaction tr) {
        Set<String> sections = sections(inv);
        CompletableFuture<SortedMap<Integer, long[]>> counts = sections.contains("keyspace")
                ? inv.server().keys().counts(tr)
                : CompletableFuture.completedFuture(new TreeMap<>());
        return counts.thenApply(c -> Reply.verbatim(new InfoSections(inv.server(), c).render(sections)));
    }

    /** The sections asked for, in Redis's order of appearance. */
    static Set<String> sections(Invocation inv) {
        Set<String> asked = new LinkedHashSet<>();
        boolean all = false;
        if (inv.argc() == 1) {
            asked.addAll(DEFAULT_SECTIONS);
        }
        for (int i = 1; i < inv.argc(); i++) {
            String s = inv.argString(i).toLowerCase(Locale.ROOT);
            switch (s) {
                case "default": asked.addAll(DEFAULT_SECTIONS); break;
                case "all": case "everything": all = true; break;
                default: asked.add(s);
            }
        }
        if (all) {
            asked.addAll(ALL_SECTIONS);
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String s : ALL_SECTIONS) {
            if (asked.contains(s) || (s.equals("module_list") && asked.contains("modules"))) {
                ordered.add(s);
            }
        }
        return ordered;
    }
}
