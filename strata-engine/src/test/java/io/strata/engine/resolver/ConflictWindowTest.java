package io.strata.engine.resolver;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConflictWindowTest {
    private static byte[] k(int i) {
        return new byte[] {(byte) i};
    }

    @Test
    void writesOlderThanTheReaderNeverConflict() {
        ConflictWindow w = new ConflictWindow();
        w.addWrite(k(1), k(5), 10);
        assertThat(w.conflicts(k(0), k(9), 10)).isFalse();
        assertThat(w.conflicts(k(0), k(9), 9)).isTrue();
    }

    @Test
    void aConflictInAnOlderGenerationIsFound() {
        ConflictWindow w = new ConflictWindow();
        w.addWrite(k(1), k(2), 100);
        w.addWrite(k(7), k(8), 100 + 3 * ConflictWindow.GENERATION_VERSIONS);
        assertThat(w.generationCount()).isEqualTo(2);
        assertThat(w.conflicts(k(1), k(2), 99)).isTrue();
        assertThat(w.conflicts(k(1), k(2), 100)).isFalse();
    }

    @Test
    void pruningDropsWholeGenerationsThatLeftTheWindow() {
        ConflictWindow w = new ConflictWindow();
        long g = ConflictWindow.GENERATION_VERSIONS;
        for (int i = 0; i < 8; i++) {
            w.addWrite(k(i), k(i + 1), i * g);
        }
        assertThat(w.generationCount()).isEqualTo(8);
        w.pruneBefore(5 * g);
        assertThat(w.generationCount()).isEqualTo(3);
        assertThat(w.conflicts(k(5), k(6), 5 * g - 1)).isTrue();
        assertThat(w.conflicts(k(7), k(8), 6 * g)).isTrue();
    }

    /**
     * One write per step: (a, b, version gap). Equal ends write the single key {@code [a, a\x00)}
     * (the resolver's point path; by {@code addWrite} or, at odd versions, {@code addKeyWrite}),
     * others the range between them. After each step every read
     * range over the alphabet — and every single key — is checked against a list of all writes.
     * Keys are compared as {@code (index, suffix)} where a single key's end {@code a\x00} sorts
     * just after {@code a}.
     */
    @Property(tries = 500)
    void agreesWithAListOfAllWrites(@ForAll("ops") List<int[]> ops, @ForAll("generationWrites") int generationWrites) {
        ConflictWindow w = new ConflictWindow(generationWrites);
        List<long[]> all = new ArrayList<>(); // begin*2, end*2 (odd = key + \x00), version
        long version = 1;
        for (int[] op : ops) {
            version += op[2];
            int a = Math.min(op[0], op[1]);
            int b = Math.max(op[0], op[1]);
            if (a == b) {
                if (version % 2 == 0) {
                    w.addWrite(k(a), after(k(a)), version);
                } else {
                    w.addKeyWrite(k(a), version); // the same write through the key-only call
                }
                all.add(new long[] {2L * a, 2L * a + 1, version});
            } else {
                w.addWrite(k(a), k(b), version);
                all.add(new long[] {2L * a, 2L * b, version});
            }
            long rv = version - op[2] / 2 - 1;
            for (int rb = 0; rb < 7; rb++) {
                for (int re = rb; re < 7; re++) {
                    long lo = 2L * rb;
                    long hi = re == rb ? 2L * rb + 1 : 2L * re;
                    byte[] end = re == rb ? after(k(rb)) : k(re);
                    boolean expected = false;
                    for (long[] x : all) {
                        if (x[2] > rv && x[0] < hi && lo < x[1]) {
                            expected = true;
                        }
                    }
                    assertThat(w.conflicts(k(rb), end, rv))
                            .as(Arrays.toString(op) + " read [" + lo + "," + hi + ") at " + rv).isEqualTo(expected);
                    if (re == rb) {
                        assertThat(w.conflictsKey(k(rb), rv)).as(Arrays.toString(op) + " key " + rb + " at " + rv).isEqualTo(expected);
                    }
                }
            }
        }
    }

    private static byte[] after(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /** Tiny generations seal after every few writes, so sealed and active paths both run. */
    @Provide
    Arbitrary<Integer> generationWrites() {
        return Arbitraries.of(1, 2, 3, 5, ConflictWindow.DEFAULT_GENERATION_WRITES);
    }

    @Provide
    Arbitrary<List<int[]>> ops() {
        Arbitrary<int[]> op = Arbitraries.integers().between(0, 6).array(int[].class).ofSize(2)
                .flatMap(be -> Arbitraries.oneOf(Arbitraries.longs().between(0, 3), Arbitraries.longs().between(1, 3 * ConflictWindow.GENERATION_VERSIONS))
                        .map(gap -> new int[] {be[0], be[1], (int) Math.min(gap, Integer.MAX_VALUE)}));
        return op.list().ofMinSize(1).ofMaxSize(12);
    }
}
