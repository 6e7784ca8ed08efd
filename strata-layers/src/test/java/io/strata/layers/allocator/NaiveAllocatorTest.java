package io.strata.layers.allocator;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NaiveAllocatorTest {
    private static final Subspace SUBSPACE = new Subspace(Tuple.from("naive"));

    @Test
    void encodesLengthThenMinimalBigEndian() {
        assertThat(NaiveAllocator.encode(1)).containsExactly(0x01, 0x01);
        assertThat(NaiveAllocator.encode(5)).containsExactly(0x01, 0x05);
        assertThat(NaiveAllocator.encode(255)).containsExactly(0x01, 0xFF);
        assertThat(NaiveAllocator.encode(256)).containsExactly(0x02, 0x01, 0x00);
        assertThat(NaiveAllocator.encode(0x0501)).containsExactly(0x02, 0x05, 0x01);
        assertThat(NaiveAllocator.encode(0x010000)).containsExactly(0x03, 0x01, 0x00, 0x00);
        assertThat(NaiveAllocator.encode(Long.MAX_VALUE))
                .containsExactly(0x08, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF);
        assertThatThrownBy(() -> NaiveAllocator.encode(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sequentialAllocationsAreOneToNEncodedAndPrefixFree() {
        int n = 600; // crosses the one-byte/two-byte boundary at 256
        NaiveAllocator allocator = new NaiveAllocator(SUBSPACE);
        List<byte[]> results = new ArrayList<>();
        try (Database db = Strata.inMemory()) {
            for (int i = 0; i < n; i++) {
                results.add(db.run(tr -> allocator.allocate(tr).join()));
            }
            byte[] counter = db.run(tr -> tr.get(allocator.counterKey()).join());
            assertThat(ByteBuffer.wrap(counter).getLong()).isEqualTo(n);
        }
        for (int i = 0; i < n; i++) {
            long value = i + 1;
            byte[] minimal = ByteBuffer.allocate(8).putLong(value).array();
            int skip = 0;
            while (minimal[skip] == 0) {
                skip++;
            }
            byte[] expected = ByteArrayUtil.join(new byte[] {(byte) (8 - skip)},
                    java.util.Arrays.copyOfRange(minimal, skip, 8));
            assertThat(results.get(i)).as("allocation %d", value).containsExactly(expected);
        }
        assertPrefixFree(results);
    }

    @Test
    void counterLivesUnderTheSubspace() {
        NaiveAllocator allocator = new NaiveAllocator(SUBSPACE);
        assertThat(allocator.counterKey()).containsExactly(SUBSPACE.pack(Tuple.from("counter")));
    }

    @Test
    void concurrentAllocationsFromManyThreadsAreDistinct() throws Exception {
        int threads = 8;
        int perThread = 50;
        NaiveAllocator allocator = new NaiveAllocator(SUBSPACE);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Database db = Strata.inMemory()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        byte[] result = db.run(tr -> allocator.allocate(tr).join());
                        assertThat(seen.add(ByteArrayUtil.printable(result))).as("duplicate").isTrue();
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
            byte[] counter = db.run(tr -> tr.get(allocator.counterKey()).join());
            assertThat(ByteBuffer.wrap(counter).getLong()).isEqualTo((long) threads * perThread);
        } finally {
            pool.shutdownNow();
        }
        assertThat(seen).hasSize(threads * perThread);
    }

    static void assertPrefixFree(List<byte[]> results) {
        List<byte[]> sorted = new ArrayList<>(results);
        sorted.sort(ByteArrayUtil.comparator());
        for (int i = 1; i < sorted.size(); i++) {
            byte[] a = sorted.get(i - 1);
            byte[] b = sorted.get(i);
            // In sorted order, a prefix sorts immediately before the keys it prefixes.
            assertThat(ByteArrayUtil.startsWith(b, a))
                    .as("%s equals or is a prefix of %s", ByteArrayUtil.printable(a), ByteArrayUtil.printable(b))
                    .isFalse();
        }
    }
}
