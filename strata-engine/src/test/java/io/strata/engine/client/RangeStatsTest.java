package io.strata.engine.client;

import static io.strata.engine.client.ReadTests.b;
import static io.strata.engine.client.ReadTests.errorCode;
import static io.strata.engine.client.ReadTests.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.KeyArrayResult;
import com.apple.foundationdb.KeySelector;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.Transaction;
import io.strata.Strata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Size estimates and split points answered from the stored data, and the reads the engine
 * does not support (mapped ranges, blob granules), which fail with 2108. The database holds
 * ten keys k00..k09 with 100-byte values (103 bytes each) and z with a 1-byte value.
 */
class RangeStatsTest {
    private static final int ROW_BYTES = 103;

    private Database db;
    private Transaction tr;

    @BeforeEach
    void open() {
        db = Strata.inMemory();
        db.run(t -> {
            for (int i = 0; i < 10; i++) {
                t.set(b(String.format("k%02d", i)), new byte[100]);
            }
            t.set(b("z"), b("1"));
            return null;
        });
        tr = db.createTransaction();
    }

    @AfterEach
    void close() {
        tr.close();
        db.close();
    }

    private static List<String> points(KeyArrayResult r) {
        List<String> out = new ArrayList<>();
        for (byte[] k : r.getKeys()) {
            out.add(s(k));
        }
        return out;
    }

    @Test
    void estimatedSizeCountsTheKeysAndValuesInTheRange() {
        assertThat(tr.getEstimatedRangeSizeBytes(b("k"), b("l")).join()).isEqualTo(10L * ROW_BYTES);
        assertThat(tr.getEstimatedRangeSizeBytes(b("k03"), b("k05")).join()).isEqualTo(2L * ROW_BYTES);
        assertThat(tr.getEstimatedRangeSizeBytes(new Range(b(""), b("\u00ff"))).join()).isEqualTo(10L * ROW_BYTES + 2);
        assertThat(tr.snapshot().getEstimatedRangeSizeBytes(b("z"), b("zz")).join()).isEqualTo(2L);
    }

    @Test
    void estimatedSizeOfAnEmptyRangeIsZero() {
        assertThat(tr.getEstimatedRangeSizeBytes(b("a"), b("b")).join()).isZero();
        assertThat(tr.getEstimatedRangeSizeBytes(b("k05"), b("k05")).join()).isZero();
    }

    @Test
    void estimatedSizeReflectsCommittedDataNotOwnWrites() {
        tr.set(b("m"), new byte[500]);
        assertThat(tr.getEstimatedRangeSizeBytes(b("m"), b("n")).join()).isZero();
        db.run(t -> {
            t.clear(b("k"), b("k05"));
            return null;
        });
        try (Transaction later = db.createTransaction()) {
            assertThat(later.getEstimatedRangeSizeBytes(b("k"), b("l")).join()).isEqualTo(5L * ROW_BYTES);
        }
    }

    @Test
    void estimatedSizeOfAnInvertedRangeFails() {
        assertThat(errorCode(tr.getEstimatedRangeSizeBytes(b("l"), b("k")))).isEqualTo(2005);
    }

    @Test
    void splitPointsStartAtBeginEndAtEndAndCutTheDataIntoChunks() {
        List<String> p = points(tr.getRangeSplitPoints(b("k"), b("l"), 250).join());
        assertThat(p.get(0)).isEqualTo("k");
        assertThat(p.get(p.size() - 1)).isEqualTo("l");
        assertThat(p).isSorted().doesNotHaveDuplicates();
        assertThat(p.size()).as("about 1030 bytes in chunks of about 250").isBetween(4, 7);
        for (String inner : p.subList(1, p.size() - 1)) {
            assertThat(inner).startsWith("k0");
        }
        for (int i = 0; i + 1 < p.size(); i++) {
            long chunk = tr.getEstimatedRangeSizeBytes(b(p.get(i)), b(p.get(i + 1))).join();
            assertThat(chunk).as("chunk %s..%s", p.get(i), p.get(i + 1)).isLessThanOrEqualTo(250L + ROW_BYTES);
        }
    }

    @Test
    void splitPointsOfASmallRangeAreItsEnds() {
        assertThat(points(tr.getRangeSplitPoints(new Range(b("k"), b("l")), 1_000_000).join())).containsExactly("k", "l");
        assertThat(points(tr.snapshot().getRangeSplitPoints(b("a"), b("b"), 10).join())).containsExactly("a", "b");
    }

    /**
     * Neither RYW's nor NativeAPI's {@code getRangeSplitPoints} checks the chunk size, nor does
     * the storage server: with 0, {@code StorageServerMetrics::getSplitPoints}
     * ({@code fdbserver/StorageMetrics.actor.cpp}) takes {@code index(sumTo(lower_bound(begin)))},
     * skips it when it is the range's begin, and so returns every sampled key after begin. The
     * engine's sample is every key.
     */
    @Test
    void splitPointsOfChunkSizeZeroAreEveryKeyAfterBegin() {
        assertThat(points(tr.getRangeSplitPoints(b("k"), b("l"), 0).join())).containsExactly(
                "k", "k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "k09", "l");
        // A begin that is a present key is not repeated; the end is not a split point twice.
        assertThat(points(tr.getRangeSplitPoints(b("k03"), b("k06"), 0).join()))
                .containsExactly("k03", "k04", "k05", "k06");
        assertThat(points(tr.getRangeSplitPoints(b("a"), b("b"), 0).join())).containsExactly("a", "b");
    }

    /**
     * A negative chunk size has no FoundationDB answer to copy: {@code index()} of a negative
     * metric is the first sampled key, so {@code getSplitPoints} goes back and forth between
     * the first two sampled keys without end. The engine refuses it (docs/engine.md).
     */
    @Test
    void splitPointsRefuseANegativeChunkSize() {
        assertThat(errorCode(tr.getRangeSplitPoints(b("k"), b("l"), -1))).isEqualTo(2006);
        assertThat(errorCode(tr.getRangeSplitPoints(b("k"), b("l"), Long.MIN_VALUE))).isEqualTo(2006);
    }

    @Test
    void splitPointsRefuseInvertedAndSystemRanges() {
        assertThat(errorCode(tr.getRangeSplitPoints(b("l"), b("k"), 100))).isEqualTo(2005);
        assertThat(errorCode(tr.getRangeSplitPoints(b("k"), b("\u00ff\u0001"), 100))).isEqualTo(2004);
    }

    @Test
    void blobGranuleRangesAreUnsupported() {
        assertThat(errorCode(tr.getBlobGranuleRanges(b("k"), b("l"), 10))).isEqualTo(2108);
        assertThat(errorCode(tr.snapshot().getBlobGranuleRanges(b("k"), b("l"), 10))).isEqualTo(2108);
    }

    @Test
    void statsDoNotChangeTheData() {
        tr.getRangeSplitPoints(b("k"), b("l"), 100).join();
        tr.getEstimatedRangeSizeBytes(b("k"), b("l")).join();
        byte[] v = tr.get(b("k05")).join();
        assertThat(v).containsExactly(new byte[100]);
        assertThat(Arrays.equals(tr.get(b("z")).join(), b("1"))).isTrue();
    }
    /**
     * FoundationDB answers size estimates and split points from storage metrics, not at the
     * transaction's read version (NativeAPI passes its state only for tenants): they neither
     * set the read version nor stop at it.
     */
    @Test
    void statsNeitherSetNorUseTheReadVersion() {
        tr.getEstimatedRangeSizeBytes(b("k"), b("l")).join();
        tr.getRangeSplitPoints(b("k"), b("l"), 1_000).join();
        long v = db.read(t -> t.getReadVersion().join());
        tr.setReadVersion(v); // no read_version_already_set
        assertThat(tr.get(b("k00")).join()).hasSize(100);

        Transaction older = db.createTransaction();
        older.getReadVersion().join();
        db.run(t -> {
            t.set(b("k10"), new byte[100]);
            return null;
        });
        assertThat(older.getEstimatedRangeSizeBytes(b("k"), b("l")).join()).isEqualTo(11L * ROW_BYTES);
        assertThat(older.get(b("k10")).join()).isNull(); // reads stay at the read version
        older.close();
    }
}
