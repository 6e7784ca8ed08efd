package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.acl.AclText;
import io.strata.redis.command.ClientSession;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Connection commands: PING, ECHO, QUIT, SELECT, AUTH, HELLO, RESET and CLIENT.
 * They change the connection, not the data, so they run without a transaction.
 */
final class ConnectionCommands {
    /** The Redis version this server speaks, as HELLO and INFO report it. */
    static final String REDIS_VERSION = "7.0.15";

    private ConnectionCommands() {
    }

    static void register(CommandTable t) {
        t.add("ping", -1, "fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> ping(inv));
        t.add("echo", 2, "loading stale fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> done(Reply.bulk(inv.arg(1))));
        t.add("quit", -1, "no_auth noscript loading stale fast allow_busy", 0, 0, 0, "connection", LOCAL, (inv, tr) -> {
            inv.session().requestClose();
            return done(Reply.OK);
        });
        t.add("select", 2, "loading stale fast", 0, 0, 0, "connection", LOCAL, (inv, tr) -> select(inv));
        t.add("auth", -2, "noscript loading stale fast no_auth allow_busy", 0, 0, 0, "connection", LOCAL, (inv, tr) -> auth(inv));
        t.add("hello", -1, "noscript loading stale fast no_auth allow_busy", 0, 0, 0, "connection", LOCAL, (inv, tr) -> hello(inv));
        t.add("reset", 1, "noscript loading stale fast no_auth allow_busy", 0, 0, 0, "connection", LOCAL, (inv, tr) -> reset(inv));
        ClientCommand.register(t);
    }

    private static CompletableFuture<Reply> ping(Invocation inv) {
        if (inv.argc() > 2) {
            throw new RedisException("ERR wrong number of arguments for 'ping' command");
        }
        if (inv.session().subscribed() && inv.session().protocol() == 2) {
            // RESP2 subscribers read every reply as a message: Redis answers with one.
            return done(Reply.array(Reply.bulk("pong"), inv.argc() == 2 ? Reply.bulk(inv.arg(1)) : Reply.bulk("")));
        }
        return done(inv.argc() == 2 ? Reply.bulk(inv.arg(1)) : Reply.PONG);
    }

    private static CompletableFuture<Reply> select(Invocation inv) {
        long db = inv.longArg(1, "ERR value is not an integer or out of range");
        if (db < 0 || db >= inv.server().config().databases()) {
            throw new RedisException("ERR DB index is out of range");
        }
        inv.session().db((int) db);
        return done(Reply.OK);
    }

    private static CompletableFuture<Reply> auth(Invocation inv) {
        if (inv.argc() > 3) {
            throw RedisException.syntax();
        }
        if (inv.argc() == 2 && !inv.server().acl().defaultUserHasPassword()) {
            throw new RedisException("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?");
        }
        String user = inv.argc() == 3 ? AclText.of(inv.arg(1)) : "default";
        return inv.server().acl().authenticate(inv.session(), user, inv.arg(inv.argc() - 1), inv.argString(0))
                .thenApply(ignored -> Reply.OK);
    }

    private static CompletableFuture<Reply> hello(Invocation inv) {
        ClientSession s = inv.session();
        int protocol = s.protocol();
        int i = 1;
        if (inv.argc() >= 2) {
            long v;
            try {
                v = inv.longArg(1);
            } catch (RedisException e) {
                throw new RedisException("ERR Protocol version is not an integer or out of range");
            }
            if (v < 2 || v > 3) {
                throw new RedisException("NOPROTO unsupported protocol version");
            }
            protocol = (int) v;
            i = 2;
        }
        String setName = null;
        String authUser = null;
        byte[] authPassword = null;
        for (; i < inv.argc(); i++) {
            String opt = inv.option(i);
            int left = inv.argc() - i - 1;
            if (opt.equals("AUTH") && left >= 2) {
                authUser = AclText.of(inv.arg(i + 1));
                authPassword = inv.arg(i + 2);
                i += 2;
            } else if (opt.equals("SETNAME") && left >= 1) {
                setName = inv.argString(i + 1);
                ClientCommand.checkName(setName);
                i += 1;
            } else {
                throw new RedisException("ERR Syntax error in HELLO option '" + inv.argString(i) + "'");
            }
        }
        CompletableFuture<Void> auth = authUser == null ? CompletableFuture.completedFuture(null)
                : inv.server().acl().authenticate(s, authUser, authPassword, inv.argString(0));
        int chosen = protocol;
        String name = setName;
        return auth.thenApply(ignored -> helloReply(inv, chosen, name));
    }

    private static Reply helloReply(Invocation inv, int protocol, String setName) {
        ClientSession s = inv.session();
        if (!s.authenticated()) {
            throw new RedisException("NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                    + "HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the "
                    + "RESP protocol version at the same time");
        }
        if (setName != null) {
            s.name(setName);
        }
        s.protocol(protocol);
        List<Reply> m = new ArrayList<>();
        m.add(Reply.bulk("server"));
        m.add(Reply.bulk("redis"));
        m.add(Reply.bulk("version"));
        m.add(Reply.bulk(REDIS_VERSION));
        m.add(Reply.bulk("proto"));
        m.add(Reply.integer(protocol));
        m.add(Reply.bulk("id"));
        m.add(Reply.integer(s.id()));
        m.add(Reply.bulk("mode"));
        m.add(Reply.bulk("standalone"));
        m.add(Reply.bulk("role"));
        m.add(Reply.bulk("master"));
        m.add(Reply.bulk("modules"));
        m.add(Reply.EMPTY_ARRAY);
        return Reply.map(m);
    }

    private static CompletableFuture<Reply> reset(Invocation inv) {
        ClientSession s = inv.session();
        if (s.inMulti()) {
            s.endMulti();
        }
        s.unwatchAll();
        s.db(0);
        s.protocol(2);
        s.name("");
        s.deauthenticate(inv.server().acl().defaultUserOpen());
        s.repliesOn();
        inv.server().monitors().remove(s.id());
        inv.server().tracking().disable(s);
        // Subscriptions end without confirmations; the reply waits until they are unregistered.
        return inv.server().pubsub().reset(s).thenApply(ignored -> Reply.simple("RESET"));
    }
}
