package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.command.SlowLog;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;

/** SLOWLOG GET [count], LEN, RESET and HELP over the server's {@link SlowLog}. */
final class SlowlogCommand {
    private SlowlogCommand() {
    }

    static void register(CommandTable t) {
        String admin = "admin loading stale";
        t.addContainer("slowlog");
        t.addSubcommand("slowlog", "get", -2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(get(inv)));
        t.addSubcommand("slowlog", "len", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> done(Reply.integer(inv.server().slowlog().size())));
        t.addSubcommand("slowlog", "reset", 2, admin, 0, 0, 0, "", LOCAL, (inv, tr) -> {
            inv.server().slowlog().reset();
            return done(Reply.OK);
        });
        t.addSubcommand("slowlog", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> done(help()));
    }

    private static Reply get(Invocation inv) {
        if (inv.argc() > 3) {
            throw new RedisException("ERR unknown subcommand or wrong number of arguments for 'get'. Try SLOWLOG HELP.");
        }
        long count = 10;
        if (inv.argc() == 3) {
            count = inv.longArg(2, "ERR count should be greater than or equal to -1");
            if (count < -1) {
                throw new RedisException("ERR count should be greater than or equal to -1");
            }
        }
        List<Reply> out = new ArrayList<>();
        for (SlowLog.Entry e : inv.server().slowlog().latest(count)) {
            List<Reply> args = new ArrayList<>();
            e.args().forEach(a -> args.add(Reply.bulk(a)));
            out.add(Reply.array(Reply.integer(e.id()), Reply.integer(e.unixSeconds()), Reply.integer(e.micros()),
                    Reply.array(args), Reply.bulk(e.client()), Reply.bulk(e.clientName())));
        }
        return Reply.array(out);
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "SLOWLOG <subcommand> [<arg> ...]. Subcommands are:",
            "GET [<count>]", "    The newest <count> entries of the slow log (default 10, -1 for all).",
            "    Each entry: id, Unix time, microseconds, arguments, client address, client name.",
            "LEN", "    The number of entries.",
            "RESET", "    Empty the slow log.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
