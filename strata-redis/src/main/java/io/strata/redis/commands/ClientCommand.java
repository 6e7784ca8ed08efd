package io.strata.redis.commands;

import static io.strata.redis.command.Invocation.done;

import io.strata.redis.command.ClientSession;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/** CLIENT and its subcommands, as Redis 7.0 answers them. */
final class ClientCommand {
    private ClientCommand() {
    }

    static CompletableFuture<Reply> run(Invocation inv) {
        String sub = inv.option(1);
        ClientSession s = inv.session();
        switch (sub) {
            case "ID":
                arity(inv, 2);
                return done(Reply.integer(s.id()));
            case "SETNAME":
                arity(inv, 3);
                String name = inv.argString(2);
                checkName(name);
                s.name(name);
                return done(Reply.OK);
            case "GETNAME":
                arity(inv, 2);
                return done(s.name().isEmpty() ? Reply.NULL_BULK : Reply.bulk(s.name()));
            case "INFO":
                arity(inv, 2);
                return done(Reply.verbatim(describe(s, inv.now()) + "\n"));
            case "LIST":
                return done(Reply.verbatim(list(inv)));
            case "KILL":
                return done(kill(inv));
            case "UNBLOCK":
                return done(unblock(inv));
            case "NO-EVICT":
            case "NO-TOUCH":
                arity(inv, 3);
                String onOff = inv.option(2);
                if (!onOff.equals("ON") && !onOff.equals("OFF")) {
                    throw RedisException.syntax();
                }
                return done(Reply.OK);
            case "HELP":
                return done(help());
            default:
                throw new RedisException("ERR unknown subcommand '" + inv.argString(1) + "'. Try CLIENT HELP.");
        }
    }

    private static void arity(Invocation inv, int n) {
        if (inv.argc() != n) {
            throw new RedisException("ERR wrong number of arguments for 'client|" + inv.argString(1).toLowerCase(Locale.ROOT) + "' command");
        }
    }

    /** Redis: a client name is printable ASCII without spaces. */
    static void checkName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                throw new RedisException("ERR Client names cannot contain spaces, newlines or special characters.");
            }
        }
    }

    private static String list(Invocation inv) {
        List<Long> ids = null;
        for (int i = 2; i < inv.argc(); i++) {
            String opt = inv.option(i);
            if (opt.equals("TYPE") && i + 1 < inv.argc()) {
                String type = inv.option(++i);
                if (!List.of("NORMAL", "MASTER", "REPLICA", "SLAVE", "PUBSUB").contains(type)) {
                    throw new RedisException("ERR Unknown client type '" + inv.argString(i) + "'");
                }
                if (!type.equals("NORMAL")) {
                    ids = List.of();
                }
            } else if (opt.equals("ID") && i + 1 < inv.argc()) {
                ids = new ArrayList<>();
                for (i++; i < inv.argc(); i++) {
                    long id = inv.longArg(i, "ERR Invalid client ID");
                    if (id <= 0) {
                        throw new RedisException("ERR Invalid client ID");
                    }
                    ids.add(id);
                }
            } else {
                throw RedisException.syntax();
            }
        }
        StringBuilder sb = new StringBuilder();
        List<ClientSession> all = new ArrayList<>(inv.server().clients());
        all.sort((a, b) -> Long.compare(a.id(), b.id()));
        for (ClientSession c : all) {
            if (ids == null || ids.contains(c.id())) {
                sb.append(describe(c, inv.now())).append('\n');
            }
        }
        return sb.toString();
    }

    /** One line of CLIENT LIST, with Redis 7.0's fields (memory fields are this server's estimates). */
    static String describe(ClientSession c, long now) {
        return "id=" + c.id() + " addr=" + c.address() + " laddr=" + c.localAddress() + " fd=8 name=" + c.name()
                + " age=" + (now - c.createdMillis()) / 1000 + " idle=" + (now - c.lastCommandMillis()) / 1000
                + " flags=" + (c.inMulti() ? "x" : c.blocked() ? "b" : "N") + " db=" + c.db() + " sub=0 psub=0 ssub=0 multi=" + (c.inMulti() ? 0 : -1)
                + " qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=1024 events=r"
                + " cmd=" + c.lastCommand() + " user=" + c.user() + " redir=-1 resp=" + c.protocol();
    }

    private static Reply kill(Invocation inv) {
        if (inv.argc() == 3) {
            String addr = inv.argString(2);
            for (ClientSession c : inv.server().clients()) {
                if (c.address().equals(addr)) {
                    inv.server().kill(c.id());
                    return Reply.OK;
                }
            }
            throw new RedisException("ERR No such client");
        }
        if (inv.argc() % 2 != 0) {
            throw RedisException.syntax();
        }
        Long id = null;
        String addr = null;
        String laddr = null;
        String user = null;
        boolean skipMe = true;
        for (int i = 2; i < inv.argc(); i += 2) {
            String opt = inv.option(i);
            switch (opt) {
                case "ID":
                    id = inv.longArg(i + 1, "ERR client-id should be greater than 0");
                    if (id <= 0) {
                        throw new RedisException("ERR client-id should be greater than 0");
                    }
                    break;
                case "ADDR":
                    addr = inv.argString(i + 1);
                    break;
                case "LADDR":
                    laddr = inv.argString(i + 1);
                    break;
                case "USER":
                    user = inv.argString(i + 1);
                    break;
                case "TYPE":
                    break;
                case "SKIPME":
                    String v = inv.option(i + 1);
                    if (v.equals("YES")) {
                        skipMe = true;
                    } else if (v.equals("NO")) {
                        skipMe = false;
                    } else {
                        throw RedisException.syntax();
                    }
                    break;
                default:
                    throw RedisException.syntax();
            }
        }
        long killed = 0;
        for (ClientSession c : inv.server().clients()) {
            if ((id != null && c.id() != id) || (addr != null && !c.address().equals(addr))
                    || (laddr != null && !c.localAddress().equals(laddr)) || (user != null && !c.user().equals(user))) {
                continue;
            }
            if (skipMe && c.id() == inv.session().id()) {
                continue;
            }
            if (c.id() == inv.session().id()) {
                inv.session().requestClose();
            } else {
                inv.server().kill(c.id());
            }
            killed++;
        }
        return Reply.integer(killed);
    }

    /** CLIENT UNBLOCK id [TIMEOUT|ERROR]: 1 if the client was blocked and now is not, else 0. */
    private static Reply unblock(Invocation inv) {
        if (inv.argc() != 3 && inv.argc() != 4) {
            arity(inv, 3);
        }
        boolean error = false;
        if (inv.argc() == 4) {
            String reason = inv.option(3);
            if (reason.equals("ERROR")) {
                error = true;
            } else if (!reason.equals("TIMEOUT")) {
                throw new RedisException("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
            }
        }
        long id = inv.longArg(2);
        for (ClientSession c : inv.server().clients()) {
            if (c.id() == id) {
                Reply reply = error ? Reply.error("UNBLOCKED client unblocked via CLIENT UNBLOCK") : null;
                return c.unblock(reply) ? Reply.ONE : Reply.ZERO;
            }
        }
        return Reply.ZERO;
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "GETNAME", "    Return the name of the current connection.",
            "ID", "    Return the ID of the current connection.",
            "INFO", "    Return information about the current client connection.",
            "KILL <ip:port>", "    Kill connection made from <ip:port>.",
            "KILL <option> <value> [<option> <value> [...]]", "    Kill connections. Options are: ID, ADDR, LADDR, USER, SKIPME.",
            "LIST [options ...]", "    Return information about client connections. Options: TYPE, ID.",
            "NO-EVICT (ON|OFF)", "    Accepted; this server does not evict.",
            "SETNAME <name>", "    Assign the name <name> to the current connection.",
            "UNBLOCK <clientid> [TIMEOUT|ERROR]", "    Unblock the specified blocked client.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
