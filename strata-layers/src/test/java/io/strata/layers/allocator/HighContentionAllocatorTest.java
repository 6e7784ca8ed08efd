package io.strata.layers.allocator;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDBException;
import com.apple.foundationdb.KeyValue;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.strata.Strata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Format, windows and the conflict that makes the allocator correct; single-threaded. */
class HighContentionAllocatorTest {
    /** A raw prefix, so the expected keys below are plain bytes. */
    private static final byte[] PREFIX = {'h', 'c', 'a'};
    private static final Subspace SUBSPACE = new Subspace(PREFIX);

    @Test
    void windowSizeIs64Then1024Then8192() {
        assertThat(HighContentionAllocator.windowSize(0)).isEqualTo(64);
        assertThat(HighContentionAllocator.windowSize(254)).isEqualTo(64);
        assertThat(HighContentionAllocator.windowSize(255)).isEqualTo(1024);
        assertThat(HighContentionAllocator.windowSize(65534)).isEqualTo(1024);
        assertThat(HighContentionAllocator.windowSize(65535)).isEqualTo(8192);
        assertThat(HighContentionAllocator.windowSize(Long.MAX_VALUE / 2)).isEqualTo(8192);
    }

    @Test
    void countsAreUnsignedLittleEndian() {
        assertThat(HighContentionAllocator.littleEndian(new byte[] {1, 0, 0, 0, 0, 0, 0, 0})).isEqualTo(1);
        assertThat(HighContentionAllocator.littleEndian(new byte[] {(byte) 0x80, 2, 0, 0, 0, 0, 0, 0})).isEqualTo(0x0280);
        assertThat(HighContentionAllocator.littleEndian(new byte[] {(byte) 0xFF, 0, 0, 0, 0, 0, 0, 0})).isEqualTo(255);
    }

    @Test
    void keysAreCounterLittleEndianAndEmptyReservationsByteForByte() {
        HighContentionAllocator hca = new HighContentionAllocator(SUBSPACE, new Random(1));
        try (Database db = Strata.inMemory()) {
            List<Long> candidates = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                byte[] result = db.run(tr -> hca.allocate(tr).join());
                long candidate = Tuple.fromBytes(result).getLong(0);
                assertThat(result).as("the result is the candidate's tuple encoding")
                        .containsExactly(candidate == 0 ? new byte[] {0x14} : new byte[] {0x15, (byte) candidate});
                candidates.add(candidate);
            }
            assertThat(candidates).doesNotHaveDuplicates().allSatisfy(c -> assertThat(c).isBetween(0L, 63L));

            List<KeyValue> stored = db.run(tr -> tr.getRange(SUBSPACE.range()).asList().join());
            List<String> expected = new ArrayList<>();
            // (0, 0) -> 10 as 8 bytes little-endian: 'hca' 0x14 (int 0) 0x14 (int 0).
            expected.add(printable(ByteArrayUtil.join(PREFIX, new byte[] {0x14, 0x14}), new byte[] {10, 0, 0, 0, 0, 0, 0, 0}));
            // (1, c) -> empty: 'hca' 0x15 0x01 (int 1) then c's tuple encoding.
            candidates.stream().sorted().forEach(c -> expected.add(printable(
                    ByteArrayUtil.join(PREFIX, new byte[] {0x15, 0x01}, c == 0 ? new byte[] {0x14} : new byte[] {0x15, (byte) (long) c}),
                    new byte[0])));
            assertThat(stored.stream().map(kv -> printable(kv.getKey(), kv.getValue())).toList())
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void windowsGrowFrom64To1024AndOlderStateIsCleared() {
        HighContentionAllocator hca = new HighContentionAllocator(SUBSPACE, new Random(2));
        List<Long> starts = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        try (Database db = Strata.inMemory()) {
            for (int i = 0; i < 200; i++) {
                long candidate = Tuple.fromBytes(db.run(tr -> hca.allocate(tr).join())).getLong(0);
                assertThat(seen.add(candidate)).as("candidate %d handed out twice", candidate).isTrue();
                List<KeyValue> stored = db.run(tr -> tr.getRange(SUBSPACE.range()).asList().join());
                List<Long> counterStarts = new ArrayList<>();
                List<Long> reserved = new ArrayList<>();
                for (KeyValue kv : stored) {
                    Tuple key = SUBSPACE.unpack(kv.getKey());
                    (key.getLong(0) == 0 ? counterStarts : reserved).add(key.getLong(1));
                }
                assertThat(counterStarts).as("one counter: older ones are cleared").hasSize(1);
                long start = counterStarts.get(0);
                assertThat(reserved).as("no reservation below the window").allSatisfy(r -> assertThat(r).isGreaterThanOrEqualTo(start));
                assertThat(candidate).isBetween(start, start + HighContentionAllocator.windowSize(start) - 1);
                if (starts.isEmpty() || starts.get(starts.size() - 1) != start) {
                    starts.add(start);
                }
            }
        }
        // Each 64-wide window is left at its 32nd attempt; 256 is the first start >= 255.
        assertThat(starts).containsExactly(0L, 64L, 128L, 192L, 256L);
    }

    @Test
    void windowGrowsTo8192PastStart65535() {
        HighContentionAllocator hca = new HighContentionAllocator(SUBSPACE, new Random(3));
        long start = 65000; // a 1024-wide window, one attempt short of half full
        try (Database db = Strata.inMemory()) {
            db.run(tr -> {
                tr.set(SUBSPACE.pack(Tuple.from(0, start)), new byte[] {(byte) 0xFF, 0x01, 0, 0, 0, 0, 0, 0}); // 511
                tr.set(SUBSPACE.pack(Tuple.from(1, start + 7)), new byte[0]);
                return null;
            });
            long candidate = Tuple.fromBytes(db.run(tr -> hca.allocate(tr).join())).getLong(0);
            long next = start + 1024;
            assertThat(candidate).isBetween(next, next + 8192 - 1);
            List<KeyValue> stored = db.run(tr -> tr.getRange(SUBSPACE.range()).asList().join());
            assertThat(stored).extracting(kv -> SUBSPACE.unpack(kv.getKey()))
                    .containsExactly(Tuple.from(0, next), Tuple.from(1, candidate));
            assertThat(stored.get(0).getValue()).containsExactly(1, 0, 0, 0, 0, 0, 0, 0);
            // Results grow with the window: a 3-byte tuple integer now.
            assertThat(Tuple.from(candidate).pack()).hasSize(4);
        }
    }

    @Test
    void twoAllocationsInOneTransactionDiffer() {
        HighContentionAllocator hca = new HighContentionAllocator(SUBSPACE);
        try (Database db = Strata.inMemory()) {
            List<byte[]> results = db.run(tr -> {
                List<CompletableFuture<byte[]>> inFlight = new ArrayList<>();
                for (int i = 0; i < 100; i++) { // all in flight at once, across window moves
                    inFlight.add(hca.allocate(tr));
                }
                return inFlight.stream().map(CompletableFuture::join).toList();
            });
            List<byte[]> all = new ArrayList<>(results);
            for (int i = 0; i < 100; i++) {
                all.add(db.run(tr -> hca.allocate(tr).join()));
            }
            NaiveAllocatorTest.assertPrefixFree(all);
        }
    }

    /**
     * The race of seed 001: two transactions pick the same free candidate. Both find it free
     * at their read versions; only the read conflict on the reservation key, met by the first
     * committer's explicit write conflict, stops the second from committing it too.
     */
    @Test
    void sameCandidateInTwoTransactionsOnlyOneCommits() {
        try (Database db = Strata.inMemory()) {
            HighContentionAllocator first = new HighContentionAllocator(SUBSPACE, new Random(7));
            HighContentionAllocator second = new HighContentionAllocator(SUBSPACE, new Random(7));
            byte[] a;
            try (Transaction tr1 = db.createTransaction(); Transaction tr2 = db.createTransaction()) {
                a = first.allocate(tr1).join();
                byte[] b = second.allocate(tr2).join();
                assertThat(b).as("same seed, same state: same candidate").containsExactly(a);
                tr1.commit().join();
                Throwable failure = catchThrowable(() -> tr2.commit().join());
                assertThat(failure).isInstanceOf(CompletionException.class).cause().isInstanceOf(FDBException.class);
                assertThat(((FDBException) failure.getCause()).getCode()).isEqualTo(1020);
            }
            // A taken candidate is skipped: the same seed now yields a different value.
            byte[] again = db.run(tr -> new HighContentionAllocator(SUBSPACE, new Random(7)).allocate(tr).join());
            assertThat(again).isNotEqualTo(a);
        }
    }

    @Test
    void directoryLayerSubspaceIsNodeRootThenHcaAsBytes() {
        Subspace hca = HighContentionAllocator.directoryLayerSubspace(new Subspace(new byte[] {(byte) 0xFE}));
        // \xFE, then the tuple (b'\xFE',) = 01 FE 00, then (b'hca',) = 01 'hca' 00.
        assertThat(hca.getKey()).containsExactly(0xFE, 0x01, 0xFE, 0x00, 0x01, 'h', 'c', 'a', 0x00);
    }

    private static String printable(byte[] key, byte[] value) {
        return ByteArrayUtil.printable(key) + " -> " + ByteArrayUtil.printable(value);
    }
}
