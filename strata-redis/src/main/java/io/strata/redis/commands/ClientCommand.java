package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.acl.AclText;
import io.strata.redis.command.ClientPause;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;
import io.strata.redis.tracking.ClientTracking;
import io.strata.redis.tracking.TrackingOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/** CLIENT and its subcommands (each a subcommand of the table, as in Redis 7.0), as Redis 7.0 answers them. */
public final class ClientCommand {
    private ClientCommand() {
    }

    static void register(CommandTable t) {
        t.addContainer("client");
        String info = "noscript loading stale";
        String admin = "admin noscript loading stale";
        t.addSubcommand("client", "id", 2, info, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(Reply.integer(inv.session().id())));
        t.addSubcommand("client", "setname", 3, info, 0, 0, 0, "connection", LOCAL, (inv, tr) -> {
            String name = inv.argString(2);
            checkName(name);
            inv.session().name(name);
            return done(Reply.OK);
        });
        t.addSubcommand("client", "getname", 2, info, 0, 0, 0, "connection", LOCAL, (inv, tr) ->
                done(inv.session().name().isEmpty() ? Reply.NULL_BULK : Reply.bulk(inv.session().name())));
        t.addSubcommand("client", "info", 2, info, 0, 0, 0, "connection", LOCAL, (inv, tr) ->
                done(Reply.verbatim(describe(inv.session(), inv.now(), queryBytes(inv.args())) + "\n")));
        t.addSubcommand("client", "list", -2, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(Reply.verbatim(list(inv))));
        t.addSubcommand("client", "kill", -3, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(kill(inv)));
        t.addSubcommand("client", "reply", 3, info, 0, 0, 0, "connection", LOCAL, (inv, tr) -> reply(inv));
        t.addSubcommand("client", "no-evict", 3, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) -> onOff(inv));
        t.addSubcommand("client", "no-touch", 3, "noscript loading stale", 0, 0, 0, "connection", LOCAL, (inv, tr) -> onOff(inv));
        t.addSubcommand("client", "unblock", -3, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) -> unblock(inv));
        t.addSubcommand("client", "tracking", -3, info, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(tracking(inv)));
        t.addSubcommand("client", "caching", 3, info, 0, 0, 0, "connection", LOCAL, (inv, tr) -> {
            String yesNo = inv.option(2);
            if (!yesNo.equals("YES") && !yesNo.equals("NO")) {
                throw RedisException.syntax();
            }
            inv.server().tracking().caching(inv.session(), yesNo.equals("YES"));
            return done(Reply.OK);
        });
        t.addSubcommand("client", "getredir", 2, info, 0, 0, 0, "connection", LOCAL, (inv, tr) ->
                done(Reply.integer(inv.server().tracking().redirection(inv.session()))));
        t.addSubcommand("client", "trackinginfo", 2, info, 0, 0, 0, "connection", LOCAL, (inv, tr) ->
                done(inv.server().tracking().info(inv.session())));
        t.addSubcommand("client", "pause", -3, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(pause(inv)));
        t.addSubcommand("client", "unpause", 2, admin, 0, 0, 0, "connection", LOCAL, (inv, tr) ->
                inv.server().pause().unpause().thenApply(ignored -> Reply.OK));
        t.addSubcommand("client", "help", 2, "loading stale", 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(help()));
    }

    /**
     * CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP]:
     * options parsed as Redis's {@code clientCommand} parses them, then checked by
     * {@link ClientTracking#enable}.
     */
    private static Reply tracking(Invocation inv) {
        long redirect = 0;
        boolean bcast = false;
        boolean optin = false;
        boolean optout = false;
        boolean noloop = false;
        List<byte[]> prefixes = new ArrayList<>();
        for (int j = 3; j < inv.argc(); j++) {
            boolean more = j + 1 < inv.argc();
            String opt = inv.option(j);
            if (opt.equals("REDIRECT") && more) {
                j++;
                if (redirect != 0) {
                    throw new RedisException("ERR A client can only redirect to a single other client");
                }
                redirect = inv.longArg(j);
                if (!clientExists(inv, redirect)) {
                    throw new RedisException("ERR The client ID you want redirect to does not exist");
                }
            } else if (opt.equals("BCAST")) {
                bcast = true;
            } else if (opt.equals("OPTIN")) {
                optin = true;
            } else if (opt.equals("OPTOUT")) {
                optout = true;
            } else if (opt.equals("NOLOOP")) {
                noloop = true;
            } else if (opt.equals("PREFIX") && more) {
                prefixes.add(inv.arg(++j));
            } else {
                throw RedisException.syntax();
            }
        }
        ClientTracking tracking = inv.server().tracking();
        switch (inv.option(2)) {
            case "ON" -> tracking.enable(inv.session(), inv.server().keys(),
                    new TrackingOptions(redirect, bcast, optin, optout, noloop, prefixes));
            case "OFF" -> tracking.disable(inv.session());
            default -> throw RedisException.syntax();
        }
        return Reply.OK;
    }

    private static boolean clientExists(Invocation inv, long id) {
        for (ClientSession c : inv.server().clients()) {
            if (c.id() == id) {
                return true;
            }
        }
        return false;
    }

    /** CLIENT PAUSE timeout [WRITE|ALL]: Redis's checks, mode before timeout. */
    private static Reply pause(Invocation inv) {
        if (inv.argc() > 4) {
            throw new RedisException("ERR unknown subcommand or wrong number of arguments for 'pause'. Try CLIENT HELP.");
        }
        ClientPause.Mode mode = ClientPause.Mode.ALL;
        if (inv.argc() == 4) {
            switch (inv.option(3)) {
                case "WRITE" -> mode = ClientPause.Mode.WRITE;
                case "ALL" -> mode = ClientPause.Mode.ALL;
                default -> throw new RedisException("ERR CLIENT PAUSE mode must be WRITE or ALL");
            }
        }
        long timeout = inv.longArg(2, "ERR timeout is not an integer or out of range");
        if (timeout < 0) {
            throw new RedisException("ERR timeout is negative");
        }
        inv.server().pause().pause(timeout, mode);
        return Reply.OK;
    }

    /** CLIENT REPLY ON|OFF|SKIP: OFF and SKIP get no reply themselves, as in Redis. */
    private static CompletableFuture<Reply> reply(Invocation inv) {
        switch (inv.option(2)) {
            case "ON":
                inv.session().repliesOn();
                return done(Reply.OK);
            case "OFF":
                inv.session().repliesOff();
                return done(Reply.OK);
            case "SKIP":
                inv.session().skipNextReply();
                return done(Reply.OK);
            default:
                throw RedisException.syntax();
        }
    }

    private static CompletableFuture<Reply> onOff(Invocation inv) {
        String onOff = inv.option(2);
        if (!onOff.equals("ON") && !onOff.equals("OFF")) {
            throw RedisException.syntax();
        }
        return done(Reply.OK);
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
        String wanted = null;
        for (int i = 2; i < inv.argc(); i++) {
            String opt = inv.option(i);
            if (opt.equals("TYPE") && i + 1 < inv.argc()) {
                String type = inv.option(++i);
                if (!List.of("NORMAL", "MASTER", "REPLICA", "SLAVE", "PUBSUB").contains(type)) {
                    throw new RedisException("ERR Unknown client type '" + inv.argString(i) + "'");
                }
                wanted = type.equals("SLAVE") ? "REPLICA" : type;
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
            String type = c.subscribed() ? "PUBSUB" : "NORMAL";
            if ((ids == null || ids.contains(c.id())) && (wanted == null || wanted.equals(type))) {
                sb.append(describe(c, inv.now(), c == inv.session() ? queryBytes(inv.args()) : 0)).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The size of a request in the multibulk form: Redis's {@code qbuf} of the client running
     * CLIENT LIST or CLIENT INFO, whose query buffer still holds that request.
     */
    static long queryBytes(byte[][] args) {
        long n = 1 + Integer.toString(args.length).length() + 2;
        for (byte[] a : args) {
            n += 1 + Integer.toString(a.length).length() + 2 + a.length + 2;
        }
        return n;
    }

    /**
     * One line of CLIENT LIST, with Redis 7.0's fields: {@code omem} is the bytes of replies not
     * yet sent; the other memory fields are this server's estimates.
     */
    public static String describe(ClientSession c, long now, long queryBytes) {
        // Replies not yet sent: Redis's reply list, counted in its 16 KB blocks.
        long omem = c.unsentOutputBytes();
        return "id=" + c.id() + " addr=" + c.address() + " laddr=" + c.localAddress() + " fd=8 name=" + c.name()
                + " age=" + (now - c.createdMillis()) / 1000 + " idle=" + (now - c.lastCommandMillis()) / 1000
                + " flags=" + flags(c) + " db=" + c.db() + " sub=" + c.channelSubscriptions() + " psub=" + c.patternSubscriptions()
                + " ssub=" + c.shardSubscriptions() + " multi=" + (c.inMulti() ? 0 : -1)
                + " qbuf=" + queryBytes + " qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=" + (omem + 16383) / 16384
                + " omem=" + omem + " tot-mem=" + (1024 + omem) + " events=" + (omem > 0 ? "rw" : "r")
                + " cmd=" + c.lastCommand() + " user=" + c.user() + " redir=" + c.trackingRedirect() + " resp=" + c.protocol();
    }

    /** CLIENT LIST's flags: P subscribed, x in MULTI, b blocked, t/R/B client-side caching, N none. */
    private static String flags(ClientSession c) {
        String f = (c.subscribed() ? "P" : "") + (c.inMulti() ? "x" : "") + (c.blocked() ? "b" : "") + c.trackingFlags();
        return f.isEmpty() ? "N" : f;
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
                    user = AclText.of(inv.arg(i + 1));
                    if (!inv.server().acl().hasUser(user)) {
                        throw new RedisException("ERR No such user '" + user + "'");
                    }
                    break;
                case "TYPE":
                    String type = inv.option(i + 1);
                    if (!List.of("NORMAL", "MASTER", "REPLICA", "SLAVE", "PUBSUB").contains(type)) {
                        throw new RedisException("ERR Unknown client type '" + inv.argString(i + 1) + "'");
                    }
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

    /**
     * CLIENT UNBLOCK id [TIMEOUT|ERROR]: 1 if the client was blocked and now is not, else 0. A
     * blocking command still in its first try is answered after it ({@link ClientSession#unblockAfterFirstTry}).
     */
    private static CompletableFuture<Reply> unblock(Invocation inv) {
        if (inv.argc() > 4) {
            throw new RedisException("ERR unknown subcommand or wrong number of arguments for 'unblock'. Try CLIENT HELP.");
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
                return c.unblockAfterFirstTry(reply).thenApply(unblocked -> unblocked ? Reply.ONE : Reply.ZERO);
            }
        }
        return done(Reply.ZERO);
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
            "PAUSE <timeout> [WRITE|ALL]", "    Suspend all, or just write, clients for <timeout> milliseconds.",
            "REPLY (ON|OFF|SKIP)", "    Control the replies sent to the current connection.",
            "SETNAME <name>", "    Assign the name <name> to the current connection.",
            "CACHING (YES|NO)", "    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
            "GETREDIR", "    Return the client ID we are redirecting to when tracking is enabled.",
            "TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]", "         [OPTIN] [OPTOUT] [NOLOOP]",
            "    Control server assisted client side caching.",
            "TRACKINGINFO", "    Report tracking status for the current connection.",
            "UNBLOCK <clientid> [TIMEOUT|ERROR]", "    Unblock the specified blocked client.",
            "UNPAUSE", "    Stop the current client pause, resuming traffic.",
            "HELP", "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
