package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.directory.DirectoryLayer;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.strata.layers.directory.DirectoryTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checking a manual prefix takes read conflicts only on what decides the answer: unrelated
 * manual prefixes created concurrently both commit (fdb-java aborts one), overlapping ones
 * never both do.
 */
class DirectoryPrefixConflictTest {
    private static final byte[] NONE = new byte[0];

    /** Creates {@code first} and {@code second} in two concurrent transactions; commits in that order; returns the second commit's failure or null. */
    private static Throwable race(Database db, Creator creator, List<String> firstPath, byte[] first,
                                  List<String> secondPath, byte[] second) {
        try (Transaction t1 = db.createTransaction(); Transaction t2 = db.createTransaction()) {
            creator.create(t1, firstPath, first);
            creator.create(t2, secondPath, second);
            t1.commit().join();
            try {
                t2.commit().join();
                return null;
            } catch (RuntimeException e) {
                return failure(() -> {
                    throw e;
                });
            }
        }
    }

    private interface Creator {
        void create(Transaction tr, List<String> path, byte[] prefix);
    }

    private static void initialize(Database db, StrataDirectoryLayer ours) {
        ours.create(db, List.of("init")).join(); // writes the version, so that racers only read it
    }

    @Test
    void unrelatedManualPrefixesDoNotConflict() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer ours = new StrataDirectoryLayer(true);
            initialize(db, ours);
            Creator creator = (tr, path, prefix) -> ours.create(tr, path, NONE, prefix).join();
            // Neighbours with no node between them, in both commit orders.
            assertThat(race(db, creator, List.of("a"), new byte[] {0x70, 0x01}, List.of("b"), new byte[] {0x70, 0x02})).isNull();
            assertThat(race(db, creator, List.of("c"), new byte[] {0x71, 0x02}, List.of("d"), new byte[] {0x71, 0x01})).isNull();
            assertThat(ours.list(db, List.of()).join()).containsExactly("a", "b", "c", "d", "init");
        }
    }

    /**
     * The same race under fdb-java's layer: its serializable reverse scan for the node below
     * the prefix conflicts on everything from the nearest node key below up to the prefix,
     * so the second one aborts.
     */
    @Test
    void officialLayerConflictsOnTheSameRace() {
        try (Database db = Strata.inMemory()) {
            initialize(db, new StrataDirectoryLayer());
            DirectoryLayer official = new DirectoryLayer(true);
            Creator creator = (tr, path, prefix) -> official.create(tr, path, NONE, prefix).join();
            Throwable t = race(db, creator, List.of("a"), new byte[] {0x70, 0x01}, List.of("b"), new byte[] {0x70, 0x02});
            assertThat(t).isInstanceOf(FDBException.class);
            assertThat(((FDBException) t).getCode()).isEqualTo(1020);
        }
    }

    @Test
    void overlappingManualPrefixesNeverBothCommit() {
        byte[] shorter = {0x70};
        byte[] longer = {0x70, 0x10};
        for (boolean longerFirst : new boolean[] {true, false}) {
            try (Database db = Strata.inMemory()) {
                StrataDirectoryLayer ours = new StrataDirectoryLayer(true);
                initialize(db, ours);
                Creator creator = (tr, path, prefix) -> ours.create(tr, path, NONE, prefix).join();
                Throwable t = longerFirst
                        ? race(db, creator, List.of("long"), longer, List.of("short"), shorter)
                        : race(db, creator, List.of("short"), shorter, List.of("long"), longer);
                assertThat(t).isInstanceOf(FDBException.class);
                assertThat(((FDBException) t).getCode()).isEqualTo(1020);
                assertThat(ours.list(db, List.of()).join()).containsExactly("init", longerFirst ? "long" : "short");
                // Retried, the loser sees the winner and is refused.
                assertThat(failure(() -> ours.create(db, List.of("again"), NONE, longerFirst ? shorter : longer).join()))
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }
}
