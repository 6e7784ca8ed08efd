package io.strata.layers.interning;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The interner's contract on one thread: same string, same ID; both directions; bad input. */
class StringInternerTest {
    private static final Subspace S = new Subspace(Tuple.from("interner"));
    private final Database db = Strata.inMemory();

    @AfterEach
    void close() {
        db.close();
    }

    private List<KeyValue> stored() {
        return db.readAsync(tr -> tr.getRange(S.range()).asList()).join();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sameStringSameIdForeverAndBothDirections() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        long a = in.intern(db, "at://did:plc:abc/app.bsky.feed.post/1").join();
        long b = in.intern(db, "did:plc:xyz").join();
        assertThat(a).isNotEqualTo(b);
        assertThat(in.intern(db, "at://did:plc:abc/app.bsky.feed.post/1").join()).isEqualTo(a);
        assertThat(in.lookupString(db, a).join()).contains("at://did:plc:abc/app.bsky.feed.post/1");
        assertThat(in.find(db, "did:plc:xyz").join()).isEqualTo(OptionalLong.of(b));
        assertThat(in.find(db, "never interned").join()).isEmpty();
        assertThat(in.lookup(db, a ^ 1).join()).isEmpty();
        // A second interner on the same subspace (another process) sees the same mappings.
        StringInterner other = StringInterner.sharded(S, 32, 32, 100);
        assertThat(other.intern(db, "did:plc:xyz").join()).isEqualTo(b);
    }

    @Test
    void byteStringsAndJavaStringsShareMappingsAsUtf8() {
        StringInterner in = StringInterner.sharded(S, 16, 48, 0);
        long id = in.intern(db, "héllo").join();
        assertThat(in.intern(db, b("héllo")).join()).isEqualTo(id);
        long raw = in.intern(db, new byte[]{(byte) 0xFF, 0, 0x14}).join(); // not UTF-8: bytes are fine
        assertThat(in.lookup(db, raw).join().orElseThrow()).containsExactly(0xFF, 0, 0x14);
        long empty = in.intern(db, "").join();
        assertThat(in.lookup(db, empty).join().orElseThrow()).isEmpty();
    }

    @Test
    void batchReturnsIdsInInputOrderAndMergesDuplicates() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        long known = in.intern(db, "b").join();
        long[] ids = in.internAllStrings(db, List.of("a", "b", "c", "a", "b")).join();
        assertThat(ids[1]).isEqualTo(known);
        assertThat(ids[3]).isEqualTo(ids[0]);
        assertThat(ids[4]).isEqualTo(known);
        assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(3);
        assertThat(in.lookupString(db, ids[2]).join()).contains("c");
    }

    @Test
    void shardedIdsAreSequenceAndCounterAndABatchUsesOneSequence() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        List<byte[]> batch = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            batch.add(b("s" + i));
        }
        long[] ids = in.internAll(db, batch).join();
        long sequence = ids[0] >>> 32;
        for (int i = 0; i < ids.length; i++) {
            assertThat(ids[i] >>> 32).isEqualTo(sequence);
            assertThat(ids[i] & 0xFFFFFFFFL).isEqualTo(i + 1);
        }
        // One counter key, holding the last value.
        Subspace counters = StringInterner.countersOf(S);
        List<KeyValue> kvs = db.readAsync(tr -> tr.getRange(counters.range()).asList()).join();
        assertThat(kvs).hasSize(1);
        assertThat(Bytes.bigEndian(kvs.get(0).getValue())).isEqualTo(1000);
    }

    @Test
    void keyLayoutKeepsCountersApartFromMappings() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        long id = in.intern(db, "x").join();
        assertThat(id).isEqualTo(1);
        List<KeyValue> kvs = stored();
        byte[] p = S.getKey();
        assertThat(kvs).extracting(kv -> Arrays.copyOfRange(kv.getKey(), p.length, kv.getKey().length)).containsExactly(
                new byte[]{0x14, 'x'},                             // forward
                new byte[]{0x15, 1, 0, 0, 0, 0, 0, 0, 0, 1},      // reverse block of ID 1
                new byte[]{0x15, 2, 0, 0, 0, 0, 0, 0, 0, 0});     // the single counter
        assertThat(kvs.get(1).getValue()).containsExactly(1, 'x'); // one entry: varint length 1, then "x"
    }

    @Test
    void tooLongStringIsRejectedBeforeAnythingIsWritten() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        byte[] longest = new byte[in.maxStringBytes()];
        Arrays.fill(longest, (byte) 'x');
        byte[] tooLong = Arrays.copyOf(longest, longest.length + 1);
        assertThatThrownBy(() -> in.internAll(db, List.of(b("fine"), tooLong)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("position 1");
        assertThat(stored()).isEmpty();
        long id = in.intern(db, longest).join(); // the limit itself is accepted
        assertThat(in.lookup(db, id).join().orElseThrow()).isEqualTo(longest);
        assertThatThrownBy(() -> in.find(db, new String(tooLong, StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void invalidUnicodeAndNullAreRejected() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        assertThatThrownBy(() -> in.intern(db, "a\uD800b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unicode");
        List<byte[]> withNull = new ArrayList<>();
        withNull.add(b("a"));
        withNull.add(null);
        assertThatThrownBy(() -> in.internAll(db, withNull)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("position 1");
        assertThat(stored()).isEmpty();
    }

    @Test
    void internTwiceInOneTransactionReadsItsOwnWrite() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        long[] pair = db.run(tr -> new long[]{in.intern(tr, "same").join(), in.intern(tr, "same").join()});
        assertThat(pair[1]).isEqualTo(pair[0]);
        assertThat(in.find(db, "same").join()).isEqualTo(OptionalLong.of(pair[0]));
    }

    @Test
    void concurrentCallsInOneTransactionNeverShareAnId() {
        StringInterner in = new StringInterner(S, SingleCounterAllocator::new);
        long[] ids = db.run(tr -> {
            List<java.util.concurrent.CompletableFuture<long[]>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(in.internAllStrings(tr, List.of("x" + i, "y" + i)));
            }
            return calls.stream().flatMapToLong(f -> Arrays.stream(f.join())).toArray();
        });
        assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(16);
        assertThat(Arrays.stream(ids).sorted().toArray()).containsExactly(
                java.util.stream.LongStream.rangeClosed(1, 16).toArray());
    }

    @Test
    void findNeverWrites() {
        StringInterner in = StringInterner.sharded(S, 32, 32, 0);
        try (Transaction tr = db.createTransaction()) {
            assertThat(in.find(tr, "nothing").join()).isEmpty();
            tr.commit().join();
        }
        assertThat(stored()).isEmpty();
    }

    @Test
    void hcaAndVersionstampIdsRoundTrip() {
        StringInterner hca = new StringInterner(S.get("h"), HcaIdAllocator::new);
        StringInterner vs = StringInterner.withVersionstamps(S.get("v"), new VersionstampIdAllocator(), 0);
        for (StringInterner in : List.of(hca, vs)) {
            long[] ids = in.internAllStrings(db, List.of("p", "q", "p")).join();
            assertThat(ids[2]).isEqualTo(ids[0]).isNotEqualTo(ids[1]);
            assertThat(in.internAllStrings(db, List.of("q", "p")).join()).containsExactly(ids[1], ids[0]);
            assertThat(in.lookupString(db, ids[1]).join()).isEqualTo(Optional.of("q"));
            assertThat(in.find(db, "p").join()).isEqualTo(OptionalLong.of(ids[0]));
        }
    }
}
