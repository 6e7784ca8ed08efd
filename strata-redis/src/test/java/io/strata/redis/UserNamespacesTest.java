package io.strata.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.redis.command.RedisConfig;
import io.strata.redis.server.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@code --user-namespaces}: each ACL user but default works in a keyspace of its own, with its
 * own databases, blocked clients and channels; the default user keeps the server's keyspace.
 */
class UserNamespacesTest {
    private RunningServer server;

    @BeforeEach
    void start() throws Exception {
        server = RunningServer.start(RedisConfig.defaults().withUserNamespaces(true));
        try (Jedis admin = server.jedis()) {
            admin.aclSetUser("alice", "on", ">a", "~*", "&*", "+@all");
            admin.aclSetUser("bob", "on", ">b", "~*", "&*", "+@all");
        }
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Jedis as(String user, String password) {
        Jedis j = server.jedis();
        j.auth(user, password);
        return j;
    }

    @Test
    void valuesTooLargeForOneTransactionAreStagedInTheUsersOwnKeyspace() {
        byte[] big = new byte[12_000_000];
        java.util.Arrays.fill(big, (byte) 'v');
        String[] members = new String[20_000];
        for (int i = 0; i < members.length; i++) {
            members[i] = "m" + i;
        }
        try (Jedis alice = as("alice", "a"); Jedis dflt = server.jedis()) {
            assertThat(alice.set("big".getBytes(), big)).isEqualTo("OK");
            assertThat(alice.strlen("big")).isEqualTo(big.length);
            assertThat(alice.copy("big", "copy", false)).isTrue();
            assertThat(alice.strlen("copy")).isEqualTo(big.length);
            assertThat(alice.sadd("set", members)).isEqualTo(members.length);
            assertThat(dflt.exists("big", "copy", "set")).isZero();
        }
    }

    @Test
    void eachUserSeesOnlyItsOwnKeys() {
        try (Jedis alice = as("alice", "a"); Jedis bob = as("bob", "b"); Jedis dflt = server.jedis()) {
            alice.set("k", "alice's");
            bob.set("k", "bob's");
            bob.set("only-bob", "x");
            dflt.set("k", "default's");

            assertThat(alice.get("k")).isEqualTo("alice's");
            assertThat(bob.get("k")).isEqualTo("bob's");
            assertThat(dflt.get("k")).isEqualTo("default's");
            assertThat(alice.exists("only-bob")).isFalse();
            assertThat(alice.dbSize()).isEqualTo(1);
            assertThat(bob.keys("*")).containsExactlyInAnyOrder("k", "only-bob");
            assertThat(bob.scan("0").getResult()).containsExactlyInAnyOrder("k", "only-bob");

            alice.select(3);
            alice.set("k3", "v");
            assertThat(bob.dbSize()).isEqualTo(2);
            bob.select(3);
            assertThat(bob.dbSize()).isZero();

            alice.flushAll();
            assertThat(alice.dbSize()).isZero();
            bob.select(0);
            assertThat(bob.get("k")).isEqualTo("bob's");
            assertThat(dflt.get("k")).isEqualTo("default's");
        }
    }

    @Test
    void authenticatingAgainMovesTheConnectionToThatUsersKeys() {
        try (Jedis j = as("alice", "a")) {
            j.set("k", "alice's");
            j.auth("bob", "b");
            assertThat(j.get("k")).isNull();
            j.auth("alice", "a");
            assertThat(j.get("k")).isEqualTo("alice's");
            j.resetState();
            j.auth("default", "");
        }
    }

    @Test
    void aBlockedPopIsWokenOnlyByItsOwnUsersPush() throws Exception {
        try (Jedis alice = as("alice", "a"); Jedis alicePusher = as("alice", "a"); Jedis bob = as("bob", "b")) {
            CompletableFuture<List<String>> popped = CompletableFuture.supplyAsync(() -> alice.blpop(5, "queue"));
            Thread.sleep(300);
            bob.rpush("queue", "bob's");
            Thread.sleep(300);
            assertThat(popped).as("bob's push is in bob's keyspace").isNotDone();
            alicePusher.rpush("queue", "alice's");
            assertThat(popped.get(5, TimeUnit.SECONDS)).containsExactly("queue", "alice's");
            assertThat(bob.lrange("queue", 0, -1)).containsExactly("bob's");
        }
    }

    @Test
    void channelsAndKeyspaceEventsArePerUser() throws Exception {
        try (Jedis admin = server.jedis()) {
            admin.configSet("notify-keyspace-events", "KEA");
        }
        List<String> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> subscribed = new CompletableFuture<>();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onPSubscribe(String pattern, int count) {
                subscribed.complete(null);
            }

            @Override
            public void onPMessage(String pattern, String channel, String message) {
                seen.add(channel + " " + message);
            }
        };
        try (Jedis subscriber = as("alice", "a"); Jedis alice = as("alice", "a"); Jedis bob = as("bob", "b")) {
            Thread t = new Thread(() -> subscriber.psubscribe(listener, "*"));
            t.start();
            subscribed.get(5, TimeUnit.SECONDS);
            bob.set("secret", "1");
            assertThat(bob.publish("news", "from bob")).isZero();
            alice.set("mine", "1");
            assertThat(alice.publish("news", "from alice")).isEqualTo(1);
            for (long deadline = System.nanoTime() + 5_000_000_000L; seen.size() < 3 && System.nanoTime() < deadline; ) {
                Thread.sleep(20);
            }
            Thread.sleep(200);
            listener.punsubscribe();
            t.join(5_000);
        }
        assertThat(seen).containsExactly("__keyspace@0__:mine set", "__keyevent@0__:set mine", "news from alice");
    }

    @Test
    void aUsersKeysOutliveTheServer() throws Exception {
        try (Jedis alice = as("alice", "a")) {
            alice.set("k", "kept");
        }
        server.server.close();
        try (RedisServer again = RedisServer.start(server.database, RedisConfig.defaults().withPort(0).withUserNamespaces(true));
             Jedis alice = new Jedis("127.0.0.1", again.port())) {
            alice.auth("alice", "a");
            assertThat(alice.get("k")).isEqualTo("kept");
        }
    }

    @Test
    void withoutTheOptionUsersShareTheServersKeys() throws Exception {
        try (RunningServer shared = RunningServer.start()) {
            try (Jedis admin = shared.jedis()) {
                admin.aclSetUser("alice", "on", ">a", "~*", "+@all");
                admin.set("k", "everyone's");
            }
            try (Jedis alice = shared.jedis()) {
                alice.auth("alice", "a");
                assertThat(alice.get("k")).isEqualTo("everyone's");
            }
        }
    }
}
