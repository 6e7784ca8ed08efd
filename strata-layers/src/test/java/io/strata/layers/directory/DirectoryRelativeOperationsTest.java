package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.strata.layers.directory.DirectoryTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code DirectorySubspace} operations on {@link StrataDirectory}: paths relative to the
 * directory, {@code moveTo} within a partition only, and a partition that refuses to be used
 * as a subspace — each checked against what fdb-java's own {@code DirectorySubspace} does on
 * the same database.
 */
class DirectoryRelativeOperationsTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void relativeOperationsActBelowTheDirectory() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            DirectoryLayer official = new DirectoryLayer();
            StrataDirectory app = ours.createOrOpen(db, List.of("app")).join();
            StrataDirectory users = app.createOrOpen(db, List.of("users")).join();
            assertThat(users.getPath()).containsExactly("app", "users");
            assertThat(users.getDirectoryLayer()).isSameAs(ours);
            assertThat(official.open(db, List.of("app", "users")).join().getKey()).isEqualTo(users.getKey());

            assertThat(app.open(db, List.of("users")).join()).isEqualTo(users);
            assertThat(app.create(db, List.of("logs"), bytes("L")).join().getLayer()).isEqualTo(bytes("L"));
            assertThat(app.createOrOpen(db, List.of("logs"), bytes("L")).join().getPath()).containsExactly("app", "logs");
            assertThat(app.list(db).join()).containsExactly("logs", "users");
            assertThat(app.exists(db).join()).isTrue();
            assertThat(app.exists(db, List.of("users")).join()).isTrue();
            assertThat(app.exists(db, List.of("nope")).join()).isFalse();
            assertThat(failure(() -> app.create(db, List.of("users")).join())).isInstanceOf(DirectoryAlreadyExistsException.class);
            assertThat(failure(() -> app.open(db, List.of("logs"), bytes("other")).join())).isInstanceOf(MismatchedLayerException.class);

            StrataDirectory people = app.move(db, List.of("users"), List.of("people")).join();
            assertThat(people.getPath()).containsExactly("app", "people");
            assertThat(people.getKey()).isEqualTo(users.getKey());
            assertThat(users.exists(db).join()).as("a directory object is a snapshot of its path").isFalse();

            StrataDirectory top = people.moveTo(db, List.of("top")).join();
            assertThat(top.getKey()).isEqualTo(users.getKey());
            assertThat(official.list(db, List.of()).join()).containsExactly("app", "top");

            assertThat(app.removeIfExists(db, List.of("logs")).join()).isTrue();
            assertThat(app.removeIfExists(db, List.of("logs")).join()).isFalse();
            assertThat(failure(() -> app.remove(db, List.of("logs")).join())).isInstanceOf(NoSuchDirectoryException.class);
            top.remove(db).join();
            assertThat(top.removeIfExists(db).join()).isFalse();
            assertThat(official.exists(db, List.of("top")).join()).isFalse();
        }
    }

    @Test
    void aPartitionIsNotASubspaceButHasDirectoryOperations() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            DirectoryLayer official = new DirectoryLayer();
            StrataDirectory part = ours.create(db, List.of("part"), StrataDirectoryLayer.PARTITION_LAYER).join();
            DirectorySubspace theirs = official.open(db, List.of("part")).join();
            for (Runnable misuse : List.<Runnable>of(part::getKey, part::pack, () -> part.pack("k"), () -> part.pack(Tuple.from(1)),
                    () -> part.unpack(new byte[] {1}), part::range, () -> part.range(Tuple.from(1)),
                    () -> part.contains(new byte[] {1}), () -> part.get("k"), () -> part.get(Tuple.from(1)),
                    () -> part.subspace(Tuple.from(1)))) {
                assertThatThrownBy(misuse::run).isInstanceOf(UnsupportedOperationException.class);
            }
            assertThatThrownBy(theirs::getKey).as("fdb-java's partition refuses the same").isInstanceOf(UnsupportedOperationException.class);

            StrataDirectory inner = part.createOrOpen(db, List.of("in")).join();
            assertThat(inner.getPath()).containsExactly("part", "in");
            assertThat(inner.getKey()).startsWith(part.prefix()).isEqualTo(official.open(db, List.of("part", "in")).join().getKey());
            assertThat(part.list(db).join()).containsExactly("in");

            Throwable ourMove = failure(() -> inner.moveTo(db, List.of("out")).join());
            Throwable theirMove = failure(() -> official.open(db, List.of("part", "in")).join().moveTo(db, List.of("out")).join());
            assertThat(ourMove).isInstanceOf(DirectoryMoveException.class);
            assertThat(ourMove.getClass().getSimpleName()).isEqualTo(theirMove.getClass().getSimpleName());
            assertThat(inner.moveTo(db, List.of("part", "in2")).join().getKey()).isEqualTo(inner.getKey());

            // The partition itself moves and is removed in its parent, as fdb-java's DirectoryPartition does.
            StrataDirectory moved = part.moveTo(db, List.of("part2")).join();
            assertThat(moved.isPartition()).isTrue();
            assertThat(official.list(db, List.of("part2")).join()).containsExactly("in2");
            assertThat(part.exists(db).join()).isFalse();
            assertThat(moved.exists(db, List.of("in2")).join()).isTrue();
            moved.remove(db).join();
            assertThat(DirectoryTestSupport.dump(db).stream().filter(kv -> ByteArrayUtil.startsWith(kv.getKey(), part.prefix())))
                    .isEmpty();
        }
    }

    @Test
    void directoriesFromACachedLayerUseItsCache() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectory app = cached.createOrOpen(db, List.of("app")).join();
            assertThat(app.getDirectoryLayer()).isSameAs(cached);
            StrataDirectory child = app.createOrOpen(db, List.of("c")).join();
            assertThat(child.getDirectoryLayer().isCached()).isTrue();
            new StrataDirectoryLayer().remove(db, List.of("app", "c")).join();
            assertThat(app.exists(db, List.of("c")).join()).isFalse();
            assertThat(failure(() -> app.open(db, List.of("c")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }
}
