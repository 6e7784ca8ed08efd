package io.strata.bench.peer;

import io.strata.bench.data.Dataset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Each peer does what the benchmarks claim it does: reads see loaded and committed data. */
class KvPeerTest {
    @ParameterizedTest
    @ValueSource(strings = {"strata", "rocksdb", "strata-ssd"})
    void readsWritesAndReadModifyWrites(String engine) throws Exception {
        Dataset data = new Dataset(100, 10, 5);
        try (KvPeer peer = KvPeer.open(engine); KvSession s = peer.session()) {
            peer.load(data);
            assertThat(s.read(data.key(3))).isEqualTo(data.value(3));
            s.endRead();

            s.write(data.key(3), data.value(4));
            s.writeAsync(data.key(5), data.value(6)).get();
            assertThat(s.readModifyWrite(data.key(7), data.value(8))).isEqualTo(1);

            assertThat(s.read(data.key(3))).isEqualTo(data.value(4));
            assertThat(s.read(data.key(5))).isEqualTo(data.value(6));
            assertThat(s.read(data.key(7))).isEqualTo(data.value(8));
            s.endRead();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"strata", "rocksdb", "strata-ssd"})
    void aReadTransactionKeepsItsSnapshot(String engine) {
        Dataset data = new Dataset(10, 10, 5);
        try (KvPeer peer = KvPeer.open(engine); KvSession reader = peer.session(); KvSession writer = peer.session()) {
            peer.load(data);
            assertThat(reader.read(data.key(1))).isEqualTo(data.value(1));
            writer.write(data.key(2), data.value(9));
            assertThat(reader.read(data.key(2))).isEqualTo(data.value(2));
            reader.endRead();
            assertThat(reader.read(data.key(2))).isEqualTo(data.value(9));
        }
    }
}
