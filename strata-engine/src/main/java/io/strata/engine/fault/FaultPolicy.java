package io.strata.engine.fault;

import java.util.SplittableRandom;

/**
 * Seedable faults injected at commit, so that layers are tested the way FoundationDB tests
 * itself: against spurious conflicts, lost commit replies and expired transactions.
 *
 * <p>Each commit draws one outcome from the policy's seeded random source:
 * <ul>
 *   <li>{@link Fault#NOT_COMMITTED} — fails with 1020 without committing;</li>
 *   <li>{@link Fault#UNKNOWN_RESULT_COMMITTED} — commits, then reports 1021;</li>
 *   <li>{@link Fault#UNKNOWN_RESULT_NOT_COMMITTED} — reports 1021 without committing;</li>
 *   <li>{@link Fault#TRANSACTION_TOO_OLD} — fails with 1007 without committing.</li>
 * </ul>
 * With a single committing thread the sequence of faults is a pure function of the seed;
 * with several, each draw is still taken from the seeded source, in arrival order.
 * Immutable rates; the random source is synchronized.
 */
public final class FaultPolicy {
    /** What happens to one commit. */
    public enum Fault { NONE, NOT_COMMITTED, UNKNOWN_RESULT_COMMITTED, UNKNOWN_RESULT_NOT_COMMITTED, TRANSACTION_TOO_OLD }

    private static final FaultPolicy NONE = new FaultPolicy(0, 0, 0, 0, 0);

    private final long seed;
    private final double notCommitted;
    private final double unknownCommitted;
    private final double unknownNotCommitted;
    private final double tooOld;
    private final SplittableRandom random;

    private FaultPolicy(long seed, double notCommitted, double unknownCommitted, double unknownNotCommitted, double tooOld) {
        double total = notCommitted + unknownCommitted + unknownNotCommitted + tooOld;
        if (notCommitted < 0 || unknownCommitted < 0 || unknownNotCommitted < 0 || tooOld < 0 || total > 1.0) {
            throw new IllegalArgumentException("fault rates must be >= 0 and sum to at most 1, got " + total);
        }
        this.seed = seed;
        this.notCommitted = notCommitted;
        this.unknownCommitted = unknownCommitted;
        this.unknownNotCommitted = unknownNotCommitted;
        this.tooOld = tooOld;
        this.random = new SplittableRandom(seed);
    }

    /** No faults. */
    public static FaultPolicy none() {
        return NONE;
    }

    /** A builder of rates drawn from a source seeded with {@code seed}. */
    public static Builder seeded(long seed) {
        return new Builder(seed);
    }

    public long seed() {
        return seed;
    }

    public boolean isNone() {
        return notCommitted + unknownCommitted + unknownNotCommitted + tooOld == 0;
    }

    /** Draws the fate of one commit. */
    public Fault nextCommitFault() {
        if (isNone()) {
            return Fault.NONE;
        }
        double r;
        synchronized (random) {
            r = random.nextDouble();
        }
        if ((r -= notCommitted) < 0) {
            return Fault.NOT_COMMITTED;
        }
        if ((r -= unknownCommitted) < 0) {
            return Fault.UNKNOWN_RESULT_COMMITTED;
        }
        if ((r -= unknownNotCommitted) < 0) {
            return Fault.UNKNOWN_RESULT_NOT_COMMITTED;
        }
        if (r - tooOld < 0) {
            return Fault.TRANSACTION_TOO_OLD;
        }
        return Fault.NONE;
    }

    @Override
    public String toString() {
        return "FaultPolicy{seed=" + seed + ", notCommitted=" + notCommitted + ", unknownCommitted=" + unknownCommitted
                + ", unknownNotCommitted=" + unknownNotCommitted + ", tooOld=" + tooOld + "}";
    }

    /** Rates are probabilities per commit, each in [0, 1], summing to at most 1. */
    public static final class Builder {
        private final long seed;
        private double notCommitted;
        private double unknownCommitted;
        private double unknownNotCommitted;
        private double tooOld;

        private Builder(long seed) {
            this.seed = seed;
        }

        /** Spurious {@code not_committed} (1020). */
        public Builder notCommitted(double rate) {
            this.notCommitted = rate;
            return this;
        }

        /** {@code commit_unknown_result} (1021) after the commit did happen. */
        public Builder unknownResultCommitted(double rate) {
            this.unknownCommitted = rate;
            return this;
        }

        /** {@code commit_unknown_result} (1021) when the commit did not happen. */
        public Builder unknownResultNotCommitted(double rate) {
            this.unknownNotCommitted = rate;
            return this;
        }

        /** {@code transaction_too_old} (1007) at commit. */
        public Builder transactionTooOld(double rate) {
            this.tooOld = rate;
            return this;
        }

        public FaultPolicy build() {
            return new FaultPolicy(seed, notCommitted, unknownCommitted, unknownNotCommitted, tooOld);
        }
    }
}
