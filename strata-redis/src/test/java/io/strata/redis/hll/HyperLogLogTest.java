package io.strata.redis.hll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.redis.protocol.RedisException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The HLL codec against Redis 7.0.15: the expected bytes, digests and counts below were read
 * from a Redis 7.0.15 server given the same commands (GET of the key, its SHA-256, PFCOUNT),
 * so equality means the value is Redis's byte for byte.
 */
class HyperLogLogTest {
    private static final long MAX = HyperLogLog.DEFAULT_SPARSE_MAX_BYTES;

    @Test
    void anEmptyHllIsTheHeaderAndOneXzeroOverEveryRegister() {
        byte[] empty = HyperLogLog.create().toBytes();
        assertThat(hex(empty)).isEqualTo("48594c4c" + "01" + "000000" + "0000000000000000" + "7fff");
        HyperLogLog created = HyperLogLog.create();
        created.invalidateCache();
        // What PFADD of no element leaves: the same, its cache marked stale.
        assertThat(hex(created.toBytes())).isEqualTo("48594c4c01000000000000000000008" + "07fff");
        assertThat(created.isDense()).isFalse();
        assertThat(created.decodeSparse()).isEqualTo("Z:16384");
        assertThat(created.cardinality()).isEqualTo(new HyperLogLog.Cardinality(0, true));
    }

    @Test
    void threeElementsGiveRedisBytesAndOpcodes() {
        HyperLogLog hll = added(HyperLogLog.create(), "a", "b", "c");
        assertThat(hex(hll.toBytes())).isEqualTo("48594c4c01000000000000000000008060f38050b1844bfb80425a");
        assertThat(hll.decodeSparse()).isEqualTo("Z:8436 v:1,1 Z:4274 v:2,1 Z:3068 v:1,1 Z:603");
        assertThat(hll.cardinality().count()).isEqualTo(3);
        assertThat(hex(hll.toBytes())).isEqualTo("48594c4c01000000030000000000000060f38050b1844bfb80425a");
        assertThat(hll.add(bytes("a"), MAX)).as("a register already as high").isFalse();
    }

    @Test
    void oneAddOfManyElementsMatchesRedis() {
        record Case(int n, String before, int length, long count, String after) {
        }
        for (Case c : List.of(
                new Case(10, "0e9eb357c8eebc63439b4b7da82ccd9c49d31358d9622ec7b2486eb61b8c7192", 48, 10,
                        "aec1d29682abfa65055e38ae312adba8551838295069b72627e8e8b588c46895"),
                new Case(100, "36ab75237d7752fcdc9941216ac9d501992d18693db8d43c1ec9c4802d39c21d", 289, 100,
                        "afa9e93d9f433717e21e4e90f7a8d79721e3e2d39dbfb815b2fb9f3e72764f6e"),
                new Case(1000, "a18a0f485230f4b2868d77a230ac57813a1b8d9b2c0abe55c75c29d14869ba17", 1892, 999,
                        "b6b8b2bad8824cfb37a1914a55f60b102a44b0b8ee8026bbfda0905e3ce63eb7"))) {
            HyperLogLog hll = HyperLogLog.create();
            for (int i = 0; i < c.n(); i++) {
                hll.add(bytes("el:" + i), MAX);
            }
            hll.invalidateCache();
            assertThat(hll.toBytes()).hasSize(c.length());
            assertThat(sha256(hll.toBytes())).as("%d elements", c.n()).isEqualTo(c.before());
            assertThat(hll.cardinality().count()).isEqualTo(c.count());
            assertThat(sha256(hll.toBytes())).isEqualTo(c.after());
        }
    }

    /**
     * Elements added one PFADD at a time, PFCOUNT at each checkpoint (whose cached count stays
     * in the bytes under the stale bit): sparse up to 1,500 elements at the default 3000-byte
     * limit, dense by 2,000.
     */
    @Test
    void addingOneByOneGrowsThenPromotesAsRedisDoes() {
        record Checkpoint(int n, int length, boolean dense, String sha, long count) {
        }
        List<Checkpoint> checkpoints = List.of(
                new Checkpoint(100, 280, false, "0f95c25316463a3cc834b18596de85962b0942c727435facceceb628156c4d17", 100),
                new Checkpoint(500, 1054, false, "b3b93001145936464a4c0d0bc9c7d55553cfc7a3409dc56c76637d65072e3d0e", 500),
                new Checkpoint(1000, 1898, false, "8fefd488a86f20d65a0a25817817389a7de02ff3c8bd7810ee3cc787164b6bca", 997),
                new Checkpoint(1500, 2727, false, "00cea985accc1c03892fabcc6044820878e083b165eb49cbb9128dc0c9cfdd3f", 1494),
                new Checkpoint(2000, 12304, true, "aea96c37577028a6a5a7473caa3211d3db026ce466d77f4c59729e764d2ab888", 2000),
                new Checkpoint(3000, 12304, true, "6f428674dd1755024e831b064acf34a6d89b9c46ec5c19726129d44da3bb5b6a", 3018),
                new Checkpoint(5000, 12304, true, "f1ab9852e6b6416a058d1898a2ab8acd97a554e9cb471ad5ca13705f2eee8cb1", 5004));
        HyperLogLog hll = HyperLogLog.create();
        int longestSparse = 0;
        int i = 0;
        for (Checkpoint c : checkpoints) {
            for (; i < c.n(); i++) {
                if (hll.add(bytes("x:" + i), MAX)) {
                    hll.invalidateCache();
                }
                if (!hll.isDense()) {
                    longestSparse = Math.max(longestSparse, hll.toBytes().length);
                }
            }
            assertThat(hll.toBytes()).as("after %d", c.n()).hasSize(c.length());
            assertThat(hll.isDense()).isEqualTo(c.dense());
            assertThat(sha256(hll.toBytes())).as("after %d", c.n()).isEqualTo(c.sha());
            assertThat(hll.cardinality().count()).isEqualTo(c.count());
        }
        assertThat(longestSparse).isLessThanOrEqualTo((int) MAX).isGreaterThan((int) MAX - 5);
    }

    @Test
    void aLowerSparseLimitKeepsTheValueUnderIt() {
        HyperLogLog hll = HyperLogLog.create();
        for (int i = 0; i < 60; i++) {
            hll.add(bytes("y:" + i), 200);
        }
        hll.invalidateCache();
        assertThat(hll.isDense()).isFalse();
        assertThat(hll.toBytes()).hasSize(185);
        assertThat(sha256(hll.toBytes())).isEqualTo("626079436f8042a536c490a72dd8abf3973b2d95c0fa25d41edf8bda7b9c6a01");
        int i = 60;
        int longestSparse = 0;
        while (!hll.isDense() && i < 1000) {
            longestSparse = hll.toBytes().length;
            hll.add(bytes("y:" + i++), 200);
        }
        assertThat(hll.isDense()).isTrue();
        assertThat(longestSparse).as("the sparse value never passed 200 bytes").isLessThanOrEqualTo(200);
    }

    @Test
    void aHundredThousandElementsAreDenseAsInRedis() {
        HyperLogLog hll = HyperLogLog.create();
        for (int i = 0; i < 100_000; i++) {
            hll.add(bytes("d:" + i), MAX);
        }
        hll.invalidateCache();
        assertThat(sha256(hll.toBytes())).isEqualTo("3b5ccd45340a5c1ad6fc71f4d03b16b397a0e7b9322b28b74c6eb0a4436899f1");
        assertThat(hll.cardinality().count()).isEqualTo(99_305);
    }

    /** PFMERGE: union of the sources (the destination first among them), written into the destination in register order. */
    @Test
    void mergesMatchRedis() {
        HyperLogLog s1 = range("m:", 0, 300);
        HyperLogLog s2 = range("m:", 200, 600);
        HyperLogLog big = range("d:", 0, 100_000);
        assertThat(sha256(merge(null, s1, s2).toBytes())).isEqualTo("0f3d27dd9a9cc71fdd94642ef1b238330dc9308e0500e16bc1f89d82b7d7cfbb");
        assertThat(merge(null, s1, s2).cardinality().count()).isEqualTo(598);
        assertThat(sha256(merge(range("m:", 1000, 1100), s1, s2).toBytes()))
                .isEqualTo("c264629202a48ed9b70668e55a2b5a6e64af2ded68edb3913700b076c1b45073");
        HyperLogLog withDense = merge(null, s1, big);
        assertThat(withDense.isDense()).isTrue();
        assertThat(sha256(withDense.toBytes())).isEqualTo("90311c337a0bbe2bc037c367fc1ee6cec8e87f6cd402b05f9c4401ead04409ea");
        assertThat(withDense.cardinality().count()).isEqualTo(99_582);

        byte[] union = new byte[HyperLogLog.REGISTERS];
        s1.mergeInto(union);
        s2.mergeInto(union);
        assertThat(HyperLogLog.estimate(union)).as("PFCOUNT s1 s2").isEqualTo(598);
    }

    @Test
    void stringsThatAreNotHllsAreRefused() {
        byte[] valid = HyperLogLog.create().toBytes();
        assertNotAnHll(Arrays.copyOf(valid, 15));
        assertNotAnHll(bytes("0123" + new String(valid, 4, valid.length - 4, StandardCharsets.ISO_8859_1)));
        byte[] badEncoding = valid.clone();
        badEncoding[4] = 'x';
        assertNotAnHll(badEncoding);
        byte[] denseOfSparseLength = valid.clone();
        denseOfSparseLength[4] = 0;
        assertNotAnHll(denseOfSparseLength);
        byte[] dense = new byte[HyperLogLog.DENSE_SIZE];
        System.arraycopy(valid, 0, dense, 0, 4);
        assertThat(HyperLogLog.of(dense).isDense()).isTrue();
        assertNotAnHll(Arrays.copyOf(dense, dense.length + 1));
    }

    @Test
    void sparseOpcodesThatDoNotCoverTheRegistersAreCorrupt() {
        HyperLogLog abc = added(HyperLogLog.create(), "a", "b", "c");
        byte[] withTail = concat(abc.toBytes(), bytes("hello"));
        assertThatThrownBy(() -> HyperLogLog.of(withTail).cardinality()).hasMessage(HyperLogLog.CORRUPTED);
        assertThatThrownBy(() -> HyperLogLog.of(withTail).toDense()).hasMessage(HyperLogLog.CORRUPTED);
        assertThatThrownBy(() -> HyperLogLog.of(withTail).mergeInto(new byte[HyperLogLog.REGISTERS]))
                .hasMessage(HyperLogLog.CORRUPTED);
        // A valid cache is answered as is, as Redis answers it, without looking at the registers.
        HyperLogLog cached = HyperLogLog.of(withTail);
        byte[] b = cached.toBytes();
        b[15] = 0;
        assertThat(HyperLogLog.of(b).cardinality()).isEqualTo(new HyperLogLog.Cardinality(0, false));

        // A run past the last register is corrupt even where the runs before it cover the
        // registers exactly (Redis 7.0.15 as Debian ships it, with the fix for CVE-2025-32023).
        byte[] overrun = concat(HyperLogLog.create().toBytes(), new byte[] {(byte) 0xff});
        assertThatThrownBy(() -> HyperLogLog.of(overrun).estimate()).hasMessage(HyperLogLog.CORRUPTED);
        assertThatThrownBy(() -> HyperLogLog.of(overrun).toDense()).hasMessage(HyperLogLog.CORRUPTED);
        assertThatThrownBy(() -> HyperLogLog.of(overrun).mergeInto(new byte[HyperLogLog.REGISTERS]))
                .hasMessage(HyperLogLog.CORRUPTED);
        byte[] manyXzeros = new byte[HyperLogLog.HEADER_SIZE + 2 * 140_000 + 1];
        System.arraycopy(overrun, 0, manyXzeros, 0, HyperLogLog.HEADER_SIZE);
        for (int at = HyperLogLog.HEADER_SIZE; at + 1 < manyXzeros.length; at += 2) {
            manyXzeros[at] = 0x7f;
            manyXzeros[at + 1] = (byte) 0xff;
        }
        manyXzeros[manyXzeros.length - 1] = (byte) 0xff;
        assertThatThrownBy(() -> HyperLogLog.of(manyXzeros).estimate()).hasMessage(HyperLogLog.CORRUPTED);

        // Opcodes that stop short: an add whose register lies past them fails.
        byte[] shortRun = HyperLogLog.create().toBytes();
        shortRun[16] = 0x40; // XZERO of 256 registers (0x40 0xff)
        HyperLogLog truncated = HyperLogLog.of(shortRun);
        assertThatThrownBy(() -> truncated.raise(300, 1, MAX)).hasMessage(HyperLogLog.CORRUPTED);
        assertThat(truncated.raise(100, 1, MAX)).as("a register the opcodes reach").isTrue();
    }

    @Test
    void aRandomlyDamagedValueNeverBreaksTheCodec() {
        Random random = new Random(7);
        for (int round = 0; round < 2000; round++) {
            HyperLogLog hll = HyperLogLog.create();
            int n = random.nextInt(3000);
            for (int i = 0; i < n; i++) {
                hll.add(bytes(Double.toString(random.nextDouble())), MAX);
            }
            byte[] v = hll.toBytes();
            for (int k = 0; k < 5; k++) {
                v[random.nextInt(v.length)] = (byte) random.nextInt(256);
                if (random.nextBoolean()) {
                    break;
                }
            }
            try {
                HyperLogLog damaged = HyperLogLog.of(v);
                damaged.cardinality();
                damaged.add(bytes("more"), MAX);
                damaged.mergeInto(new byte[HyperLogLog.REGISTERS]);
                damaged.toDense();
            } catch (RedisException e) {
                assertThat(e.getMessage()).isIn(HyperLogLog.NOT_AN_HLL, HyperLogLog.CORRUPTED);
            }
        }
    }

    @Test
    void estimatesStayWithinRedisBound() {
        Random random = new Random(42);
        for (int n : new int[] {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000}) {
            HyperLogLog hll = HyperLogLog.create();
            long seed = random.nextLong();
            for (int i = 0; i < n; i++) {
                hll.add(bytes(seed + ":" + i), MAX);
            }
            long estimate = hll.estimate();
            // PFSELFTEST's bound: six standard errors of 1.04 / sqrt(m).
            double bound = Math.max(1, Math.ceil(1.04 / Math.sqrt(HyperLogLog.REGISTERS) * 6 * n));
            assertThat((double) Math.abs(estimate - n)).as("n = %d, estimate %d", n, estimate).isLessThanOrEqualTo(bound);
        }
    }

    @Test
    void theSelfTestPasses() {
        assertThat(HllSelfTest.run(MAX, new Random(1))).isNull();
    }

    /** Redis's sparse stress test: the same elements in a sparse and a dense HLL estimate the same. */
    @Property(tries = 200)
    void sparseAndDenseAgree(@ForAll @Size(max = 300) List<String> elements) {
        HyperLogLog sparse = HyperLogLog.create();
        HyperLogLog dense = HyperLogLog.create();
        dense.toDense();
        for (String e : elements) {
            sparse.add(bytes(e), MAX);
            dense.add(bytes(e), MAX);
        }
        assertThat(sparse.isDense()).isFalse();
        assertThat(sparse.estimate()).isEqualTo(dense.estimate());
        sparse.toDense();
        assertThat(sparse.denseRegisters()).isEqualTo(dense.denseRegisters());
    }

    @Test
    void denseRegistersHoldSixBitsEachWithoutTouchingNeighbours() {
        byte[] b = new byte[HyperLogLog.DENSE_SIZE + 1];
        Random random = new Random(3);
        int[] expected = new int[HyperLogLog.REGISTERS];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = random.nextInt(64);
            DenseRegisters.set(b, HyperLogLog.HEADER_SIZE, i, expected[i]);
        }
        for (int i = 0; i < expected.length; i++) {
            assertThat(DenseRegisters.get(b, HyperLogLog.HEADER_SIZE, i)).isEqualTo(expected[i]);
        }
        assertThat(b[HyperLogLog.DENSE_SIZE]).as("nothing written past the registers").isZero();
    }

    @Test
    void anElementPicksItsRegisterAndRunFromItsHash() {
        // Low 14 bits pick the register; the run counts from the 15th bit up to its first 1.
        assertThat(HyperLogLog.registerOf(0x3fffL)).isEqualTo(16383);
        assertThat(HyperLogLog.runLengthOf(1L << 14)).isEqualTo(1);
        assertThat(HyperLogLog.runLengthOf(1L << 20)).isEqualTo(7);
        assertThat(HyperLogLog.runLengthOf(0)).as("no 1 bit: Q + 1").isEqualTo(51);
    }

    private static HyperLogLog merge(HyperLogLog dest, HyperLogLog... sources) {
        byte[] union = new byte[HyperLogLog.REGISTERS];
        boolean dense = false;
        HyperLogLog target = dest == null ? HyperLogLog.create() : HyperLogLog.of(dest.toBytes());
        target.mergeInto(union);
        for (HyperLogLog s : sources) {
            s.mergeInto(union);
            dense |= s.isDense();
        }
        if (dense || target.isDense()) {
            target.toDense();
        }
        target.raiseAll(union, MAX);
        target.invalidateCache();
        return target;
    }

    private static HyperLogLog range(String prefix, int from, int to) {
        HyperLogLog hll = HyperLogLog.create();
        for (int i = from; i < to; i++) {
            hll.add(bytes(prefix + i), MAX);
        }
        hll.invalidateCache();
        return hll;
    }

    private static HyperLogLog added(HyperLogLog hll, String... elements) {
        for (String e : elements) {
            hll.add(bytes(e), MAX);
        }
        hll.invalidateCache();
        return hll;
    }

    private static void assertNotAnHll(byte[] value) {
        assertThatThrownBy(() -> HyperLogLog.of(value)).isInstanceOf(RedisException.class).hasMessage(HyperLogLog.NOT_AN_HLL);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    private static String sha256(byte[] b) {
        try {
            return hex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
