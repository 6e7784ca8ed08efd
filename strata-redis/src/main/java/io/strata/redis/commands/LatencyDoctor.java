package io.strata.redis.commands;

import io.strata.redis.command.LatencyMonitor;

import java.util.List;
import java.util.Locale;

/**
 * LATENCY DOCTOR's report: for each event the monitor recorded, how many samples, their
 * average, mean deviation and spacing, and the worst; then what usually causes such an event
 * on this server and what to look at. Written for a person: nothing parses it.
 */
final class LatencyDoctor {
    private LatencyDoctor() {
    }

    static String report(List<LatencyMonitor.Series> events, long thresholdMillis) {
        StringBuilder out = new StringBuilder();
        if (events.isEmpty()) {
            if (thresholdMillis <= 0) {
                out.append("The latency monitor is off, so no event has been recorded. Turn it on with\n")
                        .append("CONFIG SET latency-monitor-threshold <milliseconds>: commands, active-expiry passes and\n")
                        .append("eviction rounds that take at least that long are then recorded, and this report describes them.\n");
            } else {
                out.append(String.format(Locale.ROOT, "No event has taken %d ms or more since the monitor was turned on or "
                        + "last reset: nothing to report.\n", thresholdMillis));
            }
            return out.toString();
        }
        out.append(String.format(Locale.ROOT, "Events that took at least %d ms (latency-monitor-threshold):\n\n", thresholdMillis));
        int n = 1;
        for (LatencyMonitor.Series s : events) {
            List<LatencyMonitor.Sample> samples = s.samples();
            double average = samples.stream().mapToLong(LatencyMonitor.Sample::millis).average().orElse(0);
            double deviation = samples.stream().mapToDouble(x -> Math.abs(x.millis() - average)).average().orElse(0);
            long span = samples.get(samples.size() - 1).unixSeconds() - samples.get(0).unixSeconds();
            out.append(String.format(Locale.ROOT, "%d. %s: %d sample%s, average %.0f ms, mean deviation %.0f ms", n++, s.event(),
                    samples.size(), samples.size() == 1 ? "" : "s", average, deviation));
            if (samples.size() > 1) {
                out.append(String.format(Locale.ROOT, ", one every %d s on average", span / (samples.size() - 1)));
            }
            out.append(String.format(Locale.ROOT, "; worst %d ms.\n", s.maxMillis()));
        }
        out.append("\nWhat to look at:\n");
        for (LatencyMonitor.Series s : events) {
            out.append("- ").append(s.event()).append(": ").append(advice(s.event())).append('\n');
        }
        return out.toString();
    }

    private static String advice(String event) {
        return switch (event) {
            case "command" -> "SLOWLOG GET lists the slow commands with their arguments. Commands over whole large "
                    + "values (KEYS, SMEMBERS, HGETALL, SORT, LRANGE 0 -1, big unions) and long scripts are the usual "
                    + "cause; SCAN and its siblings read in steps. A durable write also waits for its fsync, so a slow "
                    + "disk shows here too.";
            case "fast-command" -> "a command that is quick by nature took long: the process was not running (a "
                    + "garbage-collection pause: start the JVM with -Xlog:gc to see them), the machine's CPU was "
                    + "busy elsewhere, or the disk's fsync was slow for a write.";
            case "expire-cycle" -> "many keys expired at the same moment. Spreading their expiry times (a random "
                    + "offset added to each TTL) spreads the work.";
            case "eviction-cycle" -> "the data reached maxmemory and a round of eviction freed room while writes "
                    + "waited: a higher maxmemory, or fewer keys written at once, shortens the rounds.";
            default -> "no advice for this event.";
        };
    }
}
