package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import io.strata.engine.fault.LatencyModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several directory operations issued at once in one transaction (without waiting for each
 * other) behave as if issued one after the other: fdb-java's layer would let two of them both
 * find a path missing and give it two prefixes. Reads are slowed down so that the operations
 * really overlap.
 */
class DirectorySameTransactionTest {
    private static Database slowDatabase() {
        return Strata.builder()
                .latency(LatencyModel.of(Duration.ZERO, Duration.ofMillis(1), Duration.ZERO))
                .inMemory();
    }

    @Test
    void concurrentCreateOrOpenOfOnePathGivesOnePrefix() {
        try (Database db = slowDatabase()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer();
            List<byte[]> prefixes = db.run(tr -> {
                List<CompletableFuture<StrataDirectory>> futures = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    futures.add(layer.createOrOpen(tr, List.of("same")));
                    futures.add(layer.createOrOpen(tr, List.of("parent", "child" + i)));
                }
                List<byte[]> keys = new ArrayList<>();
                for (CompletableFuture<StrataDirectory> f : futures) {
                    keys.add(f.join().getKey());
                }
                keys.add(layer.open(tr, List.of("parent")).join().getKey());
                return keys;
            });
            for (int i = 2; i < 8; i += 2) {
                assertThat(prefixes.get(i)).isEqualTo(prefixes.get(0));
            }
            assertThat(layer.open(db, List.of("same")).join().getKey()).isEqualTo(prefixes.get(0));
            assertThat(layer.list(db, List.of()).join()).containsExactly("parent", "same");
            assertThat(layer.list(db, List.of("parent")).join()).containsExactly("child0", "child1", "child2", "child3");
            // Exactly the directories' prefixes were allocated: 1 + 1 + 4, none burned on a lost duplicate.
            assertThat(DirectoryTestSupport.dump(db).stream()
                    .filter(kv -> HighContentionAllocatorSubspace.RECENT.contains(kv.getKey()))).hasSize(6);
        }
    }

    @Test
    void operationsInOneTransactionSeeEachOther() {
        try (Database db = slowDatabase()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer();
            List<Object> seen = db.run(tr -> {
                CompletableFuture<StrataDirectory> created = layer.create(tr, List.of("a"));
                CompletableFuture<Boolean> exists = layer.exists(tr, List.of("a"));
                CompletableFuture<StrataDirectory> moved = layer.move(tr, List.of("a"), List.of("b"));
                CompletableFuture<List<String>> listed = layer.list(tr, List.of());
                CompletableFuture<Boolean> removed = layer.removeIfExists(tr, List.of("a"));
                return List.of(created.join().getKey(), exists.join(), moved.join().getKey(), listed.join(), removed.join());
            });
            assertThat((byte[]) seen.get(2)).isEqualTo((byte[]) seen.get(0));
            assertThat(seen.subList(3, 5)).containsExactly(List.of("b"), false);
            assertThat(seen.get(1)).isEqualTo(true);
            assertThat(layer.open(db, List.of("b")).join().getKey()).isEqualTo((byte[]) seen.get(0));
        }
    }

    /** The allocator's reservations of the default directory layer. */
    private static final class HighContentionAllocatorSubspace {
        static final com.apple.foundationdb.subspace.Subspace RECENT = io.strata.layers.allocator.HighContentionAllocator
                .directoryLayerSubspace(StrataDirectoryLayer.DEFAULT_NODE_SUBSPACE).get(1);
    }
}
