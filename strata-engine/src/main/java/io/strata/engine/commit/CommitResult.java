package io.strata.engine.commit;

import io.strata.engine.mutation.Versionstamps;

/**
 * A committed transaction's place in history.
 *
 * @param version    the commit version of its batch
 * @param batchOrder its order within the batch: the last two bytes of its versionstamp
 */
public record CommitResult(long version, int batchOrder) {
    /** The 10-byte versionstamp: 8-byte big-endian version, 2-byte big-endian batch order. */
    public byte[] versionstamp() {
        return Versionstamps.versionstamp(version, batchOrder);
    }
}
