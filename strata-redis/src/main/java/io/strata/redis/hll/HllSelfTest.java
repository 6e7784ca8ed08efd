package io.strata.redis.hll;

import java.util.Random;

/**
 * PFSELFTEST's checks, as Redis 7.0 runs them: (1) a thousand rounds of random values written
 * to every dense register read back unchanged, neighbours untouched; (2) ten million distinct
 * elements added to a dense and a sparse HLL at once, checked at 1, 10, 100 … 10^7 elements:
 * the sparse one still sparse while small, both estimating the same, and the estimate within
 * six standard errors (one element off at 10). Takes a few seconds of one core.
 */
public final class HllSelfTest {
    private static final int ROUNDS = 1000;
    private static final long ELEMENTS = 10_000_000L;
    private static final int DENSE_BYTES = HyperLogLog.DENSE_SIZE - HyperLogLog.HEADER_SIZE;

    private HllSelfTest() {
    }

    /**
     * Runs the checks; null when they pass, else Redis's {@code TESTFAILED …} error text.
     *
     * @param sparseMaxBytes {@code hll-sparse-max-bytes}, which bounds the sparse HLL
     * @param random where the register values and the elements' seed come from
     */
    public static String run(long sparseMaxBytes, Random random) {
        String failure = registersHoldTheirValues(random);
        return failure != null ? failure : estimatesStayClose(sparseMaxBytes, random);
    }

    private static String registersHoldTheirValues(Random random) {
        byte[] dense = new byte[DENSE_BYTES + 1];
        int[] expected = new int[HyperLogLog.REGISTERS];
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                expected[i] = random.nextInt(HyperLogLog.REGISTER_MAX + 1);
                DenseRegisters.set(dense, 0, i, expected[i]);
            }
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                int got = DenseRegisters.get(dense, 0, i);
                if (got != expected[i]) {
                    return "TESTFAILED Register " + i + " should be " + expected[i] + " but is " + got;
                }
            }
        }
        return null;
    }

    private static String estimatesStayClose(long sparseMaxBytes, Random random) {
        HyperLogLog dense = HyperLogLog.create();
        dense.toDense();
        HyperLogLog sparse = HyperLogLog.create();
        double relativeError = 1.04 / Math.sqrt(HyperLogLog.REGISTERS);
        long seed = random.nextLong();
        byte[] element = new byte[8];
        long checkpoint = 1;
        for (long j = 1; j <= ELEMENTS; j++) {
            long e = j ^ seed;
            for (int b = 0; b < 8; b++) {
                element[b] = (byte) (e >>> (8 * b));
            }
            dense.add(element, sparseMaxBytes);
            sparse.add(element, sparseMaxBytes);
            if (j != checkpoint) {
                continue;
            }
            if (j < sparseMaxBytes / 2 && sparse.isDense()) {
                return "TESTFAILED sparse encoding not used";
            }
            long estimate = dense.estimate();
            if (estimate != sparse.estimate()) {
                return "TESTFAILED dense/sparse disagree";
            }
            long error = Math.abs(checkpoint - estimate);
            long maxError = j == 10 ? 1 : (long) Math.ceil(relativeError * 6 * checkpoint);
            if (error > maxError) {
                return "TESTFAILED Too big error. card:" + checkpoint + " abserr:" + error;
            }
            checkpoint *= 10;
        }
        return null;
    }
}
