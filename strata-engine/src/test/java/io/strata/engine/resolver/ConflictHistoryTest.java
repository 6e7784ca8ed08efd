package io.strata.engine.resolver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ConflictHistoryTest {

    /** Key from a string; each char must be in 0..255 and becomes one byte ("\u00ff" is 0xff). */
    static byte[] k(String s) {
        byte[] b = new byte[s.length()];
        for (int i = 0; i < b.length; i++) {
            char c = s.charAt(i);
            if (c > 0xff) {
                throw new IllegalArgumentException("not a byte: " + (int) c);
            }
            b[i] = (byte) c;
        }
        return b;
    }

    /** The key immediately after {@code key}: key + \x00. */
    static byte[] next(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    private final ConflictHistory h = new ConflictHistory();

    private void writePoint(String key, long version) {
        byte[] b = k(key);
        h.addWrite(b, next(b), version);
    }

    private boolean readPoint(String key, long readVersion) {
        byte[] b = k(key);
        return h.conflicts(b, next(b), readVersion);
    }

    private boolean read(String begin, String end, long readVersion) {
        return h.conflicts(k(begin), k(end), readVersion);
    }

    @Test
    void emptyHistoryNeverConflicts() {
        assertThat(read("", "\u00ff\u00ff", Long.MIN_VALUE)).isFalse();
        assertThat(read("", "\u00ff\u00ff", 0)).isFalse();
        assertThat(h.size()).isZero();
    }

    @Nested
    class PointWrites {
        @Test
        void pointWriteConflictsWithOlderPointRead() {
            writePoint("apple", 10);
            assertThat(readPoint("apple", 9)).isTrue();
            assertThat(readPoint("apple", 0)).isTrue();
        }

        @Test
        void readVersionEqualToWriteVersionDoesNotConflict() {
            writePoint("apple", 10);
            assertThat(readPoint("apple", 10)).isFalse();
            assertThat(readPoint("apple", 11)).isFalse();
            assertThat(read("a", "b", 10)).isFalse();
            assertThat(read("a", "b", 9)).isTrue();
        }

        @Test
        void neighbouringKeysDoNotConflict() {
            writePoint("b", 10);
            assertThat(readPoint("a", 0)).isFalse();
            assertThat(readPoint("b\u0000", 0)).isFalse();
            assertThat(readPoint("ba", 0)).isFalse();
            assertThat(readPoint("", 0)).isFalse();
            assertThat(read("a", "b", 0)).as("[a,b) stops before b").isFalse();
            assertThat(read("b\u0000", "c", 0)).as("[b\\0,c) starts after b").isFalse();
            assertThat(read("a", "b\u0000", 0)).isTrue();
            assertThat(read("a", "c", 0)).isTrue();
            assertThat(read("b", "b\u0000", 0)).isTrue();
        }

        @Test
        void manyPointWritesAnsweredIndependently() {
            for (int i = 0; i < 100; i++) {
                writePoint("key" + (char) ('A' + (i % 26)) + i, i + 1);
            }
            for (int i = 0; i < 100; i++) {
                String key = "key" + (char) ('A' + (i % 26)) + i;
                assertThat(readPoint(key, i)).isTrue();
                assertThat(readPoint(key, i + 1)).isFalse();
            }
        }

        @Test
        void rewritingSameKeyDoesNotGrow() {
            writePoint("x", 1);
            int size = h.size();
            for (long v = 2; v < 50; v++) {
                writePoint("x", v);
            }
            assertThat(h.size()).isEqualTo(size);
            assertThat(readPoint("x", 48)).isTrue();
            assertThat(readPoint("x", 49)).isFalse();
        }
    }

    @Nested
    class RangeWrites {
        @Test
        void rangeWriteCoversInteriorKeys() {
            h.addWrite(k("b"), k("d"), 5);
            assertThat(readPoint("b", 4)).isTrue();
            assertThat(readPoint("c", 4)).isTrue();
            assertThat(readPoint("c\u00ff\u00ff\u00ff", 4)).isTrue();
            assertThat(read("c\u00ff", "d", 4)).isTrue();
            assertThat(read("a", "z", 4)).isTrue();
            assertThat(read("", "b\u0000", 4)).isTrue();
        }

        @Test
        void endIsExclusive() {
            h.addWrite(k("a"), k("b"), 5);
            assertThat(read("b", "c", 0)).isFalse();
            assertThat(readPoint("b", 0)).isFalse();
            assertThat(read("a\u00ff\u00ff", "b", 0)).isTrue();
            // and reads are end-exclusive too
            h.addWrite(k("m"), k("n"), 6);
            assertThat(read("k", "m", 0)).isFalse();
            assertThat(read("k", "m\u0000", 0)).isTrue();
        }

        @Test
        void readWhollyInsideOrAroundWrite() {
            h.addWrite(k("c"), k("f"), 7);
            assertThat(read("d", "e", 6)).isTrue();
            assertThat(read("a", "z", 6)).isTrue();
            assertThat(read("a", "z", 7)).isFalse();
        }

        @Test
        void emptyAndInvertedRangesAreIgnored() {
            h.addWrite(k("b"), k("b"), 5);
            h.addWrite(k("c"), k("b"), 5);
            h.addWrite(k(""), k(""), 5);
            assertThat(h.size()).isZero();
            assertThat(read("", "z", 0)).isFalse();

            h.addWrite(k("a"), k("z"), 6);
            assertThat(read("c", "b", 0)).as("inverted read").isFalse();
            assertThat(read("c", "c", 0)).as("empty read").isFalse();
            assertThat(read("c", "c\u0000", 0)).isTrue();
        }

        @Test
        void overlappingOverwritesKeepNewestVersion() {
            h.addWrite(k("a"), k("z"), 5);
            h.addWrite(k("c"), k("d"), 7);
            assertThat(read("c", "d", 6)).isTrue();
            assertThat(read("a", "c", 6)).isFalse();
            assertThat(read("d", "z", 6)).isFalse();
            assertThat(read("a", "c", 4)).isTrue();
            assertThat(read("a", "z", 6)).isTrue();

            h.addWrite(k("b"), k("e"), 8);
            assertThat(read("c", "d", 7)).as("[b,e)@8 hides [c,d)@7 but is newer").isTrue();
            assertThat(read("c", "d", 8)).isFalse();
            assertThat(read("a", "b", 6)).isFalse();
            assertThat(read("e", "z", 6)).isFalse();
            assertThat(read("e", "z", 4)).isTrue();

            // a wide newer write replaces all the detail inside it
            h.addWrite(k("a"), k("z"), 9);
            assertThat(h.size()).isEqualTo(2);
            assertThat(read("a", "z", 8)).isTrue();
            assertThat(read("", "a", 0)).isFalse();
            assertThat(read("z", "\u00ff", 0)).isFalse();
        }

        @Test
        void olderVersionInsideNewerDoesNotHideIt() {
            h.addWrite(k("a"), k("z"), 5);
            h.addWrite(k("m"), k("n"), 5);
            h.addWrite(k("x"), k("y"), 6);
            assertThat(read("m", "n", 4)).isTrue();
            assertThat(read("m", "n", 5)).isFalse();
            assertThat(read("a", "x", 5)).isFalse();
            assertThat(read("a", "x\u0000", 5)).isTrue();
        }

        @Test
        void adjacentWritesAtSameVersionCoalesce() {
            h.addWrite(k("a"), k("b"), 5);
            h.addWrite(k("b"), k("c"), 5);
            h.addWrite(k("c"), k("d"), 5);
            assertThat(h.size()).isEqualTo(2);
            assertThat(read("a", "d", 4)).isTrue();
            assertThat(read("d", "e", 4)).isFalse();
            assertThat(read("", "a", 4)).isFalse();
        }

        @Test
        void doesNotModifyCallerArrays() {
            byte[] b = k("abc");
            byte[] e = k("abd");
            byte[] b2 = b.clone();
            byte[] e2 = e.clone();
            h.addWrite(b, e, 3);
            h.conflicts(b, e, 1);
            h.addWrite(k("a"), k("b"), 4);
            h.pruneBefore(5);
            assertThat(b).isEqualTo(b2);
            assertThat(e).isEqualTo(e2);
        }
    }

    @Nested
    class SpecialKeys {
        @Test
        void emptyKeyIsTheSmallestKey() {
            h.addWrite(k(""), k("\u0000"), 5);
            assertThat(readPoint("", 4)).isTrue();
            assertThat(readPoint("\u0000", 4)).isFalse();
            assertThat(read("", "\u0000\u0000", 4)).isTrue();
            assertThat(read("\u0000", "\u00ff", 4)).isFalse();
        }

        @Test
        void rangeFromEmptyKey() {
            h.addWrite(k(""), k("m"), 5);
            assertThat(readPoint("", 4)).isTrue();
            assertThat(readPoint("\u0000", 4)).isTrue();
            assertThat(readPoint("l\u00ff", 4)).isTrue();
            assertThat(readPoint("m", 4)).isFalse();
        }

        @Test
        void zeroBytesOrderAfterTheirPrefix() {
            writePoint("a", 5); // [a, a\0)
            writePoint("a\u0000", 6); // [a\0, a\0\0)
            assertThat(readPoint("a", 5)).isFalse();
            assertThat(readPoint("a", 4)).isTrue();
            assertThat(readPoint("a\u0000", 5)).isTrue();
            assertThat(readPoint("a\u0000\u0000", 0)).isFalse();
            assertThat(read("a\u0000", "a\u0000\u0000", 5)).isTrue();
            assertThat(read("a\u0000\u0000", "b", 0)).isFalse();
        }

        @Test
        void bytesCompareUnsigned() {
            // signed comparison would make this range inverted (0x7f > (byte) 0x80)
            h.addWrite(k("\u007f"), k("\u0080"), 5);
            assertThat(h.size()).isEqualTo(2);
            assertThat(readPoint("\u007f\u00ff", 4)).isTrue();
            assertThat(readPoint("\u0080", 4)).isFalse();
            assertThat(read("\u0080", "\u00ff", 4)).isFalse();
            assertThat(read("\u0000", "\u007f", 4)).isFalse();
        }

        @Test
        void ffKeys() {
            writePoint("\u00ff\u00ff", 5);
            h.addWrite(k("\u00ff"), k("\u00ff\u0000"), 6);
            assertThat(read("\u00ff\u0000", "\u00ff\u00ff", 0)).isFalse();
            assertThat(read("\u00ff\u00ff", "\u00ff\u00ff\u00ff", 4)).isTrue();
            assertThat(read("\u00ff\u00ff", "\u00ff\u00ff\u00ff", 5)).isFalse();
            assertThat(readPoint("\u00ff", 5)).isTrue();
            assertThat(read("\u00fe", "\u00ff", 0)).isFalse();
            assertThat(read("\u00fe", "\u00ff\u00ff\u00ff\u00ff", 5)).isTrue();
        }

        @Test
        void sharedPrefixesAndLengths() {
            h.addWrite(k("ab"), k("abc"), 5);
            assertThat(readPoint("ab", 4)).isTrue();
            assertThat(readPoint("abb\u00ff", 4)).isTrue();
            assertThat(readPoint("abc", 4)).isFalse();
            assertThat(readPoint("a", 4)).isFalse();
            assertThat(readPoint("abca", 4)).isFalse();
            assertThat(readPoint("ab\u0000", 4)).isTrue();
        }

        @Test
        void binaryKeysFromUtf8() {
            byte[] b = "日本".getBytes(StandardCharsets.UTF_8);
            h.addWrite(b, next(b), 3);
            assertThat(h.conflicts(b, next(b), 2)).isTrue();
            assertThat(h.conflicts(k(""), b, 2)).isFalse();
        }
    }

    @Nested
    class Pruning {
        @Test
        void pruningKeepsAnswersForAllowedReadVersions() {
            // key i written at version i + 1, plus some ranges
            for (int i = 0; i < 100; i++) {
                writePoint(String.format("k%03d", i), i + 1);
                if (i % 10 == 0) {
                    h.addWrite(k(String.format("k%03d", i)), k(String.format("k%03dz", i + 5)), i + 1);
                }
            }
            String[] probes = new String[300];
            for (int i = 0; i < 100; i++) {
                probes[3 * i] = String.format("k%03d", i);
                probes[3 * i + 1] = String.format("k%03d\u0000", i);
                probes[3 * i + 2] = String.format("k%03dm", i);
            }
            long oldest = 50;
            boolean[][] before = new boolean[probes.length][];
            for (int p = 0; p < probes.length; p++) {
                before[p] = new boolean[110];
                for (long rv = oldest - 1; rv < 110; rv++) {
                    before[p][(int) rv] = readPoint(probes[p], rv);
                }
            }
            boolean[] rangeBefore = new boolean[110];
            for (long rv = oldest - 1; rv < 110; rv++) {
                rangeBefore[(int) rv] = read("k000", "k040", rv);
            }
            int sizeBefore = h.size();

            h.pruneBefore(oldest);

            assertThat(h.size()).isLessThan(sizeBefore);
            for (int p = 0; p < probes.length; p++) {
                for (long rv = oldest - 1; rv < 110; rv++) {
                    assertThat(readPoint(probes[p], rv))
                            .as("probe %s at rv %d", probes[p], rv)
                            .isEqualTo(before[p][(int) rv]);
                }
            }
            for (long rv = oldest - 1; rv < 110; rv++) {
                assertThat(read("k000", "k040", rv)).isEqualTo(rangeBefore[(int) rv]);
            }
        }

        @Test
        void pruningEverythingEmptiesTheHistory() {
            for (int i = 0; i < 50; i++) {
                writePoint("key" + i, i + 1);
            }
            assertThat(h.size()).isEqualTo(100);
            h.pruneBefore(51);
            assertThat(h.size()).isZero();
            assertThat(read("", "\u00ff", 50)).isFalse();
        }

        @Test
        void pruningKeepsRecentWritesAndTheirEnds() {
            writePoint("a", 1);
            writePoint("b", 2);
            writePoint("c", 3);
            writePoint("d", 4);
            h.pruneBefore(3);
            // only c and d remain, each with a begin and an end boundary
            assertThat(h.size()).isEqualTo(4);
            assertThat(readPoint("c", 2)).isTrue();
            assertThat(readPoint("d", 3)).isTrue();
            assertThat(readPoint("a", 2)).isFalse();
            assertThat(readPoint("b", 2)).isFalse();
            assertThat(read("", "c", 2)).isFalse();
            assertThat(read("c\u0000", "d", 2)).isFalse();
            assertThat(read("d\u0000", "\u00ff", 2)).isFalse();
        }

        @Test
        void writesAfterPruningStillWork() {
            h.addWrite(k("a"), k("z"), 1);
            writePoint("m", 2);
            h.pruneBefore(2);
            h.addWrite(k("l"), k("n"), 3);
            writePoint("b", 4);
            assertThat(readPoint("m", 2)).isTrue();
            assertThat(readPoint("m", 3)).isFalse();
            assertThat(readPoint("c", 1)).isFalse();
            assertThat(readPoint("b", 3)).isTrue();
            h.pruneBefore(4);
            assertThat(h.size()).isEqualTo(2);
            assertThat(read("", "\u00ff", 3)).isTrue();
            assertThat(read("c", "\u00ff", 3)).isFalse();
        }

        @Test
        void repeatedPruningKeepsSizeBoundedByWindow() {
            long version = 0;
            int window = 1_000;
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < window; i++) {
                    version++;
                    writePoint("key" + (version * 7919 % 100_003), version);
                }
                h.pruneBefore(version - window + 1);
                assertThat(h.size()).isLessThanOrEqualTo(2 * window);
            }
        }
    }
}
