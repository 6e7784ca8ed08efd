package io.strata.layers.blob;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;

import static io.strata.layers.blob.BlobTestSupport.name;
import static io.strata.layers.blob.BlobTestSupport.stored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The key layout documented in {@link BlobStore}, byte by byte. */
class BlobLayoutTest {
    private static final HexFormat HEX = HexFormat.of();

    private final Database db = Strata.inMemory();
    private final Subspace subspace = new Subspace(Tuple.from("b"));
    private final BlobStore store = new BlobStore(subspace, BlobSettings.defaults().withChunkSize(4).withTransactionBytes(1_000));

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void headChunksAndAllocatorAreTheDocumentedKeys() {
        db.run(tr -> store.write(tr, name("k"), new byte[] {1, 2, 3, 4, 5, 6}).join());
        List<KeyValue> kvs = stored(db, subspace);
        String prefix = "026200"; // ("b")

        KeyValue head = kvs.stream().filter(kv -> hex(kv.getKey()).equals(prefix + "14" + "6b")).findFirst().orElseThrow();
        ByteBuffer h = ByteBuffer.wrap(head.getValue());
        assertThat(head.getValue()).hasSize(28);
        long id = h.getLong();
        assertThat(h.getLong()).as("length").isEqualTo(6);
        assertThat(h.getLong()).as("revision").isEqualTo(0);
        assertThat(h.getInt()).as("chunk size").isEqualTo(4);

        String idBytes = hex(Tuple.from(id).pack());
        assertThat(kvs).filteredOn(kv -> hex(kv.getKey()).startsWith(prefix + "1501"))
                .extracting(kv -> hex(kv.getKey()) + "=" + hex(kv.getValue()))
                .containsExactly(prefix + "1501" + idBytes + "14" + "=01020304",
                        prefix + "1501" + idBytes + "1501" + "=0506");
        assertThat(kvs).filteredOn(kv -> hex(kv.getKey()).startsWith(prefix + "1503")).as("allocator keys").isNotEmpty();
        long allocatorKeys = kvs.stream().filter(kv -> hex(kv.getKey()).startsWith(prefix + "1503")).count();
        assertThat((long) kvs.size()).as("head, two chunks, allocator: nothing else").isEqualTo(3 + allocatorKeys);
    }

    @Test
    void stagingRecordIsTheDocumentedKey() throws Exception {
        BlobWriter writer = store.openWriter(db, name("big"));
        writer.write(new byte[2_000]); // more than one transaction (1,000 bytes): staging begins
        List<KeyValue> records = stored(db, subspace.get(2));
        assertThat(records).hasSize(1);
        long id = Tuple.fromBytes(records.get(0).getKey(), subspace.get(2).getKey().length, records.get(0).getKey().length
                - subspace.get(2).getKey().length).getLong(0);
        assertThat(hex(records.get(0).getKey())).isEqualTo("0262001502" + hex(Tuple.from(id).pack()));
        byte[] value = records.get(0).getValue();
        assertThat(value[0]).as("state: staging").isEqualTo((byte) 0);
        long leaseEnd = ByteBuffer.wrap(value, 1, 8).getLong();
        long version = db.readAsync(tr -> tr.getReadVersion()).join();
        assertThat(leaseEnd - version).as("lease end ahead by about 60 s of versions").isBetween(50_000_000L, 60_000_000L);
        assertThat(new String(value, 9, value.length - 9)).isEqualTo("big");
        writer.close();
        assertThat(stored(db, subspace.get(2))).as("a committed record is removed").isEmpty();
    }

    @Test
    void namesAreLimitedByTheKeySize() {
        assertThat(store.maxNameBytes()).isEqualTo(10_000 - 4);
        byte[] longest = new byte[store.maxNameBytes()];
        db.run(tr -> store.write(tr, longest, new byte[] {7}).join());
        assertThat(store.read(db, longest).join()).containsExactly(7);
        assertThatThrownBy(() -> store.length(db, new byte[store.maxNameBytes() + 1]).join())
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String hex(byte[] b) {
        return HEX.formatHex(b);
    }
}
