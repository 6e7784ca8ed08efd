package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandStats;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * LATENCY: this server keeps no latency events (Redis's latency monitor samples event loop
 * stalls, fork times and the like, which do not exist here), so LATEST and HISTORY are empty,
 * RESET resets nothing, GRAPH has no samples and DOCTOR says so. HISTOGRAM is real: it reports
 * each command's call durations from the statistics INFO commandstats also uses.
 */
final class LatencyCommand {
    private LatencyCommand() {
    }

    static void register(CommandTable t) {
        String admin = "admin noscript loading stale";
        t.addContainer("latency");
        t.addSubcommand("latency", "latest", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.EMPTY_ARRAY));
        t.addSubcommand("latency", "history", 3, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.EMPTY_ARRAY));
        t.addSubcommand("latency", "reset", -2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.ZERO));
        t.addSubcommand("latency", "graph", 3, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> {
            throw new RedisException("ERR No samples available for event '" + inv.argString(2) + "'");
        });
        t.addSubcommand("latency", "doctor", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.verbatim(
                "Strata's server records no latency events, so there is nothing to analyse. "
                        + "SLOWLOG GET lists slow commands and LATENCY HISTOGRAM shows how long each command takes.\n")));
        t.addSubcommand("latency", "histogram", -2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(histogram(inv)));
        t.addSubcommand("latency", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> done(help()));
    }

    /** LATENCY HISTOGRAM [command ...]: per command, its calls and a cumulative histogram by power-of-two microseconds. */
    private static Reply histogram(Invocation inv) {
        Map<String, CommandStats> all = inv.server().stats().commands();
        Set<String> names = new LinkedHashSet<>();
        if (inv.argc() == 2) {
            names.addAll(all.keySet());
        } else {
            for (int i = 2; i < inv.argc(); i++) {
                CommandSpec spec = inv.server().commands().lookupFullName(inv.argString(i));
                if (spec != null) {
                    names.add(spec.name());
                    inv.server().commands().subcommands(spec.name()).forEach(s -> names.add(s.name()));
                }
            }
        }
        List<Reply> out = new ArrayList<>();
        for (String name : names) {
            CommandStats c = all.get(name);
            if (c == null || c.calls.sum() == 0) {
                continue;
            }
            List<Reply> buckets = new ArrayList<>();
            long cumulative = 0;
            for (int i = 0; i < CommandStats.buckets(); i++) {
                long n = c.histogramCount(i);
                cumulative += n;
                if (n > 0) {
                    buckets.add(Reply.integer(CommandStats.bucketLimit(i)));
                    buckets.add(Reply.integer(cumulative));
                }
            }
            out.add(Reply.bulk(name));
            out.add(Reply.map(List.of(Reply.bulk("calls"), Reply.integer(c.calls.sum()), Reply.bulk("histogram_usec"),
                    Reply.map(buckets))));
        }
        return Reply.map(out);
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "LATENCY <subcommand> [<arg> ...]. Subcommands are:",
            "DOCTOR", "    A report in words (this server records no latency events).",
            "GRAPH <event>", "    A graph of an event's samples (none are recorded).",
            "HISTORY <event>", "    An event's samples (none are recorded).",
            "LATEST", "    The latest sample of each event (none are recorded).",
            "RESET [<event> ...]", "    Forget events (none are recorded).",
            "HISTOGRAM [<command> ...]", "    The distribution of each command's durations.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
