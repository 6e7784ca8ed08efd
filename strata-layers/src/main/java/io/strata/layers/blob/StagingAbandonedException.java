package io.strata.layers.blob;

import java.io.IOException;

/**
 * A staged write found its staging record gone: the writer went longer than the lease without
 * a transaction, cleanup removed the staged chunks, and nothing of the write is visible. The
 * blob holds whatever it held before; writing again is safe.
 */
public final class StagingAbandonedException extends IOException {
    StagingAbandonedException(long id) {
        super("the staging of blob id " + id + " was abandoned (lease expired) and cleaned up; nothing was written");
    }
}
