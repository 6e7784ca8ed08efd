package io.strata.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The queue's trim rule and the readers' leases, driven by hand (no reader thread). */
class ReaderLeaseTest {
    private static final byte[] A = process(1);
    private static final byte[] B = process(2);

    private Database db;
    private PubSubKeys keys;
    private SubscriptionRegistry registry;
    private MessageLog log;
    private final Map<ChannelName, Long> localOfB = new HashMap<>();

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        keys = new PubSubKeys(new Subspace(new byte[] {0x15}));
        registry = new SubscriptionRegistry(keys);
        log = new MessageLog(keys);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private ReaderLease lease(byte[] process, long leaseMillis) {
        return new ReaderLease(db, keys, registry, process, process == B ? () -> localOfB : Map::of, leaseMillis);
    }

    @Test
    void entriesEveryLiveReaderDeliveredAreTrimmedAndNoOthers() {
        ReaderLease a = lease(A, 60_000);
        ReaderLease b = lease(B, 60_000);
        assertThat(a.open()).isNull();
        assertThat(b.open()).isNull();
        publish(5);
        List<KeyValue> queue = queue();
        assertThat(queue).hasSize(5);
        a.beat(queue.get(2).getKey());
        a.sweep();
        assertThat(queue()).as("B has read nothing yet: it holds everything").hasSize(5);
        b.beat(queue.get(4).getKey());
        a.sweep();
        assertThat(queue()).as("A delivered through the third entry").hasSize(3);
        a.beat(queue.get(4).getKey());
        b.sweep();
        assertThat(queue()).hasSize(1);
    }

    @Test
    void trimmingAStoredMessagesEntryClearsItsObjectAndNothingElse() {
        ReaderLease a = lease(A, 60_000);
        a.open();
        byte[] first = {0x16, 1};
        byte[] second = {0x16, 2};
        byte[] unrelated = {0x16, 3};
        for (byte[] object : List.of(first, second, unrelated)) {
            db.run(tr -> {
                tr.set(concat(object, (byte) 0), bytes("chunk"));
                return null;
            });
        }
        for (byte[] object : List.of(first, second)) {
            db.run(tr -> {
                log.appendStored(tr, ChannelKind.CHANNEL, bytes("c"), object);
                return null;
            });
        }
        publish(1);
        List<KeyValue> queue = queue();
        assertThat(log.decode(queue)).extracting(MessageLog.Message::storedAt).containsExactly(first, second, null);

        a.beat(queue.get(1).getKey());
        a.sweep();
        assertThat(present(first)).as("before the cursor: trimmed").isFalse();
        assertThat(present(second)).as("the entry at the cursor stays, and so does its object").isTrue();
        assertThat(present(unrelated)).isTrue();
        a.beat(queue.get(2).getKey());
        a.sweep();
        assertThat(present(second)).isFalse();
        assertThat(present(unrelated)).isTrue();
        assertThat(queue()).hasSize(1);
    }

    private boolean present(byte[] object) {
        return db.run(tr -> tr.get(concat(object, (byte) 0)).join() != null);
    }

    private static byte[] concat(byte[] a, byte b) {
        return PubSubKeys.concat(a, b);
    }

    @Test
    void aReaderStartsAfterTheLastEntry() {
        publish(3);
        byte[] last = queue().get(2).getKey();
        assertThat(lease(A, 60_000).open()).isEqualTo(last);
    }

    @Test
    void aSilentReaderIsReapedWithItsShareOfTheCountsAndComesBackWhenItBeats() throws Exception {
        ReaderLease a = lease(A, 50);
        ReaderLease b = lease(B, 50);
        a.open();
        b.open();
        ChannelName news = ChannelName.of(ChannelKind.CHANNEL, bytes("news"));
        db.run(tr -> {
            registry.change(tr, A, List.of(news), 1);
            registry.change(tr, B, List.of(news), 2);
            return null;
        });
        localOfB.put(news, 2L);
        assertThat(count(news)).isEqualTo(3);
        a.sweep();
        a.beat(null);
        Thread.sleep(120);
        a.sweep();
        assertThat(count(news)).as("B's share is gone").isEqualTo(1);
        assertThat(readers()).isEqualTo(1);

        b.beat(null);
        assertThat(count(news)).as("B registered its subscriptions again").isEqualTo(3);
        assertThat(readers()).isEqualTo(2);
    }

    @Test
    void aReaderThatBeatsIsNeverReaped() throws Exception {
        ReaderLease a = lease(A, 50);
        ReaderLease b = lease(B, 50);
        a.open();
        b.open();
        for (int i = 0; i < 4; i++) {
            b.beat(null);
            a.sweep();
            Thread.sleep(30);
        }
        assertThat(readers()).isEqualTo(2);
    }

    private void publish(int n) {
        for (int i = 0; i < n; i++) {
            byte[] m = bytes("m" + i);
            db.run(tr -> {
                log.append(tr, ChannelKind.CHANNEL, bytes("c"), m);
                return null;
            });
        }
    }

    private List<KeyValue> queue() {
        return db.run(tr -> tr.getRange(keys.queueRange()).asList().join());
    }

    private long count(ChannelName c) {
        return db.run(tr -> PubSubKeys.littleEndian(tr.get(keys.countKey(c.kind(), c.bytes())).join()));
    }

    private int readers() {
        return db.run(tr -> tr.getRange(keys.readerRange()).asList().join().size());
    }

    private static byte[] process(int n) {
        byte[] p = new byte[PubSubKeys.PROCESS];
        p[15] = (byte) n;
        return p;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
