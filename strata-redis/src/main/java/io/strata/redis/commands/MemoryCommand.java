package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.DATA;
import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.keyspace.KeySizes;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * MEMORY USAGE, STATS, DOCTOR, MALLOC-STATS, PURGE and HELP. A key's "memory" here is what it
 * takes in the database ({@link KeySizes}). The process's own memory is the JVM heap, as INFO
 * memory reports.
 */
final class MemoryCommand {
    private MemoryCommand() {
    }

    static void register(CommandTable t) {
        t.addContainer("memory");
        t.addSubcommand("memory", "usage", -3, "readonly", 2, 2, 1, "", DATA, MemoryCommand::usage);
        t.addSubcommand("memory", "stats", 2, "", 0, 0, 0, "", DATA, MemoryCommand::stats);
        t.addSubcommand("memory", "doctor", 2, "", 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.verbatim(
                "Strata's server keeps the data in the database, not in its own memory: used_memory is the JVM heap, "
                        + "which holds connections and requests in flight. Nothing to report.\n")));
        t.addSubcommand("memory", "malloc-stats", 2, "", 0, 0, 0, "", LOCAL,
                (inv, tr) -> done(Reply.verbatim("Stats not supported for the current allocator (the JVM's)\n")));
        t.addSubcommand("memory", "purge", 2, "", 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.OK));
        t.addSubcommand("memory", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> done(help()));
    }

    /** MEMORY USAGE key [SAMPLES count]: nil for a missing key. */
    private static CompletableFuture<Reply> usage(Invocation inv, Transaction tr) {
        for (int i = 3; i < inv.argc(); i++) {
            if (inv.option(i).equals("SAMPLES") && i + 1 < inv.argc()) {
                long samples = inv.longArg(++i);
                if (samples < 0) {
                    throw RedisException.syntax();
                }
            } else {
                throw RedisException.syntax();
            }
        }
        byte[] key = inv.arg(2);
        return inv.server().keys().peek(tr, inv.db(), key, inv.now()).thenCompose(meta -> meta == null
                ? CompletableFuture.completedFuture(Reply.NULL_BULK)
                : KeySizes.of(tr, inv.server().keys(), inv.db(), key, meta).thenApply(Reply::integer));
    }

    /** MEMORY STATS: the heap figures INFO memory gives, and each database's key count. */
    private static CompletableFuture<Reply> stats(Invocation inv, Transaction tr) {
        return inv.server().keys().counts(tr).thenApply(counts -> {
            Runtime rt = Runtime.getRuntime();
            long used = rt.totalMemory() - rt.freeMemory();
            long keys = 0;
            List<Reply> m = new ArrayList<>();
            add(m, "peak.allocated", Reply.integer(used));
            add(m, "total.allocated", Reply.integer(used));
            add(m, "startup.allocated", Reply.integer(0));
            add(m, "replication.backlog", Reply.integer(0));
            add(m, "clients.slaves", Reply.integer(0));
            add(m, "clients.normal", Reply.integer(0));
            add(m, "cluster.links", Reply.integer(0));
            add(m, "aof.buffer", Reply.integer(0));
            add(m, "lua.caches", Reply.integer(0));
            add(m, "functions.caches", Reply.integer(0));
            for (var e : counts.entrySet()) {
                if (e.getValue()[0] > 0) {
                    keys += e.getValue()[0];
                    add(m, "db." + e.getKey(), Reply.map(List.of(Reply.bulk("overhead.hashtable.main"), Reply.integer(0),
                            Reply.bulk("overhead.hashtable.expires"), Reply.integer(0))));
                }
            }
            add(m, "overhead.total", Reply.integer(0));
            add(m, "keys.count", Reply.integer(keys));
            add(m, "keys.bytes-per-key", Reply.integer(keys == 0 ? 0 : used / keys));
            add(m, "dataset.bytes", Reply.integer(used));
            add(m, "dataset.percentage", Reply.doubleValue(100.0));
            add(m, "peak.percentage", Reply.doubleValue(100.0));
            add(m, "allocator.allocated", Reply.integer(used));
            add(m, "allocator.active", Reply.integer(rt.totalMemory()));
            add(m, "allocator.resident", Reply.integer(rt.totalMemory()));
            add(m, "allocator-fragmentation.ratio", Reply.doubleValue(1.0));
            add(m, "allocator-fragmentation.bytes", Reply.integer(0));
            add(m, "allocator.rss-ratio", Reply.doubleValue(1.0));
            add(m, "allocator.rss-bytes", Reply.integer(0));
            add(m, "rss-overhead.ratio", Reply.doubleValue(1.0));
            add(m, "rss-overhead.bytes", Reply.integer(0));
            add(m, "fragmentation", Reply.doubleValue(1.0));
            add(m, "fragmentation.bytes", Reply.integer(0));
            return Reply.map(m);
        });
    }

    private static void add(List<Reply> m, String name, Reply value) {
        m.add(Reply.bulk(name));
        m.add(value);
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "MEMORY <subcommand> [<arg> ...]. Subcommands are:",
            "DOCTOR", "    A report in words.",
            "MALLOC-STATS", "    The allocator's statistics (none for the JVM).",
            "PURGE", "    Accepted; the JVM manages its own memory.",
            "STATS", "    Memory figures and key counts.",
            "USAGE <key> [SAMPLES <count>]", "    The bytes a key and its value take in the database.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
