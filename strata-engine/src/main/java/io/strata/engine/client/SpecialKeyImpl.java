package io.strata.engine.client;

import com.apple.foundationdb.KeyValue;
import io.strata.engine.util.ByteKeys;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One registered range of the special key space and how it is read: FoundationDB's
 * {@code SpecialKeyRangeReadImpl}, and with a {@link #command()} its
 * {@code SpecialKeyRangeRWImpl}, which {@code special_key_space_enable_writes} lets
 * transactions set and clear.
 *
 * <p>A read asks for all of the range's rows and filters them ({@link SpecialKeyRangeRead}):
 * FoundationDB caches an asynchronous range's whole answer for the length of one read so that
 * resolving selectors and reading agree; reading the whole range does the same for every range.
 *
 * @param begin   first key of the range
 * @param end     end of the range (exclusive)
 * @param rows    the range's rows for a transaction, ascending, every key in {@code [begin, end)}
 * @param command for a writable range, the management command its writes would run (named as in
 *                FoundationDB's error messages); null for a read-only range
 */
record SpecialKeyImpl(byte[] begin, byte[] end, Function<TransactionSpecialKeys, CompletableFuture<List<KeyValue>>> rows,
                      String command) {

    /** A read-only range. */
    static SpecialKeyImpl readOnly(byte[] begin, byte[] end, Function<TransactionSpecialKeys, CompletableFuture<List<KeyValue>>> rows) {
        return new SpecialKeyImpl(begin, end, rows, null);
    }

    /** A writable range. */
    static SpecialKeyImpl writable(byte[] begin, byte[] end, String command,
                                   Function<TransactionSpecialKeys, CompletableFuture<List<KeyValue>>> rows) {
        return new SpecialKeyImpl(begin, end, rows, command);
    }

    /** A read-only range of one key ({@code SingleSpecialKeyImpl}): its value, or nothing when the answer is null. */
    static SpecialKeyImpl singleKey(byte[] key, Function<TransactionSpecialKeys, CompletableFuture<byte[]>> value) {
        return readOnly(key, ByteKeys.keyAfter(key),
                tx -> value.apply(tx).thenApply(v -> v == null ? List.of() : List.of(new KeyValue(key, v))));
    }

    /** A range that always reads empty. */
    static Function<TransactionSpecialKeys, CompletableFuture<List<KeyValue>>> nothing() {
        return tx -> CompletableFuture.completedFuture(List.of());
    }

    boolean writable() {
        return command != null;
    }

    boolean contains(byte[] key) {
        return ByteKeys.compare(key, begin) >= 0 && ByteKeys.compare(key, end) < 0;
    }
}
