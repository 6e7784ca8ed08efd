package io.strata.redis.commands;

import static io.strata.redis.command.CommandSpec.Kind.LOCAL;
import static io.strata.redis.command.Invocation.done;

import io.strata.redis.acl.AccessControl;
import io.strata.redis.acl.AclReplies;
import io.strata.redis.acl.AclText;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.Invocation;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * ACL and its subcommands, as Redis 7.0 answers them. Users are shared by every server on the
 * database ({@link AccessControl}); LOAD and SAVE answer as a Redis without an ACL file,
 * because users are already kept in the database.
 */
final class AclCommands {
    private static final String NO_ACL_FILE = "ERR This Redis instance is not configured to use an ACL file. You may "
            + "want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a "
            + "Redis configuration file set) in order to store users in the Redis configuration.";

    private AclCommands() {
    }

    static void register(CommandTable t) {
        t.addContainer("acl");
        // Redis 7.0's subcommands of ACL (arity and flags as its command table has them); one handler dispatches.
        String[][] subs = {
            {"cat", "-2", ""}, {"deluser", "-3", "admin"}, {"dryrun", "-4", "admin"}, {"genpass", "-2", ""},
            {"getuser", "3", "admin"}, {"list", "2", "admin"}, {"load", "2", "admin"}, {"log", "-2", "admin"},
            {"save", "2", "admin"}, {"setuser", "-3", "admin"}, {"users", "2", "admin"}, {"whoami", "2", ""},
        };
        for (String[] sub : subs) {
            t.addSubcommand("acl", sub[0], Integer.parseInt(sub[1]), sub[2] + " noscript loading stale", 0, 0, 0, "", LOCAL,
                    (inv, tr) -> acl(inv));
        }
        t.addSubcommand("acl", "help", 2, "loading stale", 0, 0, 0, "", LOCAL, (inv, tr) -> acl(inv));
    }

    private static CompletableFuture<Reply> acl(Invocation inv) {
        AccessControl acl = inv.server().acl();
        String sub = inv.option(1);
        int argc = inv.argc();
        switch (sub) {
            case "SETUSER":
                if (argc >= 3) {
                    List<String> ops = new ArrayList<>();
                    for (int i = 3; i < argc; i++) {
                        ops.add(AclText.of(inv.arg(i)));
                    }
                    return acl.setUser(inv.session(), AclText.of(inv.arg(2)), ops).thenApply(ignored -> Reply.OK);
                }
                break;
            case "DELUSER":
                if (argc >= 3) {
                    List<String> names = new ArrayList<>();
                    for (int i = 2; i < argc; i++) {
                        names.add(AclText.of(inv.arg(i)));
                    }
                    return acl.deleteUsers(inv.session(), names).thenApply(Reply::integer);
                }
                break;
            case "GETUSER":
                if (argc == 3) {
                    return AclReplies.getUser(acl, AclText.of(inv.arg(2)));
                }
                break;
            case "LIST":
            case "USERS":
                if (argc == 2) {
                    return AclReplies.list(acl, sub.equals("USERS"));
                }
                break;
            case "WHOAMI":
                if (argc == 2) {
                    return done(Reply.bulk(AclText.bytes(inv.session().user())));
                }
                break;
            case "LOAD":
            case "SAVE":
                throw new RedisException(NO_ACL_FILE);
            case "CAT":
                if (argc == 2 || argc == 3) {
                    return done(AclReplies.categories(acl, argc == 3 ? inv.argString(2) : null));
                }
                break;
            case "GENPASS":
                if (argc == 2 || argc == 3) {
                    return done(AclReplies.genpass(argc == 3 ? inv.longArg(2) : 256));
                }
                break;
            case "LOG":
                if (argc == 2 || argc == 3) {
                    return done(log(inv, acl));
                }
                break;
            case "DRYRUN":
                if (argc >= 4) {
                    return AclReplies.dryRun(acl, AclText.of(inv.arg(2)), Arrays.copyOfRange(inv.args(), 3, argc));
                }
                break;
            case "HELP":
                if (argc == 2) {
                    return done(help());
                }
                break;
            default:
                break;
        }
        throw inv.subcommandSyntaxError();
    }

    private static Reply log(Invocation inv, AccessControl acl) {
        long count = 10;
        if (inv.argc() == 3) {
            if (inv.option(2).equals("RESET")) {
                return AclReplies.resetLog(acl);
            }
            count = inv.longArg(2);
        }
        return AclReplies.log(acl, count, inv.now());
    }

    private static Reply help() {
        List<Reply> lines = new ArrayList<>();
        for (String l : new String[] {
            "ACL <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "CAT [<category>]",
            "    List all commands that belong to <category>, or all command categories",
            "    when no category is specified.",
            "DELUSER <username> [<username> ...]",
            "    Delete a list of users.",
            "DRYRUN <username> <command> [<arg> ...]",
            "    Returns whether the user can execute the given command without executing the command.",
            "GETUSER <username>",
            "    Get the user's details.",
            "GENPASS [<bits>]",
            "    Generate a secure 256-bit user password. The optional `bits` argument can",
            "    be used to specify a different size.",
            "LIST",
            "    Show users details in config file format.",
            "LOAD",
            "    Reload users from the ACL file.",
            "LOG [<count> | RESET]",
            "    Show the ACL log entries.",
            "SAVE",
            "    Save the current config to the ACL file.",
            "SETUSER <username> <attribute> [<attribute> ...]",
            "    Create or modify a user with the specified attributes.",
            "USERS",
            "    List all the registered usernames.",
            "WHOAMI",
            "    Return the current connection username.",
            "HELP",
            "    Print this help."}) {
            lines.add(Reply.simple(l));
        }
        return Reply.array(lines);
    }
}
