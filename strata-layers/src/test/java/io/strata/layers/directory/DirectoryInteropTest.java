package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.directory.DirectoryLayer;
import com.apple.foundationdb.directory.DirectorySubspace;
import com.apple.foundationdb.subspace.Subspace;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.strata.layers.directory.DirectoryTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** Ours and fdb-java's directory layer on one database: each reads and changes what the other wrote. */
class DirectoryInteropTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void officialCreatesOursOpens() {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer();
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            DirectorySubspace created = official.create(db, List.of("app", "users"), bytes("table")).join();
            StrataDirectory opened = ours.open(db, List.of("app", "users"), bytes("table")).join();
            assertThat(opened.getKey()).isEqualTo(created.getKey());
            assertThat(opened.getLayer()).isEqualTo(bytes("table"));
            assertThat(opened.getPath()).containsExactly("app", "users");
            assertThat(ours.open(db, List.of("app", "users")).join().getKey()).isEqualTo(created.getKey());
            assertThat(ours.createOrOpen(db, List.of("app")).join().getKey())
                    .isEqualTo(official.open(db, List.of("app")).join().getKey());
            assertThat(ours.exists(db, List.of("app", "users")).join()).isTrue();
            assertThat(failure(() -> ours.open(db, List.of("app", "users"), bytes("other")).join()))
                    .isInstanceOf(MismatchedLayerException.class);
        }
    }

    @Test
    void oursCreatesOfficialOpens() {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer();
            StrataDirectoryLayer ours = new StrataDirectoryLayer();
            StrataDirectory created = ours.create(db, List.of("app", "orders"), bytes("queue")).join();
            DirectorySubspace opened = official.open(db, List.of("app", "orders"), bytes("queue")).join();
            assertThat(opened.getKey()).isEqualTo(created.getKey());
            assertThat(opened.getLayer()).isEqualTo(bytes("queue"));
            assertThat(official.exists(db, List.of("app")).join()).isTrue();
            // The version key we wrote is one fdb-java accepts for writing.
            official.create(db, List.of("app", "more")).join();
            assertThat(failure(() -> official.create(db, List.of("app", "orders")).join()).getClass().getSimpleName())
                    .isEqualTo("DirectoryAlreadyExistsException");
        }
    }

    @Test
    void listsAgreeAndChangesAreSeenBothWays() {
        Subspace node = new Subspace(bytes("nodes"));
        Subspace content = new Subspace(bytes("data"));
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer(node, content);
            StrataDirectoryLayer ours = new StrataDirectoryLayer(node, content);
            for (int i = 0; i < 10; i++) {
                List<String> path = List.of("root", "d" + i);
                if (i % 2 == 0) {
                    official.create(db, path).join();
                } else {
                    ours.create(db, path).join();
                }
            }
            List<String> listed = official.list(db, List.of("root")).join();
            assertThat(listed).hasSize(10);
            assertThat(ours.list(db, List.of("root")).join()).isEqualTo(listed);
            assertThat(ours.list(db, List.of()).join()).isEqualTo(official.list(db, List.of()).join()).containsExactly("root");

            // Ours moves one the official one created; the official one sees it at its new path.
            byte[] prefix = official.open(db, List.of("root", "d0")).join().getKey();
            assertThat(ours.move(db, List.of("root", "d0"), List.of("moved")).join().getKey()).isEqualTo(prefix);
            assertThat(official.open(db, List.of("moved")).join().getKey()).isEqualTo(prefix);
            assertThat(official.exists(db, List.of("root", "d0")).join()).isFalse();

            // The official one removes one ours created, with its contents; ours sees it gone.
            StrataDirectory d1 = ours.open(db, List.of("root", "d1")).join();
            db.run(tr -> {
                tr.set(d1.pack("key"), bytes("value"));
                return null;
            });
            official.remove(db, List.of("root", "d1")).join();
            assertThat(ours.exists(db, List.of("root", "d1")).join()).isFalse();
            List<com.apple.foundationdb.KeyValue> left = db.run(tr -> tr.getRange(d1.range()).asList().join());
            assertThat(left).isEmpty();

            // Ours removes a subtree the official one built.
            official.create(db, List.of("root", "d2", "deep", "deeper")).join();
            assertThat(ours.removeIfExists(db, List.of("root", "d2")).join()).isTrue();
            assertThat(official.exists(db, List.of("root", "d2", "deep")).join()).isFalse();
            assertThat(ours.list(db, List.of("root")).join()).isEqualTo(official.list(db, List.of("root")).join()).hasSize(7);
        }
    }

    @Test
    void manualPrefixesAreCheckedAgainstTheOtherLayersPrefixes() {
        try (Database db = Strata.inMemory()) {
            DirectoryLayer official = new DirectoryLayer(true);
            StrataDirectoryLayer ours = new StrataDirectoryLayer(true);
            official.create(db, List.of("m"), new byte[0], new byte[] {0x70}).join();
            assertThat(failure(() -> ours.create(db, List.of("n"), new byte[0], new byte[] {0x70, 0x01}).join()))
                    .isInstanceOf(IllegalArgumentException.class);
            ours.create(db, List.of("n"), new byte[0], new byte[] {0x71}).join();
            assertThat(failure(() -> official.create(db, List.of("o"), new byte[0], new byte[] {0x71}).join()))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(official.open(db, List.of("n")).join().getKey()).containsExactly(0x71);
        }
    }
}
