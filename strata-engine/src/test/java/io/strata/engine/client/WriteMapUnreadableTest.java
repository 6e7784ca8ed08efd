package io.strata.engine.client;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The ranges that may hold a versionstamped key, as reads of a transaction see them. */
class WriteMapUnreadableTest {
    private final WriteMap map = new WriteMap();

    private static byte[] k(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private boolean meets(String begin, String end) {
        return map.inUnreadableRange(k(begin), k(end));
    }

    @Test
    void aRangeMeetsWhatOverlapsItAndNothingElse() {
        map.addUnreadableRange(k("c"), k("e"));
        map.addUnreadableRange(k("m"), k("p"));

        assertThat(meets("a", "c")).isFalse(); // ends where the first begins
        assertThat(meets("a", "d")).isTrue();
        assertThat(meets("d", "d1")).isTrue();
        assertThat(meets("e", "m")).isFalse(); // between the two
        assertThat(meets("o", "z")).isTrue();
        assertThat(meets("p", "z")).isFalse();
        assertThat(map.isUnreadable(k("n"))).isTrue();
        assertThat(map.isUnreadable(k("f"))).isFalse();
    }

    @Test
    void overlappingRangesStayUnreadableWhereAnyCoversAfterAClearRemovesAnother() {
        // A long range with a short one inside and one overlapping its end.
        map.addUnreadableRange(k("b"), k("k"));
        map.addUnreadableRange(k("d"), k("e"));
        map.addUnreadableRange(k("j"), k("r"));
        assertThat(meets("p", "q")).isTrue();

        // A clear makes plainly empty the ranges it covers whole: [d, e) goes, the others stay.
        map.clearRange(k("c"), k("f"));
        assertThat(meets("d", "d1")).isTrue(); // still inside [b, k)
        map.clearRange(k("a"), k("l"));        // covers [b, k): only [j, r) is left
        assertThat(meets("c", "i")).isFalse();
        assertThat(meets("i", "j")).isFalse();
        assertThat(meets("j", "j1")).isTrue();
        assertThat(meets("q", "z")).isTrue();
        assertThat(meets("r", "z")).isFalse();
    }

    @Test
    void aCopyKeepsItsRangesApart() {
        map.addUnreadableRange(k("c"), k("e"));
        WriteMap copy = map.copy();
        map.clearRange(k("a"), k("z"));
        assertThat(meets("c", "d")).isFalse();
        assertThat(copy.inUnreadableRange(k("c"), k("d"))).isTrue();
    }

    @Test
    void manyRangesAreAnsweredByOneLookup() {
        // A Redis server writes a versionstamped change stamp per command; a DEL of 20,000 keys
        // read after each. Forty thousand ranges, and a read below and above them all.
        for (int i = 0; i < 40_000; i++) {
            String key = String.format("s%06d", i);
            map.addUnreadableRange(k(key), k(key + "~"));
        }
        assertThat(meets("a", "b")).isFalse();
        assertThat(meets("s020000", "s020000\u0001")).isTrue();
        assertThat(meets("t", "u")).isFalse();
    }
}
