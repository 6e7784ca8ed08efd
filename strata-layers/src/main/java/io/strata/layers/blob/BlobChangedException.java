package io.strata.layers.blob;

import java.io.IOException;

/**
 * A read spanning several transactions found the blob replaced or changed after it started
 * (its head's id or revision differed). The bytes already returned belong to the value the
 * read started with; none of the new value's bytes were returned. Reading again from the
 * start reads the new value.
 */
public final class BlobChangedException extends IOException {
    BlobChangedException(String message) {
        super(message);
    }
}
