package io.strata.engine.store;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class VersionedStoreTest {
    private static byte[] k(String s) {
        return s.getBytes();
    }

    private static List<String> keys(Iterator<Map.Entry<byte[], byte[]>> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(e -> out.add(new String(e.getKey())));
        return out;
    }

    @Test
    void readersSeeTheValueAtTheirVersion() {
        VersionedStore s = new VersionedStore();
        s.set(k("a"), k("1"), 10);
        s.set(k("a"), k("2"), 20);
        s.clear(k("a"), 30);
        byte[] at5 = s.get(k("a"), 5);
        byte[] at10 = s.get(k("a"), 10);
        byte[] at25 = s.get(k("a"), 25);
        byte[] at30 = s.get(k("a"), 30);
        assertThat(at5).isNull();
        assertThat(at10).isEqualTo(k("1"));
        assertThat(at25).isEqualTo(k("2"));
        assertThat(at30).isNull();
    }

    @Test
    void aSecondWriteInTheSameVersionReplacesTheFirst() {
        VersionedStore s = new VersionedStore();
        s.set(k("a"), k("1"), 10);
        s.set(k("a"), k("2"), 10);
        byte[] v = s.get(k("a"), 10);
        assertThat(v).isEqualTo(k("2"));
    }

    @Test
    void clearRangeHidesKeysOnlyFromItsVersionOn() {
        VersionedStore s = new VersionedStore();
        for (String key : List.of("a", "b", "c", "d")) {
            s.set(k(key), k("v"), 10);
        }
        s.clearRange(k("b"), k("d"), 20);
        assertThat(keys(s.range(k(""), k("z"), 15, false))).containsExactly("a", "b", "c", "d");
        assertThat(keys(s.range(k(""), k("z"), 20, false))).containsExactly("a", "d");
        assertThat(keys(s.range(k(""), k("z"), 20, true))).containsExactly("d", "a");
    }

    @Test
    void repeatedClearsOfAGrowingPrefixStillClearEveryKey() {
        VersionedStore s = new VersionedStore();
        for (String key : List.of("a1", "a2", "b1", "c1", "d1")) {
            s.set(k(key), k("v"), 10);
        }
        s.clearRange(k("a"), k("b"), 20);                 // remembered as holding nothing
        s.set(k("a3"), k("v"), 30);                       // a write inside it: split around a3
        s.clearRange(k("a"), k("c"), 40);                 // must clear a3 and b1
        assertThat(s.latest(k("a3"))).isNull();
        assertThat(s.latest(k("b1"))).isNull();
        s.clearRange(k("b"), k("d"), 50);                 // starts inside [a, c): walks [c, d) only
        assertThat(s.latest(k("c1"))).isNull();
        s.clearRange(k("d"), k("e"), 60);                 // starts at the end of [a, d): contiguous
        assertThat(s.latest(k("d1"))).isNull();
        s.set(k("z"), k("v"), 70);                        // outside: the interval stays
        s.set(k("a0"), k("v"), 80);                       // inside again
        s.clearRange(k("a"), k("b"), 90);
        assertThat(s.latest(k("a0"))).isNull();
        assertThat(s.latest(k("z"))).isEqualTo(k("v"));
        assertThat(s.get(k("a1"), 15)).as("older versions stay readable").isEqualTo(k("v"));
    }

    /**
     * Any mix of point writes and range clears leaves the newest value of every key as a
     * sorted map would: the known-absent intervals a clear skips, split by writes into them
     * and merged by later clears, never hide a present key.
     */
    @Property(tries = 300)
    void setsAndRangeClearsMatchASortedMap(@ForAll @Size(max = 80) List<@IntRange(min = 0, max = 999) Integer> ops) {
        VersionedStore s = new VersionedStore();
        java.util.TreeMap<String, String> model = new java.util.TreeMap<>();
        long version = 10;
        for (int op : ops) {
            String a = String.valueOf((char) ('a' + op % 6)) + (char) ('a' + op / 6 % 6);
            if (op < 450) {
                String value = "v" + version;
                s.set(k(a), k(value), version);
                model.put(a, value);
            } else {
                String b = String.valueOf((char) ('a' + op / 36 % 6)) + (op / 216 % 2 == 0 ? "" : "z");
                String lo = a.compareTo(b) <= 0 ? a : b;
                String hi = a.compareTo(b) <= 0 ? b : a;
                s.clearRange(k(lo), k(hi), version);
                model.subMap(lo, hi).clear();
            }
            version++;
            for (char x = 'a'; x < 'g'; x++) {
                for (char y = 'a'; y < 'g'; y++) {
                    String key = "" + x + y;
                    byte[] got = s.latest(k(key));
                    assertThat(got == null ? null : new String(got)).as(key).isEqualTo(model.get(key));
                }
            }
        }
    }

    @Test
    void clearsOfSeveralGrowingPrefixesEachStayExact() {
        VersionedStore s = new VersionedStore();
        long version = 10;
        for (int round = 0; round < 20; round++) {
            for (String prefix : List.of("p", "q", "r", "s", "t", "u")) {
                s.set(k(prefix + (char) ('a' + round)), k("v"), version++);
                s.set(k(prefix + (char) ('a' + round + 1)), k("v"), version++);
                s.clearRange(k(prefix), k(prefix + (char) ('a' + round + 1)), version++);
                assertThat(s.latest(k(prefix + (char) ('a' + round)))).as(prefix + round).isNull();
                assertThat(s.latest(k(prefix + (char) ('a' + round + 1)))).isEqualTo(k("v"));
            }
        }
    }

    @Test
    void pruningKeepsAnswersAtOrAboveTheFloorAndDropsDeadKeys() {
        VersionedStore s = new VersionedStore();
        s.set(k("a"), k("1"), 10);
        s.set(k("a"), k("2"), 20);
        s.set(k("b"), k("x"), 10);
        s.clear(k("b"), 20);
        s.pruneBefore(25);
        byte[] a = s.get(k("a"), 25);
        assertThat(a).isEqualTo(k("2"));
        assertThat(s.get(k("b"), 25)).isNull();
        assertThat(s.keyCount()).isEqualTo(1);
        assertThat(s.oldestReadableVersion()).isEqualTo(25);
    }

    @Test
    void pruningAHotKeyKeepsEveryVersionAtOrAboveTheFloor() {
        VersionedStore s = new VersionedStore();
        for (int v = 1; v <= 100; v++) {
            s.set(k("hot"), new byte[] {(byte) v}, v);
            if (v == 40) {
                s.set(k("hot"), new byte[] {(byte) 200}, v); // a second write in the same batch
            }
        }
        s.pruneBefore(50);
        for (int v = 50; v <= 100; v++) {
            byte[] value = s.get(k("hot"), v);
            assertThat(value).containsExactly((byte) v);
        }
        s.pruneBefore(101);
        byte[] newest = s.get(k("hot"), 101);
        assertThat(newest).containsExactly((byte) 100);
    }

    @Test
    void keysWrittenOnceOutliveEveryPruningAndGoOnlyOnceCleared() {
        VersionedStore s = new VersionedStore();
        s.set(k("a"), k("1"), 10);
        s.set(k("b"), k("1"), 10);
        s.set(k("b"), k("2"), 10); // replaces the first write of a new key in the same batch
        s.set(k("c"), k("x"), 30);
        s.pruneBefore(20);
        s.pruneBefore(40);
        assertThat(s.get(k("a"), 40)).isEqualTo(k("1"));
        assertThat(s.get(k("b"), 40)).isEqualTo(k("2"));
        assertThat(s.get(k("c"), 40)).isEqualTo(k("x"));
        assertThat(s.keyCount()).isEqualTo(3);
        s.clear(k("b"), 50);
        s.pruneBefore(60);
        assertThat(s.get(k("b"), 60)).isNull();
        assertThat(s.get(k("a"), 60)).isEqualTo(k("1"));
        assertThat(s.keyCount()).isEqualTo(2);
    }

    @Test
    void aKeyClearedBeforeTheFloorDisappearsButOneClearedAfterItStays() {
        VersionedStore s = new VersionedStore();
        s.set(k("a"), k("1"), 10);
        s.set(k("b"), k("1"), 10);
        s.clearRange(k("a"), k("c"), 20);
        s.set(k("b"), k("2"), 30);
        s.pruneBefore(25);
        assertThat(s.keyCount()).isEqualTo(1);
        byte[] b = s.get(k("b"), 30);
        assertThat(b).isEqualTo(k("2"));
        assertThat(s.get(k("b"), 25)).isNull();
    }

    @Test
    void splitPointsCutTheRangeIntoChunksOfTheRequestedSize() {
        VersionedStore s = new VersionedStore();
        for (int i = 0; i < 10; i++) {
            s.set(k("k" + i), new byte[98], 10); // 2-byte key + 98-byte value = 100 bytes each
        }
        assertThat(s.estimatedSize(k("k0"), k("k9"), 10)).isEqualTo(900);
        List<byte[]> points = s.splitPoints(k("k0"), k("z"), 300, 10);
        List<String> names = new ArrayList<>();
        points.forEach(p -> names.add(new String(p)));
        assertThat(names).containsExactly("k0", "k3", "k6", "k9", "z");
    }
}
