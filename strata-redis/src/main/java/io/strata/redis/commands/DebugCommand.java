package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The part of DEBUG that makes sense here: SLEEP (delays this connection's reply only — the
 * server does not stop as Redis's single thread does), PROTOCOL (sample replies of each RESP
 * type), SET-ACTIVE-EXPIRE and CHANGE-REPL-ID (accepted; they change nothing here) and HELP.
 * Redis's other DEBUG subcommands inspect or break its in-memory structures and answer with an
 * error naming them. DEBUG is refused unless {@code enable-debug-command} allows it, as in
 * Redis 7.
 */
final class DebugCommand {
    private static final Set<String> REDIS_ONLY = Set.of("segfault", "panic", "restart", "crash-and-recover", "assert",
            "reload", "loadaof", "drop-cluster-packet-filter", "object", "sdslen", "ziplist", "listpack", "quicklist",
            "quicklist-packed-threshold", "populate", "digest", "digest-value", "set-skip-checksum-validation",
            "aof-flush-sleep", "replicate", "script", "jmap", "stringmatch-len", "client-eviction", "log", "leak",
            "pause-cron", "replybuffer", "mallctl", "mallctl-str", "config-rewrite-force-all", "set-disable-deny-scripts",
            "dict-resizing", "htstats", "htstats-key");

    private DebugCommand() {
    }

    static void register(CommandTable t) {
        t.add("debug", -2, "admin noscript loading stale protected", 0, 0, 0, "", LOCAL, (inv, tr) -> debug(inv));
    }

    private static CompletableFuture<Reply> debug(Invocation inv) {
        String sub = inv.argString(1).toLowerCase(java.util.Locale.ROOT);
        switch (sub) {
            case "help":
                return done(help());
            case "sleep":
                if (inv.argc() != 3) {
                    break;
                }
                double seconds = inv.doubleArg(2);
                long micros = (long) (seconds * 1_000_000);
                if (micros <= 0) {
                    return done(Reply.OK);
                }
                return CompletableFuture.supplyAsync(() -> Reply.OK,
                        CompletableFuture.delayedExecutor(micros, TimeUnit.MICROSECONDS));
            case "set-active-expire":
            case "change-repl-id":
                return done(Reply.OK);
            case "protocol":
                if (inv.argc() != 3) {
                    break;
                }
                return done(protocol(inv.argString(2).toLowerCase(java.util.Locale.ROOT)));
            default:
                if (REDIS_ONLY.contains(sub)) {
                    throw new RedisException("ERR DEBUG " + sub.toUpperCase(java.util.Locale.ROOT)
                            + " is not supported by Strata's Redis-compatible server");
                }
                break;
        }
        throw inv.subcommandSyntaxError();
    }

    /** A sample reply of each RESP type, as Redis's DEBUG PROTOCOL gives them. */
    private static Reply protocol(String type) {
        switch (type) {
            case "string": return Reply.bulk("Hello World");
            case "integer": return Reply.integer(12345);
            case "double": return Reply.doubleValue(3.141);
            case "bignum": return Reply.bulk("1234567999999999999999999999999999999");
            case "null": return Reply.NULL_BULK;
            case "array": return Reply.array(Reply.ZERO, Reply.ONE, Reply.integer(2));
            case "set": return Reply.set(List.of(Reply.ZERO, Reply.ONE, Reply.integer(2)));
            case "map": return Reply.map(List.of(Reply.ZERO, Reply.bool(false), Reply.ONE, Reply.bool(true),
                    Reply.integer(2), Reply.bool(false)));
            case "attrib": return Reply.bulk("Some real reply following the attribute");
            case "true": return Reply.bool(true);
            case "false": return Reply.bool(false);
            case "verbatim": return Reply.verbatim("This is a verbatim\nstring");
            default:
                throw new RedisException("ERR Wrong protocol type name. Please use one of the following: "
                        + "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
        }
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "DEBUG <subcommand> [<arg> ...]. Subcommands are:",
            "SLEEP <seconds>", "    Delay this connection's reply (the server keeps serving others).",
            "PROTOCOL <type>", "    A sample reply of a RESP type: string, integer, double, bignum, null, array, set,",
            "    map, attrib, verbatim, true, false.",
            "SET-ACTIVE-EXPIRE <0|1>", "    Accepted; expiry does not change.",
            "CHANGE-REPL-ID", "    Accepted; there is no replication.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
