package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandStats;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.LatencyGraph;
import io.strata.redis.command.LatencyMonitor;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * LATENCY: the latency monitor ({@link LatencyMonitor}) — LATEST, HISTORY, RESET, GRAPH and
 * DOCTOR over the events recorded while {@code latency-monitor-threshold} is above 0 — and
 * HISTOGRAM, each command's call durations from the statistics INFO commandstats also uses.
 */
final class LatencyCommand {
    private LatencyCommand() {
    }

    static void register(CommandTable t) {
        String admin = "admin noscript loading stale";
        t.addContainer("latency");
        t.addSubcommand("latency", "latest", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(latest(inv)));
        t.addSubcommand("latency", "history", 3, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(history(inv)));
        t.addSubcommand("latency", "reset", -2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> {
            LatencyMonitor monitor = inv.server().latency();
            if (inv.argc() == 2) {
                return done(Reply.integer(monitor.reset()));
            }
            List<String> names = new ArrayList<>();
            for (int i = 2; i < inv.argc(); i++) {
                names.add(inv.argString(i));
            }
            return done(Reply.integer(monitor.reset(names)));
        });
        t.addSubcommand("latency", "graph", 3, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> {
            LatencyMonitor.Series series = inv.server().latency().of(inv.argString(2));
            if (series == null) {
                throw new RedisException("ERR No samples available for event '" + inv.argString(2) + "'");
            }
            return done(Reply.verbatim(LatencyGraph.draw(series, inv.now() / 1000)));
        });
        t.addSubcommand("latency", "doctor", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.verbatim(
                LatencyDoctor.report(inv.server().latency().all(), inv.server().settings().latencyMonitorThreshold()))));
        t.addSubcommand("latency", "histogram", -2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(histogram(inv)));
        t.addSubcommand("latency", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> done(help()));
    }

    /** LATENCY LATEST: per event, its newest sample's time and latency and its maximum. */
    private static Reply latest(Invocation inv) {
        List<Reply> out = new ArrayList<>();
        for (LatencyMonitor.Series s : inv.server().latency().all()) {
            out.add(Reply.array(List.of(Reply.bulk(s.event()), Reply.integer(s.latest().unixSeconds()),
                    Reply.integer(s.latest().millis()), Reply.integer(s.maxMillis()))));
        }
        return Reply.array(out);
    }

    /** LATENCY HISTORY event: its samples, oldest first, as (time, latency) pairs; empty for an unknown event. */
    private static Reply history(Invocation inv) {
        LatencyMonitor.Series series = inv.server().latency().of(inv.argString(2));
        List<Reply> out = new ArrayList<>();
        if (series != null) {
            for (LatencyMonitor.Sample sample : series.samples()) {
                out.add(Reply.array(List.of(Reply.integer(sample.unixSeconds()), Reply.integer(sample.millis()))));
            }
        }
        return Reply.array(out);
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
            "DOCTOR", "    A report in words on the events recorded.",
            "GRAPH <event>", "    A graph of an event's samples.",
            "HISTORY <event>", "    An event's samples: (time, latency) pairs, oldest first.",
            "LATEST", "    Each event's newest sample and its maximum.",
            "RESET [<event> ...]", "    Forget the events named (all when none is named).",
            "HISTOGRAM [<command> ...]", "    The distribution of each command's durations (all commands when none is named).",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
