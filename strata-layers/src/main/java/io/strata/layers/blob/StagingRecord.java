package io.strata.layers.blob;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The record of a value being staged under a fresh id, at {@code (2, id)}:
 * <pre>
 * byte  0       state: 0 staging (chunks being written, no head points at them),
 *                      1 committed (a head was switched to the id in the same transaction)
 * bytes 1..8    lease end: a database version, big-endian; past it the record is abandoned
 * bytes 9..     the blob's name (for diagnosis; cleanup does not need it)
 * </pre>
 */
record StagingRecord(boolean committed, long leaseEndVersion, byte[] name) {
    private static final int FIXED = 9;

    static StagingRecord decode(byte[] value) {
        if (value.length < FIXED || (value[0] != 0 && value[0] != 1)) {
            throw new IllegalStateException("not a blob staging record (" + value.length + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        boolean committed = b.get() == 1;
        long leaseEnd = b.getLong();
        return new StagingRecord(committed, leaseEnd, Arrays.copyOfRange(value, FIXED, value.length));
    }

    byte[] encode() {
        return ByteBuffer.allocate(FIXED + name.length).put((byte) (committed ? 1 : 0)).putLong(leaseEndVersion).put(name)
                .array();
    }

    /** Whether a cleaner reading at {@code version} may remove this record. */
    boolean expiredAt(long version) {
        return version > leaseEndVersion;
    }
}
