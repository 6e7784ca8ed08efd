package io.strata.redis.acl;

import io.strata.redis.command.CommandSpec;
import io.strata.redis.protocol.RedisException;
import io.strata.redis.protocol.Reply;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The replies of the ACL subcommands that show users, categories and the log, in Redis 7.0's
 * shapes (maps and sets become arrays in RESP2).
 *
 * <p>Concurrency: reads a snapshot; any thread.
 */
public final class AclReplies {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int GENPASS_MAX_BITS = 4096;

    private AclReplies() {
    }

    /** ACL GETUSER: flags, passwords, the root selector's commands, keys and channels, then the other selectors. */
    public static CompletableFuture<Reply> getUser(AccessControl acl, String name) {
        return acl.refresh().thenApply(snap -> {
            AclUser u = snap.users().get(name);
            if (u == null) {
                return Reply.NULL_BULK;
            }
            AclDescriber d = acl.describer();
            List<Reply> flags = new ArrayList<>();
            flags.add(Reply.bulk(u.enabled ? "on" : "off"));
            if (u.nopass) {
                flags.add(Reply.bulk("nopass"));
            }
            if (u.sanitize == AclUser.SANITIZE_SKIP) {
                flags.add(Reply.bulk("skip-sanitize-payload"));
            } else if (u.sanitize == AclUser.SANITIZE) {
                flags.add(Reply.bulk("sanitize-payload"));
            }
            List<Reply> passwords = new ArrayList<>();
            for (String p : u.passwords) {
                passwords.add(Reply.bulk(p));
            }
            List<Reply> fields = new ArrayList<>();
            fields.add(Reply.bulk("flags"));
            fields.add(Reply.set(flags));
            fields.add(Reply.bulk("passwords"));
            fields.add(Reply.array(passwords));
            selectorFields(d, u.root(), fields);
            List<Reply> selectors = new ArrayList<>();
            for (AclSelector s : u.selectors.subList(1, u.selectors.size())) {
                List<Reply> sf = new ArrayList<>();
                selectorFields(d, s, sf);
                selectors.add(Reply.map(sf));
            }
            fields.add(Reply.bulk("selectors"));
            fields.add(Reply.array(selectors));
            return Reply.map(fields);
        });
    }

    private static void selectorFields(AclDescriber d, AclSelector s, List<Reply> out) {
        out.add(Reply.bulk("commands"));
        out.add(bulk(d.commandRules(s)));
        out.add(Reply.bulk("keys"));
        out.add(bulk(AclDescriber.keys(s)));
        out.add(Reply.bulk("channels"));
        out.add(bulk(AclDescriber.channels(s)));
    }

    /** ACL LIST ({@code user <name> <rules>} per user) or ACL USERS (names only), in name order. */
    public static CompletableFuture<Reply> list(AccessControl acl, boolean namesOnly) {
        return acl.refresh().thenApply(snap -> {
            List<Reply> out = new ArrayList<>();
            for (Map.Entry<String, AclUser> e : snap.users().entrySet()) {
                out.add(namesOnly ? bulk(e.getKey())
                        : bulk("user " + e.getKey() + " " + acl.describer().describe(e.getValue())));
            }
            return Reply.array(out);
        });
    }

    /** ACL CAT: every category, or the commands and subcommands of one. */
    public static Reply categories(AccessControl acl, String category) {
        List<Reply> out = new ArrayList<>();
        if (category == null) {
            for (String c : AclCategories.ALL) {
                out.add(Reply.bulk(c));
            }
            return Reply.array(out);
        }
        int index = AclCategories.indexOf(category);
        if (index < 0) {
            throw new RedisException("ERR Unknown category '" + truncate(category) + "'");
        }
        for (CommandCatalog.Entry e : acl.catalog().topLevel()) {
            if (e.inCategory(index)) {
                out.add(Reply.bulk(e.fullName()));
            }
            for (CommandCatalog.Entry child : e.children) {
                if (child.inCategory(index)) {
                    out.add(Reply.bulk(child.fullName()));
                }
            }
        }
        return Reply.array(out);
    }

    /** ACL LOG [count]: the newest entries. */
    public static Reply log(AccessControl acl, long count, long nowMillis) {
        List<Reply> out = new ArrayList<>();
        for (AclLog.Entry e : acl.log().newest(Math.max(0, count))) {
            out.add(Reply.map(List.of(
                    Reply.bulk("count"), Reply.integer(e.count()),
                    Reply.bulk("reason"), Reply.bulk(e.reason()),
                    Reply.bulk("context"), Reply.bulk(e.context()),
                    Reply.bulk("object"), bulk(e.object()),
                    Reply.bulk("username"), bulk(e.username()),
                    Reply.bulk("age-seconds"), Reply.doubleValue((nowMillis - e.createdMillis()) / 1000.0),
                    Reply.bulk("client-info"), Reply.bulk(e.clientInfo()))));
        }
        return Reply.array(out);
    }

    /** ACL LOG RESET. */
    public static Reply resetLog(AccessControl acl) {
        acl.log().reset();
        return Reply.OK;
    }

    /** ACL GENPASS [bits]: random hex, 256 bits by default. */
    public static Reply genpass(long bits) {
        if (bits <= 0 || bits > GENPASS_MAX_BITS) {
            throw new RedisException("ERR ACL GENPASS argument must be the number of bits for the output password, "
                    + "a positive number up to " + GENPASS_MAX_BITS);
        }
        int chars = (int) ((bits + 3) / 4);
        char[] hex = "0123456789abcdef".toCharArray();
        StringBuilder sb = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            sb.append(hex[RANDOM.nextInt(16)]);
        }
        return Reply.bulk(sb.toString());
    }

    /** ACL DRYRUN user command [arg ...]: OK, or why the user may not run it. */
    public static CompletableFuture<Reply> dryRun(AccessControl acl, String user, byte[][] request) {
        return acl.refresh().thenApply(snap -> {
            Permissions p = snap.permissions().get(user);
            if (p == null) {
                throw new RedisException("ERR User '" + user + "' not found");
            }
            CommandSpec spec = acl.catalog().table().resolve(request);
            if (spec == null) {
                throw new RedisException("ERR Command '" + AclText.of(request[0]) + "' not found");
            }
            if (!spec.acceptsArgumentCount(request.length)) {
                throw new RedisException("ERR wrong number of arguments for '" + spec.name() + "' command");
            }
            Denial d = p.check(spec, request);
            return d == null ? Reply.OK : Reply.bulk(AclText.bytes(d.dryRunMessage(request)));
        });
    }

    private static Reply bulk(String latin1) {
        return Reply.bulk(AclText.bytes(latin1));
    }

    private static String truncate(String s) {
        return s.length() > 128 ? s.substring(0, 128) : s;
    }
}
