package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.ProtocolVersion;
import io.strata.Strata;
import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.KeyValue;

/**
 * ACL over TCP with Jedis (and Lettuce's RESP3 login with HELLO): rules and their descriptions, AUTH as users, NOPERM for commands,
 * subcommands and keys, MULTI/EXEC, DRYRUN, LOG, the default user, and users shared through the
 * database — across a restart and between two servers on one database. Expected replies are
 * Redis 7.0.15's.
 */
class AclTest {
    private RunningServer server;
    private Jedis admin;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start();
        admin = server.jedis();
    }

    @AfterEach
    void stop() {
        admin.close();
        server.close();
    }

    private static Object acl(Jedis j, String... args) {
        return decode(j.sendCommand(Command.ACL, args));
    }

    private static Object run(Jedis j, String command, String... args) {
        return decode(j.sendCommand(() -> command.getBytes(StandardCharsets.UTF_8), args));
    }

    private static Object decode(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object o : list) {
                out.add(decode(o));
            }
            return out;
        }
        return reply;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object reply) {
        return (List<Object>) reply;
    }

    private static String error(Runnable r) {
        try {
            r.run();
        } catch (JedisDataException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected an error reply");
    }

    /** GETUSER's field in RESP2 (a flat list of names and values). */
    @SuppressWarnings("unchecked")
    private static Object field(Object getUser, String name) {
        List<Object> l = (List<Object>) getUser;
        for (int i = 0; i < l.size(); i += 2) {
            if (l.get(i).equals(name)) {
                return l.get(i + 1);
            }
        }
        throw new AssertionError("no field " + name + " in " + l);
    }

    private Jedis as(String user, String password) {
        Jedis j = server.jedis();
        j.auth(user, password);
        return j;
    }

    @Test
    void rulesAreDescribedAsRedisDescribesThem() {
        assertThat(acl(admin, "LIST")).isEqualTo(List.of("user default on nopass ~* &* +@all"));
        acl(admin, "SETUSER", "x");
        acl(admin, "SETUSER", "y", "reset");
        acl(admin, "SETUSER", "z", "(~foo +get)", "%R~bar", "%W~baz", "%RW~q", ">secret", "&news:*");
        acl(admin, "SETUSER", "w", "+@all", "-client|kill", "+select|0");
        assertThat(acl(admin, "LIST")).isEqualTo(List.of(
                "user default on nopass ~* &* +@all",
                "user w off resetchannels +@all -client|kill",
                "user x off resetchannels -@all",
                "user y off sanitize-payload resetchannels -@all",
                "user z off #2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b %R~bar %W~baz ~q "
                        + "resetchannels &news:* -@all (~foo resetchannels -@all +get)"));
        assertThat(acl(admin, "USERS")).isEqualTo(List.of("default", "w", "x", "y", "z"));

        Object z = acl(admin, "GETUSER", "z");
        assertThat(field(z, "flags")).isEqualTo(List.of("off"));
        assertThat(field(z, "passwords")).isEqualTo(List.of("2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"));
        assertThat(field(z, "commands")).isEqualTo("-@all");
        assertThat(field(z, "keys")).isEqualTo("%R~bar %W~baz ~q");
        assertThat(field(z, "channels")).isEqualTo("&news:*");
        assertThat(field(z, "selectors")).isEqualTo(List.of(List.of("commands", "-@all +get", "keys", "~foo", "channels", "")));
        assertThat(field(acl(admin, "GETUSER", "default"), "flags")).isEqualTo(List.of("on", "nopass"));
        assertThat(acl(admin, "GETUSER", "nobody")).isNull();

        acl(admin, "SETUSER", "c", "+@all", "-client", "+client|id", "+client|setname");
        assertThat((String) field(acl(admin, "GETUSER", "c"), "commands"))
                .startsWith("+@all").contains("-client").contains("+client|id").contains("+client|setname");
        acl(admin, "SETUSER", "m", "+client|id");
        assertThat(field(acl(admin, "GETUSER", "m"), "commands")).isEqualTo("-@all +client|id");
        acl(admin, "SETUSER", "m", "+@all", "+client|id");
        assertThat(field(acl(admin, "GETUSER", "m"), "commands")).isEqualTo("+@all");
        acl(admin, "SETUSER", "m", "reset", "+@all", "-@string");
        assertThat(field(acl(admin, "GETUSER", "m"), "commands")).isEqualTo("+@all -@string");
        acl(admin, "SETUSER", "m", "reset", "-@all", "+@hash");
        assertThat(field(acl(admin, "GETUSER", "m"), "commands")).isEqualTo("-@all +@hash");
    }

    @Test
    void getUserIsAMapInResp3() {
        try (Jedis j = new Jedis(new HostAndPort("127.0.0.1", server.port()),
                DefaultJedisClientConfig.builder().protocol(RedisProtocol.RESP3).build())) {
            Object reply = j.sendCommand(Command.ACL, "GETUSER", "default");
            assertThat(reply).isInstanceOf(List.class);
            assertThat(((List<?>) reply).get(0)).isInstanceOf(KeyValue.class);
        }
    }

    @Test
    void lettuceLogsInAsAUserWithHelloOverResp3() {
        acl(admin, "SETUSER", "lettuce", "on", ">lpw", "+@read", "+hello", "~k*");
        admin.set("k1", "v");
        RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(server.port())
                .withAuthentication("lettuce", "lpw".toCharArray()).build();
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder().protocolVersion(ProtocolVersion.RESP3).build());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            assertThat(c.sync().get("k1")).isEqualTo("v");
            assertThatThrownBy(() -> c.sync().get("other")).isInstanceOf(RedisCommandExecutionException.class)
                    .hasMessage("NOPERM this user has no permissions to access one of the keys used as arguments");
            assertThatThrownBy(() -> c.sync().set("k1", "w")).isInstanceOf(RedisCommandExecutionException.class)
                    .hasMessage("NOPERM this user has no permissions to run the 'set' command");
        } finally {
            client.shutdown();
        }
    }

    @Test
    void badRulesChangeNothingAndAnswerRedisErrors() {
        acl(admin, "SETUSER", "u", "on", "nopass", "+get", "~k");
        assertThat(error(() -> acl(admin, "SETUSER", "a a"))).isEqualTo("ERR Usernames can't contain spaces or null characters");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "+set", "#abc")))
                .isEqualTo("ERR Error in ACL SETUSER modifier '#abc': The password hash must be exactly 64 characters and "
                        + "contain only lowercase hexadecimal characters");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "+nosuch")))
                .isEqualTo("ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "+client|id|x")))
                .endsWith("Allowing first-arg of a subcommand is not supported");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "+client|id", "+get|key1|key2")))
                .endsWith("Unknown command or category name in ACL");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "+client|nosuch")))
                .endsWith("Unknown command or category name in ACL");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "~*", "~foo"))).contains("Adding a pattern after the * pattern");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "(", "~x"))).isEqualTo("ERR Unmatched parenthesis in acl selector starting at '('.");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "(this-is-invalid)")))
                .isEqualTo("ERR Error in ACL SETUSER modifier '(this-is-invalid)': Syntax error");
        assertThat(error(() -> acl(admin, "SETUSER", "u", "<notapassword")))
                .endsWith("The password you are trying to remove from the user does not exist");
        assertThat(list(acl(admin, "LIST"))).contains("user u on nopass ~k resetchannels -@all +get");
    }

    @Test
    void usersLogInWithTheirPasswordsOnlyWhenEnabled() {
        acl(admin, "SETUSER", "newuser", ">passwd1");
        try (Jedis j = server.jedis()) {
            assertThat(error(() -> j.auth("newuser", "passwd1")))
                    .isEqualTo("WRONGPASS invalid username-password pair or user is disabled.");
            acl(admin, "SETUSER", "newuser", "on", "+acl", ">passwd2");
            assertThat(j.auth("newuser", "passwd1")).isEqualTo("OK");
            assertThat(acl(j, "WHOAMI")).isEqualTo("newuser");
            assertThat(j.auth("newuser", "passwd2")).isEqualTo("OK");
            acl(admin, "SETUSER", "newuser", "<passwd1");
            assertThat(error(() -> j.auth("newuser", "passwd1"))).startsWith("WRONGPASS");
            acl(admin, "SETUSER", "newuser", "#34344e4d60c2b6d639b7bd22e18f2b0b91bc34bf0ac5f9952744435093cfb4e6");
            assertThat(j.auth("newuser", "passwd4")).isEqualTo("OK");
            acl(admin, "SETUSER", "newuser", "nopass");
            assertThat(j.auth("newuser", "anything")).isEqualTo("OK");
            assertThat(error(() -> j.auth("nosuchuser", "x"))).startsWith("WRONGPASS");
            assertThat(error(() -> j.auth("onlypassword")))
                    .isEqualTo("ERR AUTH <password> called without any password configured for the default user. "
                            + "Are you sure your configuration is correct?");
        }
    }

    @Test
    void commandsSubcommandsAndKeysAreChecked() {
        acl(admin, "SETUSER", "u", "on", "nopass", "+set", "+get", "+client|id", "+select|0", "~foo:*", "%R~ro:*");
        try (Jedis j = as("u", "x")) {
            assertThat(error(() -> j.incr("foo:1"))).isEqualTo("NOPERM this user has no permissions to run the 'incr' command");
            assertThat(j.set("foo:1", "v")).isEqualTo("OK");
            assertThat(error(() -> j.set("bar", "v")))
                    .isEqualTo("NOPERM this user has no permissions to access one of the keys used as arguments");
            assertThat(j.get("ro:1")).isNull();
            assertThat(error(() -> j.set("ro:1", "v"))).startsWith("NOPERM this user has no permissions to access one of the keys");
            assertThat(run(j, "CLIENT", "ID")).isInstanceOf(Long.class);
            assertThat(error(() -> run(j, "CLIENT", "KILL", "TYPE", "master")))
                    .isEqualTo("NOPERM this user has no permissions to run the 'client|kill' command");
            assertThat(j.select(0)).isEqualTo("OK");
            assertThat(error(() -> j.select(1))).isEqualTo("NOPERM this user has no permissions to run the 'select' command");
            assertThat(error(j::ping)).isEqualTo("NOPERM this user has no permissions to run the 'ping' command");
            assertThat(j.auth("u", "x")).isEqualTo("OK");
        }
    }

    @Test
    void readAndWritePatternsFollowHowEachCommandUsesItsKeys() {
        acl(admin, "SETUSER", "w", "on", "nopass", "+@all", "%W~write*");
        acl(admin, "SETUSER", "r", "on", "nopass", "+@all", "%R~read*");
        try (Jedis w = as("w", "x"); Jedis r = as("r", "x")) {
            assertThat(w.set("writestr", "bar")).isEqualTo("OK");
            assertThat(error(() -> run(w, "SET", "writestr", "bar", "GET"))).startsWith("NOPERM");
            assertThat(error(() -> w.get("writestr"))).startsWith("NOPERM");
            assertThat(w.del("writestr")).isEqualTo(1);
            assertThat(w.exists("writestr")).isFalse();
            assertThat(error(() -> w.incr("writenum"))).startsWith("NOPERM");
            assertThat(r.get("readstr")).isNull();
            assertThat(r.strlen("readstr")).isZero();
            assertThat(error(() -> r.set("readstr", "v"))).startsWith("NOPERM");
            assertThat(error(() -> r.mget("readstr", "other"))).startsWith("NOPERM");
        }
    }

    @Test
    void selectorsAllowWhatAnyOneOfThemAllows() {
        acl(admin, "SETUSER", "s", "on", "nopass", "-@all", "(+@write ~write::*)", "(+@read ~read::*)");
        try (Jedis j = as("s", "x")) {
            assertThat(error(j::ping)).isEqualTo("NOPERM this user has no permissions to run the 'ping' command");
            assertThat(j.set("write::foo", "bar")).isEqualTo("OK");
            assertThat(j.get("read::foo")).isNull();
            assertThat(error(() -> j.get("write::foo"))).startsWith("NOPERM this user has no permissions to access one of the keys");
            assertThat(error(() -> j.set("read::foo", "bar"))).startsWith("NOPERM this user has no permissions to access one of the keys");
        }
    }

    @Test
    void aDeniedCommandInMultiAbortsTheTransaction() {
        acl(admin, "SETUSER", "u", "on", ">p", "+multi", "+exec", "+discard", "+incr", "~object:*");
        try (Jedis j = as("u", "p")) {
            assertThat(run(j, "MULTI")).isEqualTo("OK");
            assertThat(error(() -> run(j, "GET", "object:1")))
                    .isEqualTo("NOPERM this user has no permissions to run the 'get' command");
            assertThat(error(() -> run(j, "EXEC"))).isEqualTo("EXECABORT Transaction discarded because of previous errors.");

            // Rules that change between queueing and EXEC: the command fails at EXEC, the others run.
            assertThat(run(j, "MULTI")).isEqualTo("OK");
            assertThat(run(j, "INCR", "object:1")).isEqualTo("QUEUED");
            acl(admin, "SETUSER", "u", "-incr");
            @SuppressWarnings("unchecked")
            List<Object> replies = (List<Object>) j.sendCommand(Command.EXEC);
            assertThat(replies).hasSize(1);
            assertThat(((JedisDataException) replies.get(0)).getMessage()).isEqualTo(
                    "NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "
                            + "This command is no longer allowed for the following reason: no permission to execute the "
                            + "command or subcommand");
        }
        assertThat(admin.exists("object:1")).isFalse();
        Object entry = ((List<?>) acl(admin, "LOG", "1")).get(0);
        assertThat(field(entry, "context")).isEqualTo("multi");
        assertThat(field(entry, "object")).isEqualTo("incr");
    }

    @Test
    void sortPatternsNeedAUserThatMayReadAnyKey() {
        admin.set("v1", "1");
        admin.sadd("myset", "1");
        acl(admin, "SETUSER", "s", "on", "nopass", "(+sort ~myset ~v*)");
        try (Jedis j = as("s", "x")) {
            assertThat(error(() -> run(j, "SORT", "myset", "BY", "v*")))
                    .isEqualTo("ERR BY option of SORT denied due to insufficient ACL permissions.");
            assertThat(error(() -> run(j, "SORT", "myset", "GET", "v*")))
                    .isEqualTo("ERR GET option of SORT denied due to insufficient ACL permissions.");
            assertThat(run(j, "SORT", "myset", "BY", "nosort")).isEqualTo(List.of("1"));
            acl(admin, "SETUSER", "s", "clearselectors", "(+sort ~myset %R~*)");
            assertThat(run(j, "SORT", "myset", "BY", "v*")).isEqualTo(List.of("1"));
        }
    }

    @Test
    void dryRunAnswersWithoutRunning() {
        acl(admin, "SETUSER", "t", "+@all", "%R~read*", "%W~write*", "%RW~rw*");
        assertThat(acl(admin, "DRYRUN", "t", "GET", "read")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "GET", "write")).isEqualTo("This user has no permissions to access the 'write' key");
        assertThat(acl(admin, "DRYRUN", "t", "SET", "write", "v")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "SET", "write", "v", "GET"))
                .isEqualTo("This user has no permissions to access the 'write' key");
        // Movable keys (this server has no scripting, so no EVAL): a destination written, sources read.
        assertThat(acl(admin, "DRYRUN", "t", "ZUNIONSTORE", "rw1", "1", "rw2")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "ZUNIONSTORE", "read", "1", "rw2"))
                .isEqualTo("This user has no permissions to access the 'read' key");
        assertThat(acl(admin, "DRYRUN", "t", "SINTERCARD", "1", "read")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "SINTERCARD", "3", "rw", "read")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "HEXISTS", "write", "f")).isEqualTo("OK");
        assertThat(acl(admin, "DRYRUN", "t", "HEXISTS", "nothing", "f"))
                .isEqualTo("This user has no permissions to access the 'nothing' key");
        acl(admin, "SETUSER", "t", "-@all");
        assertThat(acl(admin, "DRYRUN", "t", "SET", "k", "v")).isEqualTo("This user has no permissions to run the 'set' command");
        assertThat(error(() -> acl(admin, "DRYRUN", "nobody", "GET", "k"))).isEqualTo("ERR User 'nobody' not found");
        assertThat(error(() -> acl(admin, "DRYRUN", "t", "NOSUCH", "k"))).isEqualTo("ERR Command 'NOSUCH' not found");
        assertThat(error(() -> acl(admin, "DRYRUN", "t", "SET", "k"))).isEqualTo("ERR wrong number of arguments for 'set' command");
    }

    @Test
    void logRecordsDenialsAndFailedLogins() {
        acl(admin, "SETUSER", "antirez", ">foo", "on", "+set", "~object:1234");
        try (Jedis j = as("antirez", "foo")) {
            for (int i = 0; i < 3; i++) {
                error(() -> j.get("foo"));
            }
            error(() -> j.set("somekeynotallowed", "1"));
        }
        error(() -> admin.auth("antirez", "wrong"));
        @SuppressWarnings("unchecked")
        List<Object> log = (List<Object>) acl(admin, "LOG");
        assertThat(log).hasSize(3);
        assertThat(field(log.get(0), "reason")).isEqualTo("auth");
        assertThat(field(log.get(0), "object")).isEqualTo("AUTH");
        assertThat(field(log.get(0), "username")).isEqualTo("antirez");
        assertThat(field(log.get(1), "reason")).isEqualTo("key");
        assertThat(field(log.get(1), "object")).isEqualTo("somekeynotallowed");
        assertThat(field(log.get(2), "reason")).isEqualTo("command");
        assertThat(field(log.get(2), "object")).isEqualTo("get");
        assertThat(field(log.get(2), "count")).isEqualTo(3L);
        assertThat(field(log.get(2), "context")).isEqualTo("toplevel");
        assertThat((String) field(log.get(2), "client-info")).contains("user=antirez");
        assertThat((List<?>) acl(admin, "LOG", "2")).hasSize(2);
        assertThat(acl(admin, "LOG", "RESET")).isEqualTo("OK");
        assertThat((List<?>) acl(admin, "LOG")).isEmpty();
    }

    @Test
    void theDefaultUserDecidesWhetherConnectionsMustAuthenticate() {
        acl(admin, "SETUSER", "default", "off");
        try (Jedis j = server.jedis()) {
            assertThat(error(j::ping)).isEqualTo("NOAUTH Authentication required.");
        }
        acl(admin, "SETUSER", "default", "on", "resetpass", ">pw");
        try (Jedis j = server.jedis()) {
            assertThat(error(() -> j.set("k", "v"))).isEqualTo("NOAUTH Authentication required.");
            assertThat(j.auth("pw")).isEqualTo("OK");
            assertThat(j.set("k", "v")).isEqualTo("OK");
        }
        acl(admin, "SETUSER", "secure", ">supass", "on", "+@all");
        acl(admin, "SETUSER", "default", "-@all");
        try (Jedis j = server.jedis()) {
            Object hello = decode(j.sendCommand(Command.HELLO, "2", "AUTH", "secure", "supass"));
            assertThat(list(hello)).contains("proto");
            assertThat(acl(j, "WHOAMI")).isEqualTo("secure");
        }
    }

    @Test
    void deletingAUserClosesItsConnectionsAfterTheReply() {
        assertThat(error(() -> acl(admin, "DELUSER", "default"))).isEqualTo("ERR The 'default' user cannot be removed");
        acl(admin, "SETUSER", "not_used", "on", ">passwd");
        assertThat(acl(admin, "DELUSER", "not_used", "nobody")).isEqualTo(1L);
        assertThat(admin.ping()).isEqualTo("PONG");

        acl(admin, "SETUSER", "using", "on", "+acl", "+ping", ">passwd");
        Jedis other = as("using", "passwd");
        try (Jedis j = as("using", "passwd")) {
            assertThat(acl(j, "DELUSER", "using")).isEqualTo(1L);
            assertThatThrownBy(j::ping).isInstanceOf(JedisConnectionException.class);
            assertThatThrownBy(other::ping).isInstanceOf(JedisConnectionException.class);
        } finally {
            other.close();
        }
    }

    @Test
    void catGenpassLoadAndHelpAnswerAsRedis() {
        assertThat(list(acl(admin, "CAT"))).hasSize(21).contains("keyspace", "connection", "scripting");
        assertThat(list(acl(admin, "CAT", "transaction"))).contains("multi", "exec");
        assertThat(list(acl(admin, "CAT", "connection"))).contains("client|id").doesNotContain("client");
        assertThat(error(() -> acl(admin, "CAT", "NON_EXISTS"))).isEqualTo("ERR Unknown category 'NON_EXISTS'");
        assertThat(error(() -> acl(admin, "CAT", "NON_EXISTS", "NON_EXISTS2")))
                .isEqualTo("ERR unknown subcommand or wrong number of arguments for 'CAT'. Try ACL HELP.");
        assertThat((String) acl(admin, "GENPASS")).matches("[0-9a-f]{64}");
        assertThat((String) acl(admin, "GENPASS", "5")).hasSize(2);
        assertThat(error(() -> acl(admin, "GENPASS", "5000"))).contains("ACL GENPASS argument must be the number");
        assertThat(error(() -> acl(admin, "LOAD"))).contains("not configured to use an ACL file");
        assertThat(error(() -> acl(admin, "HELP", "xxx"))).isEqualTo("ERR wrong number of arguments for 'acl|help' command");
        assertThat(error(() -> run(admin, "CLIENT", "NOSUCH"))).isEqualTo("ERR unknown subcommand 'NOSUCH'. Try CLIENT HELP.");
    }

    @Test
    void usersSurviveARestartOnTheSameDatabase() throws Exception {
        Database db = Strata.inMemory();
        try {
            try (RedisServer first = RedisServer.start(db, RedisConfig.defaults().withPort(0));
                 Jedis j = new Jedis("127.0.0.1", first.port())) {
                acl(j, "SETUSER", "alice", "on", ">alicepw", "~cache:*", "+get", "+set");
            }
            try (RedisServer second = RedisServer.start(db, RedisConfig.defaults().withPort(0));
                 Jedis j = new Jedis("127.0.0.1", second.port())) {
                assertThat(list(acl(j, "LIST"))).contains("user alice on "
                        + "#6624974ea2baffac164422e4490376c1c31313cd97724ae8ce62fb3f0a0370f2 ~cache:* resetchannels -@all +get +set");
                j.auth("alice", "alicepw");
                assertThat(j.set("cache:1", "v")).isEqualTo("OK");
                assertThat(error(() -> j.set("other", "v"))).startsWith("NOPERM");
            }
        } finally {
            db.close();
        }
    }

    @Test
    void twoServersOnOneDatabaseShareUsers() throws Exception {
        Database db = Strata.inMemory();
        try (RedisServer a = RedisServer.start(db, RedisConfig.defaults().withPort(0));
             RedisServer b = RedisServer.start(db, RedisConfig.defaults().withPort(0));
             Jedis onA = new Jedis("127.0.0.1", a.port());
             Jedis onB = new Jedis("127.0.0.1", b.port())) {
            acl(onA, "SETUSER", "bob", "on", ">bobpw", "+get", "+ping", "~*");
            // AUTH reads the newest users: no wait for the watch.
            assertThat(onB.auth("bob", "bobpw")).isEqualTo("OK");
            assertThat(onB.get("k")).isNull();
            // A change of rules reaches B's connection when B's watch fires.
            acl(onA, "SETUSER", "bob", "-get");
            eventually(() -> {
                try {
                    onB.get("k");
                    return false; // B's watch has not fired yet
                } catch (JedisDataException e) {
                    return e.getMessage().startsWith("NOPERM");
                }
            });
            // Concurrent changes of one user from both servers compose.
            acl(onA, "SETUSER", "bob", "+set");
            try (Jedis adminB = new Jedis("127.0.0.1", b.port())) {
                acl(adminB, "SETUSER", "bob", "+incr");
                assertThat((String) field(acl(onA, "GETUSER", "bob"), "commands")).contains("+set").contains("+incr");
            }
            // Deleting the user on A closes its connections on B.
            acl(onA, "DELUSER", "bob");
            eventually(() -> {
                try {
                    onB.ping();
                    return false;
                } catch (JedisConnectionException | JedisDataException e) {
                    return true;
                }
            });
        } finally {
            db.close();
        }
    }

    @Test
    void requirepassBecomesTheStoredDefaultPassword() throws Exception {
        Database db = Strata.inMemory();
        try (RedisServer a = RedisServer.start(db, RedisConfig.defaults().withPort(0).withRequirepass("foobar"));
             RedisServer b = RedisServer.start(db, RedisConfig.defaults().withPort(0));
             Jedis j = new Jedis("127.0.0.1", b.port())) {
            assertThat(error(() -> j.set("foo", "bar"))).isEqualTo("NOAUTH Authentication required.");
            assertThat(error(() -> j.auth("wrong!"))).startsWith("WRONGPASS");
            assertThat(j.auth("foobar")).isEqualTo("OK");
            assertThat(j.set("foo", "100")).isEqualTo("OK");
        } finally {
            db.close();
        }
    }

    @Test
    void configSetReachesTheAcl() {
        admin.configSet("requirepass", "secret");
        assertThat(field(acl(admin, "GETUSER", "default"), "flags")).isEqualTo(List.of("on"));
        try (Jedis j = server.jedis()) {
            assertThat(error(j::ping)).isEqualTo("NOAUTH Authentication required.");
            assertThat(j.auth("secret")).isEqualTo("OK");
            assertThat(j.auth("default", "secret")).isEqualTo("OK");
        }
        admin.configSet("requirepass", "");
        assertThat(field(acl(admin, "GETUSER", "default"), "flags")).isEqualTo(List.of("on", "nopass"));

        admin.configSet("acllog-max-len", "1");
        acl(admin, "SETUSER", "x", "on", ">p", "+ping");
        try (Jedis j = as("x", "p")) {
            error(() -> j.get("a"));
            error(() -> j.get("b"));
        }
        assertThat(list(acl(admin, "LOG"))).hasSize(1);

        admin.configSet("acl-pubsub-default", "allchannels");
        acl(admin, "SETUSER", "y");
        assertThat(field(acl(admin, "GETUSER", "y"), "channels")).isEqualTo("&*");
    }

    @Test
    void subcommandRulesUseTheServersSubcommandTable() {
        acl(admin, "SETUSER", "c", "on", ">p", "+client|id", "+object|encoding", "~*");
        try (Jedis j = as("c", "p")) {
            assertThat(j.clientId()).isPositive();
            assertThat(error(() -> run(j, "CLIENT", "KILL", "ID", "12345")))
                    .isEqualTo("NOPERM this user has no permissions to run the 'client|kill' command");
            assertThat(error(() -> run(j, "OBJECT", "FREQ", "k")))
                    .isEqualTo("NOPERM this user has no permissions to run the 'object|freq' command");
            assertThat(run(j, "OBJECT", "ENCODING", "nokey")).isNull();
            assertThat(error(() -> run(admin, "CLIENT", "KILL", "USER", "nobody"))).isEqualTo("ERR No such user 'nobody'");
            // While c's connection is open it is the one CLIENT KILL USER finds (after it closes, the
            // server may still be noticing, so a count taken then would race).
            assertThat(run(admin, "CLIENT", "KILL", "USER", "c")).isEqualTo(1L);
        }
    }

    @Test
    void revokedChannelsDisconnectTheirSubscribers() throws Exception {
        acl(admin, "SETUSER", "s", "on", ">p", "+@all", "resetchannels", "&news.*");
        try (Jedis j = as("s", "p")) {
            assertThat(error(() -> run(j, "PUBLISH", "sport", "m")))
                    .isEqualTo("NOPERM this user has no permissions to access one of the channels used as arguments");
            assertThat(error(() -> run(j, "SUBSCRIBE", "sport")))
                    .isEqualTo("NOPERM this user has no permissions to access one of the channels used as arguments");
            // Jedis's sendCommand reads the first reply: here the subscription's confirmation.
            assertThat(decode(j.sendCommand(Command.SUBSCRIBE, "news.today"))).isEqualTo(List.of("subscribe", "news.today", 1L));
            acl(admin, "SETUSER", "s", "resetchannels", "&other");
            // Closed by the server ("Unexpected end of stream"), not a read timeout.
            assertThatThrownBy(() -> j.getConnection().getOne()).isInstanceOf(JedisConnectionException.class).hasNoCause();
        }
    }

    private static void eventually(Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached in 5 s");
            }
            Thread.sleep(20);
        }
    }
}
