package io.strata.redis.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Transaction;
import io.strata.redis.command.ClientSession;
import io.strata.redis.keyspace.KeyStore;
import io.strata.redis.protocol.Reply;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * No server needed: a lane runs several clients' commands in one transaction, so each change
 * must be attributed to the client whose command made it, not to whichever ran last — else a
 * NOLOOP client would hear of its own writes and another client's invalidation would wait for
 * the wrong reply.
 */
class ChangeAttributionTest {
    private final Map<Long, ClientSession> sessions = new HashMap<>();
    private final ClientTracking tracking = new ClientTracking(sessions::get);
    private final Object space = new Object();
    private final KeyStore.ChangeListener changes = tracking.listenerFor(space);

    private ClientSession resp3(long id, List<Reply> pushed) {
        ClientSession s = new ClientSession(id, "127.0.0.1:" + id, "127.0.0.1:6379", 0, true);
        s.protocol(3);
        s.pushTo(pushed::addAll);
        sessions.put(id, s);
        return s;
    }

    private static Transaction transaction() {
        return (Transaction) Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void eachChangeInABatchIsItsOwnClients() {
        List<Reply> toA = new ArrayList<>();
        List<Reply> toB = new ArrayList<>();
        ClientSession a = resp3(1, toA);
        ClientSession b = resp3(2, toB);
        tracking.enable(a, space, new TrackingOptions(0, false, false, false, true, List.of()));
        tracking.enable(b, space, new TrackingOptions(0, false, false, false, false, List.of()));
        tracking.remember(a, space, List.of(b("k")));
        tracking.remember(b, space, List.of(b("k")));

        Transaction tr = transaction();
        tracking.running(tr, a);
        changes.changed(tr, 0, b("k"));   // A's SET k
        tracking.running(tr, b);
        changes.changed(tr, 0, b("other")); // B's SET other, later in the same batch
        tracking.committed(tr);

        assertThat(toA).as("NOLOOP: A's own change").isEmpty();
        // B did not change k: told at once, not after its own reply.
        assertThat(toB).hasSize(1);
        Reply.Array push = (Reply.Array) toB.get(0);
        assertThat(new String(((Reply.Bulk) push.items().get(0)).value(), StandardCharsets.UTF_8)).isEqualTo("invalidate");
    }
}
