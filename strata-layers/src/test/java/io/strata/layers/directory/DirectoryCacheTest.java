package io.strata.layers.directory;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.directory.DirectoryLayer;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static io.strata.layers.directory.DirectoryTestSupport.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** The metadata-version-validated cache of {@link StrataDirectoryLayer#withCache()}. */
class DirectoryCacheTest {
    private static final byte[] MV = StrataDirectoryLayer.METADATA_VERSION_KEY;

    /** A transaction that records the keys it gets and counts its range reads, delegating to a real one. */
    private static final class Counting {
        final List<byte[]> gets = new ArrayList<>();
        int ranges;
        final Transaction tr;

        Counting(Transaction real) {
            tr = (Transaction) Proxy.newProxyInstance(Transaction.class.getClassLoader(), new Class<?>[] {Transaction.class},
                    (proxy, method, args) -> {
                        switch (method.getName()) {
                            case "runAsync", "readAsync", "run", "read" -> {
                                // The transaction as its own context: hand the counting proxy to the body.
                                @SuppressWarnings("unchecked")
                                Function<Object, Object> body = (Function<Object, Object>) args[0];
                                return body.apply(proxy);
                            }
                            case "get" -> gets.add((byte[]) args[0]);
                            case "getRange" -> ranges++;
                            default -> { }
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    private static byte[] mv(Database db) {
        return db.read(tr -> tr.get(MV).join());
    }

    private static int code(Throwable t) {
        assertThat(t).isInstanceOf(FDBException.class);
        return ((FDBException) t).getCode();
    }

    @Test
    void cacheIsOptIn() {
        StrataDirectoryLayer plain = new StrataDirectoryLayer();
        assertThat(plain.isCached()).isFalse();
        assertThat(plain.withCache().isCached()).isTrue();
        assertThat(plain.withCache().getNodeSubspace()).isEqualTo(plain.getNodeSubspace());
    }

    @Test
    void secondOpenOfAKnownDirectoryReadsOnlyTheMetadataVersion() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer().withCache();
            StrataDirectory created = layer.create(db, List.of("a", "b", "c")).join();

            Counting first = new Counting(db.createTransaction());
            StrataDirectory opened = layer.open(first.tr, List.of("a", "b", "c")).join();
            first.tr.close();
            assertThat(opened).isEqualTo(created);
            assertThat(first.gets.size()).isGreaterThan(1); // a miss: the tree is walked

            Counting second = new Counting(db.createTransaction());
            assertThat(layer.open(second.tr, List.of("a", "b", "c")).join()).isEqualTo(created);
            assertThat(second.gets).hasSize(1);
            assertThat(second.gets.get(0)).containsExactly(MV);
            assertThat(second.ranges).isZero();
            second.tr.close();

            // createOrOpen that only opens is served from the cache too.
            Counting third = new Counting(db.createTransaction());
            assertThat(layer.createOrOpen(third.tr, List.of("a", "b", "c")).join()).isEqualTo(created);
            assertThat(third.gets).hasSize(1);
            assertThat(third.ranges).isZero();
            third.tr.close();
        }
    }

    @Test
    void uncachedLayerStillWalksTheTree() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer();
            layer.create(db, List.of("a")).join();
            for (int i = 0; i < 2; i++) {
                Counting c = new Counting(db.createTransaction());
                layer.open(c.tr, List.of("a")).join();
                assertThat(c.gets.stream().noneMatch(k -> Arrays.equals(k, MV))).isTrue();
                assertThat(c.gets.size()).isGreaterThan(1);
                c.tr.close();
            }
        }
    }

    @Test
    void cachedHitChecksTheLayer() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer().withCache();
            byte[] mine = "mine".getBytes(StandardCharsets.UTF_8);
            layer.create(db, List.of("a"), mine).join();
            layer.open(db, List.of("a")).join();
            assertThat(layer.open(db, List.of("a"), mine).join().getLayer()).isEqualTo(mine);
            assertThat(failure(() -> layer.open(db, List.of("a"), "other".getBytes(StandardCharsets.UTF_8)).join()))
                    .isInstanceOf(MismatchedLayerException.class);
        }
    }

    @Test
    void everyChangeBumpsTheMetadataVersionEvenWithoutTheCache() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer layer = new StrataDirectoryLayer();
            List<byte[]> versions = new ArrayList<>();
            versions.add(mv(db));
            layer.create(db, List.of("a")).join();
            versions.add(mv(db));
            layer.createOrOpen(db, List.of("b")).join();
            versions.add(mv(db));
            layer.createOrOpen(db, List.of("b")).join(); // opens only: no bump
            assertThat(mv(db)).isEqualTo(versions.get(2));
            layer.move(db, List.of("b"), List.of("c")).join();
            versions.add(mv(db));
            layer.remove(db, List.of("c")).join();
            versions.add(mv(db));
            assertThat(layer.removeIfExists(db, List.of("c")).join()).isFalse(); // removes nothing: no bump
            assertThat(mv(db)).isEqualTo(versions.get(4));
            layer.removeIfExists(db, List.of("a")).join();
            versions.add(mv(db));
            assertThat(versions.get(0)).isNull();
            for (int i = 1; i < versions.size(); i++) {
                assertThat(versions.get(i)).hasSize(10);
                assertThat(versions.get(i)).isNotEqualTo(versions.get(i - 1));
            }
        }
    }

    @Test
    void moveAndRemoveByAnotherProcessAreNeverServedStale() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectoryLayer other = new StrataDirectoryLayer(); // another process
            StrataDirectory x = cached.create(db, List.of("p", "x")).join();
            cached.open(db, List.of("p", "x")).join();
            assertThat(cached.open(db, List.of("p", "x")).join()).isEqualTo(x);

            other.move(db, List.of("p", "x"), List.of("p", "y")).join();
            assertThat(failure(() -> cached.open(db, List.of("p", "x")).join())).isInstanceOf(NoSuchDirectoryException.class);
            StrataDirectory y = cached.open(db, List.of("p", "y")).join();
            assertThat(y.getKey()).isEqualTo(x.getKey());
            assertThat(y.getPath()).isEqualTo(List.of("p", "y"));
            assertThat(cached.open(db, List.of("p", "y")).join()).isEqualTo(y);

            other.remove(db, List.of("p", "y")).join();
            assertThat(failure(() -> cached.open(db, List.of("p", "y")).join())).isInstanceOf(NoSuchDirectoryException.class);

            // Removing a parent removes the cached child too.
            StrataDirectory z = cached.createOrOpen(db, List.of("p", "z")).join();
            assertThat(cached.open(db, List.of("p", "z")).join()).isEqualTo(z);
            other.removeIfExists(db, List.of("p")).join();
            assertThat(failure(() -> cached.open(db, List.of("p", "z")).join())).isInstanceOf(NoSuchDirectoryException.class);
            // createOrOpen after the remove makes a fresh directory, not the cached one.
            assertThat(cached.createOrOpen(db, List.of("p", "z")).join().getKey()).isNotEqualTo(z.getKey());
        }
    }

    @Test
    void changesInsidePartitionsInvalidateTheCache() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectoryLayer other = new StrataDirectoryLayer();
            other.create(db, List.of("part"), StrataDirectoryLayer.PARTITION_LAYER).join();
            StrataDirectory q = other.create(db, List.of("part", "q")).join();
            assertThat(cached.open(db, List.of("part", "q")).join()).isEqualTo(q);
            assertThat(cached.open(db, List.of("part", "q")).join()).isEqualTo(q);
            other.move(db, List.of("part", "q"), List.of("part", "r")).join();
            assertThat(failure(() -> cached.open(db, List.of("part", "q")).join())).isInstanceOf(NoSuchDirectoryException.class);
            assertThat(cached.open(db, List.of("part", "r")).join().getKey()).isEqualTo(q.getKey());
            other.remove(db, List.of("part", "r")).join();
            assertThat(failure(() -> cached.open(db, List.of("part", "r")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }

    @Test
    void transactionUsingACachedPrefixConflictsWithALaterCommittedMove() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectoryLayer other = new StrataDirectoryLayer();
            cached.create(db, List.of("x")).join();
            cached.open(db, List.of("x")).join(); // fills the cache

            Counting user = new Counting(db.createTransaction());
            StrataDirectory x = cached.open(user.tr, List.of("x")).join();
            assertThat(user.gets).hasSize(1); // served from the cache
            user.tr.set(x.pack("k"), new byte[] {1});

            other.move(db, List.of("x"), List.of("moved")).join();
            assertThat(code(failure(() -> user.tr.commit().join()))).isEqualTo(1020);
            user.tr.close();

            // The retry sees the move.
            assertThat(failure(() -> cached.open(db, List.of("x")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }

    @Test
    void transactionUsingACachedPrefixConflictsWithALaterCommittedRemove() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectoryLayer other = new StrataDirectoryLayer().withCache(); // another cached process
            cached.create(db, List.of("x")).join();
            cached.open(db, List.of("x")).join();

            Transaction user = db.createTransaction();
            StrataDirectory x = cached.open(user, List.of("x")).join();
            user.set(x.pack("k"), new byte[] {1});

            other.remove(db, List.of("x")).join();
            assertThat(code(failure(() -> user.commit().join()))).isEqualTo(1020);
            user.close();
            byte[] k = db.read(tr -> tr.get(x.pack("k")).join());
            assertThat(k).isNull();
            assertThat(failure(() -> cached.open(db, List.of("x")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }

    @Test
    void operationsAfterABumpInTheSameTransactionWork() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectory old = cached.create(db, List.of("old")).join();
            cached.open(db, List.of("old")).join();

            StrataDirectory[] seen = db.run(tr -> {
                StrataDirectory n = cached.create(tr, List.of("n")).join(); // bumps: the key is now unreadable here
                StrataDirectory openedN = cached.open(tr, List.of("n")).join();
                StrataDirectory m = cached.createOrOpen(tr, List.of("m")).join();
                StrataDirectory openedOld = cached.open(tr, List.of("old")).join();
                StrataDirectory moved = cached.move(tr, List.of("old"), List.of("older")).join();
                Throwable gone = failure(() -> cached.open(tr, List.of("old")).join());
                assertThat(gone).isInstanceOf(NoSuchDirectoryException.class);
                StrataDirectory openedOlder = cached.createOrOpen(tr, List.of("older")).join();
                assertThat(openedN).isEqualTo(n);
                return new StrataDirectory[] {n, m, openedOld, moved, openedOlder};
            });
            assertThat(seen[2]).isEqualTo(old);
            assertThat(seen[4].getKey()).isEqualTo(old.getKey());
            assertThat(cached.open(db, List.of("n")).join()).isEqualTo(seen[0]);
            assertThat(cached.open(db, List.of("m")).join()).isEqualTo(seen[1]);
            assertThat(cached.open(db, List.of("older")).join().getKey()).isEqualTo(old.getKey());
            assertThat(failure(() -> cached.open(db, List.of("old")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }

    @Test
    void aCreateThatNeverCommitsIsNotCached() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            cached.create(db, List.of("a")).join();
            cached.open(db, List.of("a")).join();
            Transaction tr = db.createTransaction();
            cached.createOrOpen(tr, List.of("ghost")).join(); // reads the metadata version, then creates
            tr.close(); // never committed
            assertThat(failure(() -> cached.open(db, List.of("ghost")).join())).isInstanceOf(NoSuchDirectoryException.class);
            assertThat(cached.exists(db, List.of("ghost")).join()).isFalse();
        }
    }

    /** The documented limitation: fdb-java's DirectoryLayer does not bump the metadata version, so the cache misses its changes. */
    @Test
    void changesByFdbJavasDirectoryLayerAreNotSeen() {
        try (Database db = Strata.inMemory()) {
            StrataDirectoryLayer cached = new StrataDirectoryLayer().withCache();
            StrataDirectory a = cached.create(db, List.of("a")).join();
            cached.open(db, List.of("a")).join();
            db.run(tr -> new DirectoryLayer().move(tr, List.of("a"), List.of("b")).join());
            assertThat(cached.open(db, List.of("a")).join()).isEqualTo(a); // stale, as documented
            assertThat(new StrataDirectoryLayer().exists(db, List.of("a")).join()).isFalse();
            // Any bump by this layer makes it see the truth again.
            cached.create(db, List.of("c")).join();
            assertThat(failure(() -> cached.open(db, List.of("a")).join())).isInstanceOf(NoSuchDirectoryException.class);
        }
    }
}
