package io.strata.engine.client;

import io.strata.engine.error.FdbError;

import java.util.concurrent.CompletableFuture;

/**
 * Calls the engine does not support: blob granules, client status. Each fails
 * with FoundationDB's {@code unsupported_operation} (2108) and a sentence saying what is
 * missing — never silently.
 */
final class Unsupported {
    private Unsupported() {}

    static <T> CompletableFuture<T> failed(String what) {
        return CompletableFuture.failedFuture(FdbError.UNSUPPORTED_OPERATION.exception(what + " are not supported by the Strata engine"));
    }
}
