package io.strata.redis.acl;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.redis.command.CommandSpec;
import io.strata.redis.command.CommandTable;
import io.strata.redis.command.KeySpecs;
import io.strata.redis.command.KeySpecs.KeyRef;
import io.strata.redis.commands.CommandGroups;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Permissions and key specs without a server: channel rules (the pub/sub commands are
 * registered here as stand-ins, with Redis's flags), keys found by Redis 7.0's key specs for
 * commands with movable keys, and which denial is reported when every selector denies.
 */
class PermissionsTest {
    private final CommandTable table = table();
    private final CommandCatalog catalog = new CommandCatalog(table);

    /** The server's groups, plus stand-ins with Redis's flags for the pub/sub commands when no group has them. */
    private static CommandTable table() {
        CommandTable t = new CommandTable();
        CommandGroups.registerAll(t);
        for (String name : new String[] {"publish", "spublish"}) {
            if (t.lookup(name) == null) {
                t.add(name, 3, "pubsub loading stale fast may_replicate", 0, 0, 0, "", CommandSpec.Kind.LOCAL, (inv, tr) -> CompletableFuture.completedFuture(null));
            }
        }
        for (String name : new String[] {"subscribe", "ssubscribe", "psubscribe"}) {
            if (t.lookup(name) == null) {
                t.add(name, -2, "pubsub noscript loading stale", 0, 0, 0, "", CommandSpec.Kind.LOCAL, (inv, tr) -> CompletableFuture.completedFuture(null));
            }
        }
        // Stand-ins for commands other groups may not register yet: only their names matter to key specs.
        for (String name : new String[] {"xread", "zunionstore", "georadius", "migrate", "sort", "lmpop"}) {
            if (t.lookup(name) == null) {
                t.add(name, -2, "write", 0, 0, 0, "", CommandSpec.Kind.LOCAL, (inv, tr) -> CompletableFuture.completedFuture(null));
            }
        }
        return t;
    }

    private Permissions user(String... rules) throws Exception {
        AclRules r = new AclRules(catalog, false);
        return new Permissions(catalog, r.apply(null, "u", List.of(rules)));
    }

    private Denial check(Permissions p, String... args) {
        byte[][] request = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            request[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return p.check(table.resolve(request), request);
    }

    private List<Integer> keys(String... args) {
        byte[][] request = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            request[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return KeySpecs.keys(table.lookup(request[0]), request).stream().map(KeyRef::position).toList();
    }

    @Test
    void channelsArePatternsForNamesAndLiteralsForPatterns() throws Exception {
        Permissions p = user("+@all", "resetchannels", "&foo:1", "&bar:*");
        assertThat(check(p, "publish", "foo:1", "m")).isNull();
        assertThat(check(p, "publish", "bar:2", "m")).isNull();
        Denial d = check(p, "publish", "zap:3", "m");
        assertThat(d.reason()).isEqualTo(Denial.Reason.CHANNEL);
        assertThat(d.errorMessage()).isEqualTo("NOPERM this user has no permissions to access one of the channels used as arguments");
        assertThat(check(p, "subscribe", "foo:1", "bar:2")).isNull();
        assertThat(check(p, "subscribe", "foo:1", "zap").position()).isEqualTo(2);
        assertThat(check(p, "ssubscribe", "bar:x")).isNull();
        assertThat(check(p, "psubscribe", "bar:*")).isNull();
        assertThat(check(p, "psubscribe", "bar:baz").reason()).isEqualTo(Denial.Reason.CHANNEL);
        assertThat(p.allowsSubscription("bar:*".getBytes(StandardCharsets.ISO_8859_1), true)).isTrue();
        assertThat(p.allowsSubscription("zap".getBytes(StandardCharsets.ISO_8859_1), false)).isFalse();
        assertThat(check(user("+@all", "allchannels"), "publish", "anything", "m")).isNull();
        assertThat(check(user("+@all"), "publish", "anything", "m").reason()).isEqualTo(Denial.Reason.CHANNEL);
    }

    @Test
    void keysOfCommandsWithMovableKeysFollowRedisKeySpecs() {
        assertThat(keys("xread", "COUNT", "2", "STREAMS", "a", "b", "0", "0")).containsExactly(4, 5);
        assertThat(keys("zunionstore", "dst", "2", "a", "b", "WEIGHTS", "1", "2")).containsExactly(1, 3, 4);
        assertThat(keys("zunionstore", "dst", "x", "a")).isEmpty();
        assertThat(keys("georadius", "src", "0", "0", "1", "km", "STORE", "dst")).containsExactly(1, 7);
        assertThat(keys("migrate", "h", "p", "", "0", "5000", "AUTH2", "KEYS", "123", "KEYS", "a", "b")).containsExactly(10, 11);
        assertThat(keys("sort", "src", "BY", "w*", "STORE", "dst")).containsExactly(1, 5);
        assertThat(keys("lmpop", "2", "a", "b", "LEFT")).containsExactly(2, 3);
        assertThat(keys("mset", "a", "1", "b", "2")).containsExactly(1, 3);
    }

    @Test
    void theLatestDeniedKeyOfAnySelectorIsReported() throws Exception {
        Permissions p = user("+mget", "~key", "(+mget ~key ~otherkey)");
        Denial command = check(p, "get", "key");
        assertThat(command.reason()).isEqualTo(Denial.Reason.COMMAND);
        assertThat(command.command()).isEqualTo("get");
        Denial key = check(p, "mget", "otherkey", "someotherkey");
        assertThat(key.reason()).isEqualTo(Denial.Reason.KEY);
        assertThat(key.position()).isEqualTo(2);
        assertThat(check(p, "mget", "key", "otherkey", "someotherkey").position()).isEqualTo(3);
    }

    @Test
    void subcommandsAndFirstArgumentsHaveTheirOwnBits() throws Exception {
        Permissions p = user("-@all", "+client|id", "+select|0");
        assertThat(check(p, "client", "id")).isNull();
        assertThat(check(p, "client", "kill", "x").command()).isEqualTo("client|kill");
        assertThat(check(p, "select", "0")).isNull();
        assertThat(check(p, "SELECT", "1").reason()).isEqualTo(Denial.Reason.COMMAND);
        assertThat(check(p, "auth", "x")).as("commands that need no authentication are always allowed").isNull();
    }
}
