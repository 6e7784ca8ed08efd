package io.strata.redis.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.Strata;
import io.strata.redis.protocol.RedisException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Subscription counts in the database, driven by hand (no server): short names keep the
 * layout they always had, long names are counted under their id with the name kept beside it
 * exactly while the count is there.
 */
class SubscriptionRegistryTest {
    private static final byte[] A = process(1);
    private static final byte[] B = process(2);

    private Database db;
    private PubSubKeys keys;
    private SubscriptionRegistry registry;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        keys = new PubSubKeys(new Subspace(new byte[] {0x15, 'p'}));
        registry = new SubscriptionRegistry(keys);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void aShortNameIsItsOwnIdUpToTheKeyLimitAndALongOneIsBounded() {
        // Q = 0x15 'p': the per-process key is Q 'm' process[16] kind name = 20 bytes + name.
        int longestShort = PubSubKeys.KEY_LIMIT - 20;
        byte[] shortest = name(longestShort, 1);
        assertThat(keys.countKey(ChannelKind.CHANNEL, shortest))
                .as("the layout short names always had").isEqualTo(concat(new byte[] {0x15, 'p', 'n', 'c'}, shortest));
        assertThat(keys.processCountKey(A, keys.id(ChannelKind.CHANNEL, shortest))).hasSize(PubSubKeys.KEY_LIMIT);

        byte[] longName = name(longestShort + 1, 1);
        byte[] id = keys.id(ChannelKind.CHANNEL, longName);
        assertThat(id).hasSize(PubSubKeys.LONG_ID);
        assertThat(id[0]).isEqualTo((byte) 'd');
        assertThat(Arrays.copyOfRange(id, 1, 1 + PubSubKeys.LONG_HEAD)).isEqualTo(Arrays.copyOf(longName, PubSubKeys.LONG_HEAD));
        assertThat(PubSubKeys.isLong(id)).isTrue();
        assertThat(PubSubKeys.isLong(keys.id(ChannelKind.CHANNEL, shortest))).isFalse();
        assertThat(keys.id(ChannelKind.PATTERN, longName)[0]).isEqualTo((byte) 'q');
        assertThat(keys.id(ChannelKind.SHARD, longName)[0]).isEqualTo((byte) 't');
    }

    @Test
    void eachKindsCountsAreOneRangeOfShortAndLongNamesAndNoOthers() {
        byte[] longName = name(20_000, 2);
        change(A, 1, ChannelKind.CHANNEL, bytes("c1"), longName);
        change(A, 1, ChannelKind.PATTERN, bytes("p*"), longName);
        change(A, 1, ChannelKind.SHARD, bytes("s1"), longName);
        for (ChannelKind kind : ChannelKind.values()) {
            List<byte[]> names = db.run(tr -> registry.active(tr, kind, null).join());
            assertThat(names).hasSize(2);
            assertThat(names.get(1)).isEqualTo(longName);
        }
    }

    @Test
    void aLongNameIsKeptWhileAnyProcessCountsItAndClearedWithTheLastCount() {
        byte[] longName = name(250_000, 3);
        ChannelName c = ChannelName.of(ChannelKind.CHANNEL, longName);
        change(A, 1, ChannelKind.CHANNEL, longName);
        change(B, 2, ChannelKind.CHANNEL, longName);
        assertThat(count(c)).isEqualTo(3);
        assertThat(nameParts(c)).as("250,000 bytes in parts of 90,000").hasSize(3);
        assertThat(channels()).containsExactly(longName);

        change(A, -1, ChannelKind.CHANNEL, longName);
        change(B, -1, ChannelKind.CHANNEL, longName);
        assertThat(count(c)).isEqualTo(1);
        assertThat(channels()).containsExactly(longName);
        change(B, -1, ChannelKind.CHANNEL, longName);
        assertThat(count(c)).isZero();
        assertThat(nameParts(c)).isEmpty();
        assertThat(channels()).isEmpty();
    }

    @Test
    void namesThatShareTheirFirst10000BytesAreCountedApart() {
        byte[] common = name(10_000, 4);
        byte[] a = concat(common, bytes("a"));
        byte[] b = concat(common, bytes("b"));
        ChannelName ca = ChannelName.of(ChannelKind.CHANNEL, a);
        ChannelName cb = ChannelName.of(ChannelKind.CHANNEL, b);
        assertThat(keys.id(ChannelKind.CHANNEL, a)).isNotEqualTo(keys.id(ChannelKind.CHANNEL, b));
        change(A, 2, ChannelKind.CHANNEL, a);
        change(A, 1, ChannelKind.CHANNEL, b);
        assertThat(count(ca)).isEqualTo(2);
        assertThat(count(cb)).isEqualTo(1);
        assertThat(channels()).containsExactlyInAnyOrder(a, b);
        change(A, -1, ChannelKind.CHANNEL, b);
        assertThat(channels()).containsExactly(a);
        assertThat(nameParts(ca)).hasSize(1);
    }

    @Test
    void aLongPatternIsMatchedByPublishesReceiverCount() {
        byte[] head = name(15_000, 5);
        change(A, 1, ChannelKind.PATTERN, concat(head, bytes("*")));
        change(A, 1, ChannelKind.PATTERN, bytes("*"));
        long matching = db.run(tr -> registry.receivers(tr, ChannelKind.CHANNEL, concat(head, bytes("x"))).join());
        long other = db.run(tr -> registry.receivers(tr, ChannelKind.CHANNEL, bytes("x")).join());
        assertThat(matching).isEqualTo(2);
        assertThat(other).isEqualTo(1);
    }

    @Test
    void removingAProcessTakesItsShareAndTheNamesOnlyItCounted() {
        byte[] shared = name(12_000, 6);
        byte[] onlyA = name(12_000, 7);
        change(A, 1, ChannelKind.CHANNEL, shared, onlyA, bytes("short"));
        change(B, 1, ChannelKind.CHANNEL, shared);
        db.run(tr -> registry.removeProcess(tr, A).join());
        assertThat(channels()).containsExactly(shared);
        assertThat(nameParts(ChannelName.of(ChannelKind.CHANNEL, onlyA))).isEmpty();
        assertThat(count(ChannelName.of(ChannelKind.CHANNEL, shared))).isEqualTo(1);
    }

    @Test
    void reconcilingWritesALongNameBackAndTakesAwayWhatIsNoLongerSubscribed() {
        byte[] kept = name(30_000, 8);
        byte[] dropped = name(30_000, 9);
        ChannelName ck = ChannelName.of(ChannelKind.CHANNEL, kept);
        ChannelName cd = ChannelName.of(ChannelKind.CHANNEL, dropped);
        change(A, 1, ChannelKind.CHANNEL, kept, dropped);
        db.run(tr -> registry.removeProcess(tr, A).join());
        assertThat(channels()).isEmpty();

        db.run(tr -> registry.reconcile(tr, A, Map.of(ck, 2L)).join());
        assertThat(count(ck)).isEqualTo(2);
        assertThat(channels()).containsExactly(kept);

        change(A, 1, ChannelKind.CHANNEL, dropped);
        db.run(tr -> registry.reconcile(tr, A, Map.of(ck, 1L)).join());
        assertThat(count(ck)).isEqualTo(1);
        assertThat(count(cd)).isZero();
        assertThat(nameParts(cd)).isEmpty();
        assertThat(channels()).containsExactly(kept);
    }

    @Test
    void anUnregistrationThatEmptiesALongNameConflictsWithARegistrationCommittingMeanwhile() {
        byte[] longName = name(20_000, 10);
        ChannelName c = ChannelName.of(ChannelKind.CHANNEL, longName);
        change(A, 1, ChannelKind.CHANNEL, longName);
        try (Transaction leaving = db.createTransaction()) {
            leaving.getReadVersion().join();
            registry.change(leaving, A, List.of(c), -1).join();
            change(B, 1, ChannelKind.CHANNEL, longName);
            assertThatThrownBy(() -> leaving.commit().join()).hasCauseInstanceOf(FDBException.class)
                    .satisfies(e -> assertThat(((FDBException) e.getCause()).getCode()).isEqualTo(1020));
        }
        assertThat(count(c)).isEqualTo(2);
        assertThat(channels()).as("the name stays with the count").containsExactly(longName);
    }

    @Test
    void namesTooLargeForOneTransactionTogetherAreRegisteredInSeveral() {
        List<Subscription> subs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            subs.add(new Subscription(null, ChannelName.of(ChannelKind.CHANNEL, new byte[4_000_000 + i])));
        }
        for (int i = 0; i < 1_000; i++) {
            subs.add(new Subscription(null, ChannelName.of(ChannelKind.CHANNEL, name(9_000, i))));
        }
        List<List<Subscription>> runs = registry.batches(subs, 1);
        assertThat(runs.stream().flatMap(List::stream).toList()).as("in order, each once").containsExactlyElementsOf(subs);
        assertThat(runs.get(0)).as("two names of 4 MB fit in a transaction, not three").hasSize(2);
        assertThat(runs.size()).isGreaterThan(2);
        for (List<Subscription> run : runs) {
            assertThat(run.stream().mapToLong(s -> registry.transactionBytes(s.name, true)).sum()).isLessThanOrEqualTo(SubscriptionRegistry.BATCH_BYTES);
        }
        assertThat(registry.batches(subs.subList(3, 13), 1)).hasSize(1);
        assertThat(registry.batches(subs.subList(0, 3), -1)).as("unregistering writes no names").hasSize(1);
        for (List<Subscription> run : runs) {
            db.run(tr -> registry.change(tr, A, run.stream().map(s -> s.name).toList(), 1).join());
        }
        assertThat(channels()).hasSize(1_003);
        for (List<Subscription> run : registry.batches(subs, -1)) {
            db.run(tr -> registry.change(tr, A, run.stream().map(s -> s.name).toList(), -1).join());
        }
        assertThat(channels()).isEmpty();
        List<KeyValue> left = db.run(tr -> tr.getRange(new byte[] {0x15, 'p'}, new byte[] {0x15, 'q'}).asList().join());
        assertThat(left).as("no count and no name left").isEmpty();
    }

    @Test
    void aNameOverNineMegabytesIsRefused() {
        SubscriptionRegistry.checkName(new byte[SubscriptionRegistry.MAX_NAME]);
        assertThatThrownBy(() -> SubscriptionRegistry.checkName(new byte[SubscriptionRegistry.MAX_NAME + 1]))
                .isInstanceOf(RedisException.class).hasMessageStartingWith("ERR channel name too long");
    }

    private void change(byte[] process, long delta, ChannelKind kind, byte[]... names) {
        List<ChannelName> cs = Arrays.stream(names).map(n -> ChannelName.of(kind, n)).toList();
        db.run(tr -> registry.change(tr, process, cs, delta).join());
    }

    private long count(ChannelName c) {
        return db.run(tr -> registry.count(tr, c.kind(), c.bytes()).join());
    }

    private List<byte[]> channels() {
        return db.run(tr -> registry.active(tr, ChannelKind.CHANNEL, null).join());
    }

    private List<KeyValue> nameParts(ChannelName c) {
        return db.run(tr -> tr.getRange(keys.nameRange(keys.id(c.kind(), c.bytes()))).asList().join());
    }

    private static byte[] name(int n, long seed) {
        Random random = new Random(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + random.nextInt(26));
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return PubSubKeys.concat(a, b);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] process(int n) {
        byte[] p = new byte[PubSubKeys.PROCESS];
        p[15] = (byte) n;
        return p;
    }
}
