package io.strata.engine.client;

import com.apple.foundationdb.MappedKeyValue;
import com.apple.foundationdb.async.AsyncIterable;
import com.apple.foundationdb.async.AsyncIterator;
import io.strata.engine.error.FdbError;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * Calls the engine does not support: blob granules, mapped ranges, client status. Each fails
 * with FoundationDB's {@code unsupported_operation} (2108) and a sentence saying what is
 * missing — never silently.
 */
final class Unsupported {
    private Unsupported() {}

    static <T> CompletableFuture<T> failed(String what) {
        return CompletableFuture.failedFuture(FdbError.UNSUPPORTED_OPERATION.exception(what + " are not supported by the Strata engine"));
    }

    /** A range whose every read fails with 2108. */
    static AsyncIterable<MappedKeyValue> mappedRange() {
        return new AsyncIterable<>() {
            @Override
            public AsyncIterator<MappedKeyValue> iterator() {
                return new AsyncIterator<>() {
                    @Override
                    public CompletableFuture<Boolean> onHasNext() {
                        return failed("mapped range reads (getMappedRange)");
                    }

                    @Override
                    public boolean hasNext() {
                        return onHasNext().join();
                    }

                    @Override
                    public MappedKeyValue next() {
                        hasNext();
                        throw new NoSuchElementException();
                    }

                    @Override
                    public void cancel() {
                    }
                };
            }

            @Override
            public CompletableFuture<List<MappedKeyValue>> asList() {
                return failed("mapped range reads (getMappedRange)");
            }
        };
    }
}
